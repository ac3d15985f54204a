/**
 * The Prometheus text exposition format, version 0.0.4: `# HELP` and `# TYPE` once per family, then one
 * `name{label="value",…} number` line per sample. Only the escaping and number spelling the format asks for.
 */
export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type MetricType = 'counter' | 'gauge' | 'histogram';

/** Label values may hold anything (model names come from clients): backslash, double quote and newline are escaped. */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`));
}

/** Help text escapes only backslash and newline. */
function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (char) => (char === '\n' ? '\\n' : '\\\\'));
}

/** Go's float spelling for the special values; JavaScript's own for the rest (Go parses `1e+21` too). */
export function formatValue(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

/** `a="x",b="y"`: the inside of a sample's braces, built once per series (not per observation). */
export function labelPairs(names: readonly string[], values: readonly string[]): string {
  return names.map((name, index) => `${name}="${escapeLabelValue(values[index] ?? '')}"`).join(',');
}

export function writeHead(out: string[], name: string, type: MetricType, help: string): void {
  out.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
}

export function writeSample(out: string[], name: string, pairs: string, value: number): void {
  out.push(pairs ? `${name}{${pairs}} ${formatValue(value)}` : `${name} ${formatValue(value)}`);
}

/** A whole family read at scrape time (a cache's counts, a queue's length): one sample per [label pairs, value]. */
export function writeFamily(
  out: string[],
  name: string,
  type: 'counter' | 'gauge',
  help: string,
  samples: ReadonlyArray<readonly [pairs: string, value: number]>,
): void {
  writeHead(out, name, type, help);
  for (const [pairs, value] of samples) writeSample(out, name, pairs, value);
}
