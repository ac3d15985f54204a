// The boundary rules `scripts/check-boundaries.mjs` enforces, kept apart from the file walking so tests can call
// them on made-up paths. A rule is `{ name, files, check }`: `files` is the path prefix (from the repo root) of the
// files it applies to; `check(importPath, file)` gets one import of such a file and returns why it breaks the
// rule, or null. A rule may instead have `checkSource(source, file, context)` for what an import list cannot show;
// it returns `{ line, message }` findings. Server rules are added to the list the same way.
import path from 'node:path';

/** Every module specifier a file imports (static, `export … from`, dynamic `import()`, `vi.mock`), with its line. */
export function findImports(source) {
  const found = [];
  const pattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.mock\(\s*)(['"])([^'"\n]+)\1/g;
  for (const match of source.matchAll(pattern)) {
    const line = source.slice(0, match.index).split('\n').length;
    found.push({ specifier: match[2], line });
  }
  return found;
}

/** A relative specifier as a path from the repo root (no extension added); a package name stays as written. */
export function resolveImport(file, specifier) {
  if (!specifier.startsWith('.')) return specifier;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
}

const WEB_FEATURES = 'packages/web/src/features/';

/** The feature a path belongs to (`packages/web/src/features/<name>/…` → name), or null. */
export function featureOf(file) {
  if (!file.startsWith(WEB_FEATURES)) return null;
  return file.slice(WEB_FEATURES.length).split('/')[0] || null;
}

/** The type names a `features/*` types file declares (`export interface X`, `export type X`). */
export function declaredTypeNames(source) {
  const names = [];
  const pattern = /^export\s+(?:interface|type)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of source.matchAll(pattern)) {
    names.push({ name: match[1], line: source.slice(0, match.index).split('\n').length });
  }
  return names;
}

/** The names a shared module exports by declaration (heuristic: `export interface|type|const|function|class|enum`). */
export function exportedNames(source) {
  const pattern =
    /^export\s+(?:declare\s+)?(?:interface|type|const|let|function|class|enum|abstract\s+class)\s+([A-Za-z_$][\w$]*)/gm;
  return [...source.matchAll(pattern)].map((match) => match[1]);
}

const SERVER = 'packages/server/src/';
const inServer = (file, folder) => file.startsWith(`${SERVER}${folder}`);
const isTest = (file) => /\.test\.[mc]?[jt]sx?$/.test(file);

/**
 * Numbers written where a named constant says what they mean: a channel's type or status, a log row's type
 * (ChannelStatus, LogType in @gateway/shared; a channel type by its adaptor name through channelType()).
 */
const NUMBERED_CONSTANTS = [
  {
    pattern: /\b(?:channel|pinned|candidate)\.(?:type|status)\s*[!=]==?\s*\d/,
    says: 'a channel type or status as a number',
  },
  { pattern: /\bchannelType\s*[!=]==?\s*\d/, says: 'a channel type as a number' },
  { pattern: /\bsetStatus\([^,()]+,\s*\d/, says: 'a channel status as a number' },
  { pattern: /^\s*type:\s*[0-5],?\s*$/, says: 'a log type as a number' },
];

export const rules = [
  {
    name: 'server: services/ is below the relay and never imports it (the relay uses services, not the other way)',
    files: `${SERVER}services/`,
    check: (importPath) => (importPath.startsWith(`${SERVER}relay/`) ? `imports ${importPath}` : null),
  },
  {
    name: 'server: client formats and endpoints never import an upstream provider (providers/<name>/ is its own)',
    files: `${SERVER}relay/`,
    check(importPath, file) {
      if (!['relay/formats/', 'relay/endpoints/', 'relay/handlers/'].some((folder) => inServer(file, folder))) {
        return null;
      }
      return importPath.startsWith(`${SERVER}relay/providers/`) ? `imports ${importPath}` : null;
    },
  },
  {
    name: 'server: a provider never imports an endpoint or the conveyor (it is asked, it does not ask)',
    files: `${SERVER}relay/providers/`,
    check: (importPath) =>
      /^packages\/server\/src\/relay\/(endpoints|handlers)\//.test(importPath) ||
      importPath === `${SERVER}relay/pipeline.js`
        ? `imports ${importPath}`
        : null,
  },
  {
    name: 'server: SQL only in db/ (repositories take a transaction from db.inTransaction; no Kysely elsewhere)',
    files: SERVER,
    checkSource(source, file) {
      if (inServer(file, 'db/') || isTest(file)) return [];
      return source
        .split('\n')
        .flatMap((text, index) =>
          /from\s+'kysely'|\.kysely\b|\bsqlOf\b/.test(text)
            ? [{ line: index + 1, message: 'Kysely outside db/: move the query into a repository' }]
            : [],
        );
    },
  },
  {
    name: 'server: named constants, not numbers, for channel types and statuses and log types',
    files: SERVER,
    checkSource(source, file) {
      // Vendors' own wire formats have numeric fields of their own.
      if (isTest(file) || inServer(file, 'relay/providers/') || inServer(file, 'relay/formats/')) return [];
      return source.split('\n').flatMap((text, index) =>
        NUMBERED_CONSTANTS.filter(({ pattern }) => pattern.test(text)).map(({ says }) => ({
          line: index + 1,
          message: `${says}: use the named constant`,
        })),
      );
    },
  },
  {
    name: 'web: a feature never imports another feature (shared widgets go to components/, hooks to hooks/ or lib/)',
    files: WEB_FEATURES,
    check(importPath, file) {
      const own = featureOf(file);
      const other = featureOf(importPath);
      return other && other !== own ? `features/${own} imports features/${other} (${importPath})` : null;
    },
  },
  {
    name: 'web: components/, hooks/ and lib/ are below the features and never import them',
    files: 'packages/web/src/',
    check(importPath, file) {
      if (!/^packages\/web\/src\/(components|hooks|lib)\//.test(file)) return null;
      // A test may mount a page to exercise a shared widget in place.
      if (/\.test\.tsx?$/.test(file)) return null;
      return featureOf(importPath) ? `${file.split('/')[3]}/ imports ${importPath}` : null;
    },
  },
  {
    name: 'web: a server answer shape is declared once, in @gateway/shared (features/*/types.ts may re-export it)',
    files: WEB_FEATURES,
    checkSource(source, file, { sharedNames }) {
      if (!/^packages\/web\/src\/features\/[^/]+\/types\.ts$/.test(file)) return [];
      return declaredTypeNames(source)
        .filter(({ name }) => sharedNames.has(name))
        .map(({ name, line }) => ({ line, message: `${name} is also exported by @gateway/shared` }));
    },
  },
];

/** Every finding of `ruleList` in one file: `{ file, line, rule, message }`. */
export function checkFile(ruleList, file, source, context) {
  const findings = [];
  const imports = findImports(source);
  for (const rule of ruleList) {
    if (!file.startsWith(rule.files)) continue;
    if (rule.check) {
      for (const { specifier, line } of imports) {
        const message = rule.check(resolveImport(file, specifier), file);
        if (message) findings.push({ file, line, rule: rule.name, message });
      }
    }
    if (rule.checkSource) {
      for (const { line, message } of rule.checkSource(source, file, context)) {
        findings.push({ file, line, rule: rule.name, message });
      }
    }
  }
  return findings;
}
