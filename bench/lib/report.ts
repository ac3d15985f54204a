/** The result table, printed to the terminal and written as Markdown for docs/benchmark.md. */

export type Verdict = 'pass' | 'FAIL' | '—';

export interface Row {
  metric: string;
  direct: string;
  gateway: string;
  added: string;
  /** The same figure for the bare Node proxy (bench/floor-proxy.ts), where it was measured. */
  floor: string;
  target: string;
  verdict: Verdict;
}

export const NONE = '—';

/** A row with a target: `added` is compared with `limit` (both in the unit the formatter prints). */
export function checked(
  metric: string,
  values: { direct?: string; gateway: string; added: string; floor?: string },
  addedValue: number,
  limit: number,
  target: string,
): Row {
  const verdict: Verdict = Number.isFinite(addedValue) && addedValue <= limit ? 'pass' : 'FAIL';
  return {
    metric,
    direct: values.direct ?? NONE,
    gateway: values.gateway,
    added: values.added,
    floor: values.floor ?? NONE,
    target,
    verdict,
  };
}

export function info(
  metric: string,
  values: { direct?: string; gateway: string; added?: string; floor?: string },
): Row {
  return {
    metric,
    direct: values.direct ?? NONE,
    gateway: values.gateway,
    added: values.added ?? NONE,
    floor: values.floor ?? NONE,
    target: NONE,
    verdict: NONE,
  };
}

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(3)} ms` : 'n/a');
export const signedMs = (value: number) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(3)} ms` : 'n/a';
export const micros = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} µs` : 'n/a');
export const mib = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : 'n/a');
export const perSecond = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} req/s` : 'n/a');

const HEADER = ['metric', 'direct', 'via gateway', 'added', 'bare Node proxy', 'target', 'result'];

/** The result table of bench/run.ts. */
export function markdownTable(rows: Row[]): string {
  return pipeTable(
    HEADER,
    rows.map((row) => [row.metric, row.direct, row.gateway, row.added, row.floor, row.target, row.verdict]),
  );
}

/** A Markdown pipe table with padded columns, so it reads well both raw in a terminal and rendered. */
export function pipeTable(header: string[], rows: string[][]): string {
  const cells = [header, ...rows];
  // String length counts code units; every character used here (µ, ≤, —, ×) is one unit, so padding lines up.
  const widths = header.map((_, column) => Math.max(...cells.map((line) => line[column]!.length)));
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  const rule = `| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`;
  return [line(cells[0]!), rule, ...cells.slice(1).map(line)].join('\n');
}
