import { describe, expect, it } from 'vitest';
import { checkFile, exportedNames, findImports, resolveImport, rules } from '../../../../scripts/boundaries/rules.mjs';

// The rules of scripts/check-boundaries.mjs on made-up files: what must fail, and what must stay allowed.
const context = { sharedNames: new Set(['LogView', 'TokenInput']) };
const check = (file: string, source: string) => checkFile(rules, file, source, context);

describe('boundary rules', () => {
  it('finds static, re-exported, dynamic and mocked imports with their lines', () => {
    const source =
      "import { a } from './a';\nexport { b } from '../b';\nconst c = () => import('./c');\nvi.mock('./d');\n";
    expect(findImports(source)).toEqual([
      { specifier: './a', line: 1 },
      { specifier: '../b', line: 2 },
      { specifier: './c', line: 3 },
      { specifier: './d', line: 4 },
    ]);
    expect(resolveImport('packages/web/src/features/log/pages/p.tsx', '../../task/types')).toBe(
      'packages/web/src/features/task/types',
    );
  });

  it('refuses a feature importing another feature, with the line', () => {
    const findings = check('packages/web/src/features/log/pages/log-page.tsx', "\nimport { x } from '../../task/x';\n");
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      line: 2,
      message: expect.stringContaining('features/log imports features/task'),
    });
  });

  it('allows a feature its own modules, components, hooks, lib and packages', () => {
    const source = [
      "import { a } from '../api/use-logs';",
      "import { b } from '../../../components/list/list-table';",
      "import { c } from '../../../hooks/use-status';",
      "import { d } from '../../../lib/api';",
      "import { e } from '@gateway/shared';",
    ].join('\n');
    expect(check('packages/web/src/features/log/pages/log-page.tsx', source)).toEqual([]);
  });

  it('refuses components, hooks and lib importing a feature, except in a test', () => {
    const source = "import { x } from '../../features/log/types';";
    expect(check('packages/web/src/components/list/x.tsx', source)).toHaveLength(1);
    expect(check('packages/web/src/components/list/x.test.tsx', source)).toEqual([]);
    expect(check('packages/web/src/app/routes.tsx', "import('../features/log/pages/log-page')")).toEqual([]);
  });

  it('refuses a features types.ts declaring a name shared exports, and allows a re-export', () => {
    const declared = 'export interface LogView {\n  id: number;\n}\nexport type LogFilters = {};\n';
    const findings = check('packages/web/src/features/log/types.ts', declared);
    expect(findings.map((f) => f.message)).toEqual(['LogView is also exported by @gateway/shared']);
    const reexported = "import type { LogView as LogItem } from '@gateway/shared';\nexport type { LogItem };\n";
    expect(check('packages/web/src/features/log/types.ts', reexported)).toEqual([]);
    expect(check('packages/web/src/features/log/log-view.ts', declared)).toEqual([]);
  });

  it('reads the names a shared module declares', () => {
    expect(
      exportedNames('export interface A {}\nexport type B = 1;\nexport const C = 1;\nexport function d() {}\n'),
    ).toEqual(['A', 'B', 'C', 'd']);
  });

  it('refuses services importing the relay, and endpoints or formats importing a provider', () => {
    const relay = "import { RelayError } from '../../relay/errors.js';";
    expect(check('packages/server/src/services/accounts/x.ts', relay)).toHaveLength(1);
    expect(check('packages/server/src/relay/admission/x.ts', relay)).toEqual([]);
    const provider = "import { x } from '../providers/claude/adapter.js';";
    expect(check('packages/server/src/relay/endpoints/chat.ts', provider)).toHaveLength(1);
    expect(
      check('packages/server/src/relay/formats/anthropic/x.ts', "import { x } from '../../providers/errors.js';"),
    ).toHaveLength(1);
    expect(check('packages/server/src/relay/pipeline.ts', "import { x } from './providers/registry.js';")).toEqual([]);
    expect(
      check('packages/server/src/relay/providers/claude/adapter.ts', "import { x } from '../../endpoints/chat.js';"),
    ).toHaveLength(1);
  });

  it('refuses numbers where ChannelStatus or LogType names the value, outside vendors’ wire formats and tests', () => {
    const numbers = [
      'if (channel.status === 1) go();',
      'if (channel.type === 24) go();',
      'void writer.setStatus(channel.id, 3, reason);',
      '    type: 2,',
    ].join('\n');
    expect(check('packages/server/src/relay/pipeline.ts', numbers).map((finding) => finding.line)).toEqual([
      1, 2, 3, 4,
    ]);
    expect(check('packages/server/src/relay/providers/xunfei/frames.ts', numbers)).toEqual([]);
    expect(check('packages/server/src/relay/pipeline.test.ts', numbers)).toEqual([]);
    const named = 'if (channel.status === ChannelStatus.Enabled) go();\n    type: LogType.Consume,';
    expect(check('packages/server/src/relay/pipeline.ts', named)).toEqual([]);
  });

  it('refuses Kysely outside the server’s db/ folder', () => {
    const query = "import { sql } from 'kysely';\nawait ctx.db.kysely.selectFrom('users').execute();";
    expect(check('packages/server/src/api/token.ts', query).map((finding) => finding.line)).toEqual([1, 2]);
    expect(check('packages/server/src/db/repos/tokens.ts', query)).toEqual([]);
    expect(check('packages/server/test/x.test.ts', query)).toEqual([]);
  });
});
