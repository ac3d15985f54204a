import { parseArgs } from 'node:util';
import { CopyRefused, copyFamilyDatabase } from './db/family/copy/copy.js';
import { describeEndpoint, parseEndpoint } from './db/family/copy/endpoints.js';
import { formatReport } from './db/family/copy/report.js';

const USAGE = `Copies a new-api or one-api database into a fresh (or earlier copied) database of this server.

  npm run copy-family -- --from <DSN or SQLite file> --to <DSN or SQLite file> [--dry-run] [--update-changed]
                         [--from-log <DSN or SQLite file>] [--to-log <DSN or SQLite file>]

  DSN: postgres://user:pass@host:5432/db, mysql://user:pass@host:3306/db or user:pass@tcp(host:3306)/db
  --dry-run          check and report (rows per table, rows that cannot be carried); write nothing
  --update-changed   rows the target holds with other values under the same ids take the source's values
  --from-log         the family's log database (its LOG_SQL_DSN): usage logs are read there, not in --from
  --to-log           our log database (LOG_SQL_DSN): usage logs are written there, not in --to
Exit status: 0 copied (a dry run: would copy), 1 refused (would be) or failed, 2 usage.`;

async function main(): Promise<number> {
  let values: {
    from?: string;
    to?: string;
    'from-log'?: string;
    'to-log'?: string;
    'dry-run'?: boolean;
    'update-changed'?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        'from-log': { type: 'string' },
        'to-log': { type: 'string' },
        'dry-run': { type: 'boolean' },
        'update-changed': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.from || !values.to) {
    console.error(`--from and --to are required.\n\n${USAGE}`);
    return 2;
  }
  // npm runs scripts from the package's folder; relative SQLite paths mean the folder the command was typed in.
  if (process.env.INIT_CWD) process.chdir(process.env.INIT_CWD);
  const from = parseEndpoint(values.from);
  const to = parseEndpoint(values.to);
  const fromLog = values['from-log'] ? parseEndpoint(values['from-log']) : undefined;
  const toLog = values['to-log'] ? parseEndpoint(values['to-log']) : undefined;
  console.error(`from ${describeEndpoint(from)}\nto   ${describeEndpoint(to)}`);
  if (fromLog) console.error(`logs from ${describeEndpoint(fromLog)}`);
  if (toLog) console.error(`logs to   ${describeEndpoint(toLog)}`);
  let step = '';
  let last = 0;
  const report = await copyFamilyDatabase({
    from,
    to,
    fromLog,
    toLog,
    dryRun: values['dry-run'] ?? false,
    updateChanged: values['update-changed'] ?? false,
    progress: (table, read, writing) => {
      const now = `${writing ? 'copied' : 'checked'} ${table}`;
      if (now !== step) [step, last] = [now, 0];
      // A line every 100,000 rows: the log of a busy gateway takes a while (and is read twice: checked, copied).
      if (read - last >= 100_000) {
        last = read;
        console.error(`  ${now}: ${read} rows`);
      }
    },
  });
  console.log(formatReport(report));
  return report.refused ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof CopyRefused ? `Refused: ${error.message}` : error);
    process.exit(1);
  },
);
