/** What one table of the copy found (a dry run) or did. */
export interface TableReport {
  table: string;
  /** False when the source has no such table (one-api has no drawings, tasks or top-ups). */
  inSource: boolean;
  /** Rows read from the source. */
  read: number;
  /** Rows the target does not have yet: copied (or, in a dry run, to copy). */
  added: number;
  /** Rows the target already holds with the same values: skipped. */
  unchanged: number;
  /** Rows the target holds under the same key with other values: conflicts, or updated with --update-changed. */
  changed: number;
  /** Rows that cannot be carried; each one is listed in `uncarriable`. */
  skipped: number;
  /** Family columns with no place in our schema: their values stay behind. */
  droppedColumns: string[];
}

export interface RowProblem {
  table: string;
  /** The row's key, `id=7` or `group=default, model=gpt-4o, channel_id=1`. */
  key: string;
  reasons: string[];
}

export interface CopyReport {
  dryRun: boolean;
  /** True when rows were written (not a dry run, and nothing refused). */
  written: boolean;
  /** Why the copy refused to write (in a dry run: would refuse). */
  refused?: string;
  tables: TableReport[];
  uncarriable: RowProblem[];
  /** Rows the target holds differently (at most CONFLICTS_LISTED per table are listed; `changed` counts all). */
  conflicts: RowProblem[];
}

export const CONFLICTS_LISTED = 50;

export function totalAdded(report: CopyReport): number {
  return report.tables.reduce((sum, table) => sum + table.added, 0);
}

export function formatReport(report: CopyReport): string {
  const lines: string[] = [];
  lines.push(report.dryRun ? 'Dry run: nothing written.' : report.written ? 'Copied.' : 'Nothing written.');
  const row = (name: string, cells: Array<string | number>) =>
    name.padEnd(12) + cells.map((cell) => String(cell).padStart(10)).join('');
  lines.push(row('table', ['read', 'new', 'already', 'changed', 'skipped']));
  for (const table of report.tables) {
    lines.push(
      table.inSource
        ? row(table.table, [table.read, table.added, table.unchanged, table.changed, table.skipped])
        : `${table.table.padEnd(12)}(not in the source)`,
    );
  }
  const added = totalAdded(report);
  if (report.dryRun) lines.push(`${added} new rows to copy.`);
  else if (report.written) {
    lines.push(
      added ? `${added} new rows copied.` : '0 new rows: the target already holds every row that can be carried.',
    );
  }
  const dropped = report.tables.filter((table) => table.droppedColumns.length);
  if (dropped.length) {
    lines.push('Family columns this server has no place for (left behind):');
    for (const table of dropped) lines.push(`  ${table.table}: ${table.droppedColumns.join(', ')}`);
  }
  if (report.uncarriable.length) {
    lines.push('Rows that cannot be carried:');
    for (const row of report.uncarriable) lines.push(`  ${row.table} ${row.key}: ${row.reasons.join('; ')}`);
  }
  if (report.conflicts.length) {
    lines.push('Rows the target already holds with other values:');
    for (const row of report.conflicts) lines.push(`  ${row.table} ${row.key}: ${row.reasons.join('; ')}`);
  }
  if (report.refused) lines.push(`${report.dryRun ? 'The copy would be refused' : 'Refused'}: ${report.refused}`);
  return lines.join('\n');
}
