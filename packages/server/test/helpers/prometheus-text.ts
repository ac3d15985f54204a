/**
 * A strict reader of the Prometheus text exposition format 0.0.4, for tests: it throws on anything a Prometheus
 * server would refuse or misread (bad names, bad escapes, a TYPE after its samples, a family split in two, the
 * same series twice, histograms whose buckets do not add up). No parser package is installed in this checkout.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

class ParseError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

function parseNumber(text: string, line: number): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new ParseError(line, `bad number "${text}"`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `start` (the `{`); returns the labels and the index after the `}`. */
function parseLabels(text: string, start: number, line: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let at = start + 1;
  while (true) {
    if (text[at] === '}') return { labels, end: at + 1 };
    const nameEnd = text.indexOf('=', at);
    if (nameEnd === -1) throw new ParseError(line, 'label without "="');
    const name = text.slice(at, nameEnd);
    if (!LABEL_NAME.test(name) || name.startsWith('__')) throw new ParseError(line, `bad label name "${name}"`);
    if (name in labels) throw new ParseError(line, `label "${name}" twice`);
    if (text[nameEnd + 1] !== '"') throw new ParseError(line, `label "${name}" value is not quoted`);
    let value = '';
    at = nameEnd + 2;
    while (text[at] !== '"') {
      if (at >= text.length) throw new ParseError(line, `label "${name}" value is not closed`);
      if (text[at] === '\\') {
        const escaped = text[at + 1];
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else throw new ParseError(line, `bad escape "\\${escaped}" in label "${name}"`);
        at += 2;
      } else {
        if (text[at] === '\n') throw new ParseError(line, 'raw newline in a label value');
        value += text[at];
        at += 1;
      }
    }
    labels[name] = value;
    at += 1;
    if (text[at] === ',') at += 1;
    else if (text[at] !== '}') throw new ParseError(line, `expected "," or "}" after label "${name}"`);
  }
}

/** The family a sample belongs to: a histogram's `_bucket`, `_sum`, `_count` belong to their base name. */
function familyOf(name: string, families: Map<string, MetricFamily>): MetricFamily | undefined {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = families.get(name.slice(0, -suffix.length));
    if (base && (base.type === 'histogram' || base.type === 'summary')) return base;
  }
  return families.get(name);
}

function checkHistogram(family: MetricFamily): void {
  const series = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name === `${family.name}_bucket`) {
      if (le === undefined) throw new Error(`${family.name}: bucket without le`);
      entry.buckets.push([parseNumber(le, 0), sample.value]);
    } else if (sample.name === `${family.name}_sum`) entry.sum = sample.value;
    else if (sample.name === `${family.name}_count`) entry.count = sample.value;
    else throw new Error(`${family.name}: unexpected sample ${sample.name}`);
  }
  for (const [key, entry] of series) {
    const where = `${family.name}${key}`;
    if (entry.sum === undefined || entry.count === undefined) throw new Error(`${where}: _sum or _count missing`);
    const bounds = entry.buckets.map(([bound]) => bound);
    if (bounds.at(-1) !== Number.POSITIVE_INFINITY) throw new Error(`${where}: no le="+Inf" bucket last`);
    for (let index = 1; index < entry.buckets.length; index++) {
      if (bounds[index]! <= bounds[index - 1]!) throw new Error(`${where}: le bounds not increasing`);
      if (entry.buckets[index]![1] < entry.buckets[index - 1]![1]) throw new Error(`${where}: buckets not cumulative`);
    }
    if (entry.buckets.at(-1)![1] !== entry.count) throw new Error(`${where}: le="+Inf" bucket differs from _count`);
  }
}

export function parsePrometheusText(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const seenSeries = new Set<string>();
  const closed = new Set<string>();
  let current: MetricFamily | null = null;
  const lines = text.split('\n');
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a newline');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const meta = /^#\s*(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(raw);
    if (meta) {
      const [, kind, name, rest = ''] = meta;
      if (!METRIC_NAME.test(name!)) throw new ParseError(line, `bad metric name "${name}"`);
      let family = families.get(name!);
      if (family && (closed.has(name!) || family.samples.length > 0)) {
        throw new ParseError(line, `${kind} for ${name} after its samples`);
      }
      if (!family) {
        family = { name: name!, type: 'untyped', samples: [] };
        families.set(name!, family);
      }
      if (current && current !== family) closed.add(current.name);
      current = family;
      if (kind === 'HELP') {
        if (family.help !== undefined) throw new ParseError(line, `second HELP for ${name}`);
        if (/\\[^\\n]/.test(rest.replace(/\\\\/g, ''))) throw new ParseError(line, `bad escape in HELP for ${name}`);
        family.help = rest.replace(/\\(\\|n)/g, (_all, char: string) => (char === 'n' ? '\n' : '\\'));
      } else {
        if (!TYPES.has(rest)) throw new ParseError(line, `unknown type "${rest}"`);
        if (family.type !== 'untyped') throw new ParseError(line, `second TYPE for ${name}`);
        family.type = rest as MetricFamily['type'];
      }
      return;
    }
    if (raw.startsWith('#')) return;
    const nameMatch = /^[^{\s]+/.exec(raw);
    const name = nameMatch?.[0] ?? '';
    if (!METRIC_NAME.test(name)) throw new ParseError(line, `bad metric name "${name}"`);
    let labels: Record<string, string> = {};
    let at = name.length;
    if (raw[at] === '{') ({ labels, end: at } = parseLabels(raw, at, line));
    const fields = raw.slice(at).trim().split(/\s+/);
    if (raw[at] !== ' ' || fields.length < 1 || fields.length > 2) throw new ParseError(line, 'expected " value"');
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new ParseError(line, 'bad timestamp');
    const value = parseNumber(fields[0]!, line);
    let family = familyOf(name, families);
    if (!family) {
      family = { name, type: 'untyped', samples: [] };
      families.set(name, family);
    }
    if (closed.has(family.name)) throw new ParseError(line, `samples of ${family.name} are not together`);
    if (current && current !== family) closed.add(current.name);
    current = family;
    if (family.type === 'counter' && !(value >= 0)) throw new ParseError(line, `counter ${name} is ${value}`);
    if (family.type === 'histogram' && name === family.name)
      throw new ParseError(line, `${name}: bare histogram sample`);
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seenSeries.has(series)) throw new ParseError(line, `series ${series} twice`);
    seenSeries.add(series);
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of the one sample of `name` whose labels are exactly `labels`; undefined when there is none. */
export function sampleValue(
  families: Map<string, MetricFamily>,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = JSON.stringify(Object.entries(labels).sort());
  for (const family of families.values()) {
    for (const sample of family.samples) {
      if (sample.name === name && JSON.stringify(Object.entries(sample.labels).sort()) === wanted) return sample.value;
    }
  }
  return undefined;
}
