/** Types of rules.mjs, for the tests that call the rules (see packages/web/src/lib/boundaries.test.ts). */
export interface Finding {
  file: string;
  line: number;
  rule: string;
  message: string;
}
export interface Rule {
  name: string;
  /** Path prefix from the repo root of the files the rule applies to. */
  files: string;
  check?: (importPath: string, file: string) => string | null;
  checkSource?: (
    source: string,
    file: string,
    context: { sharedNames: ReadonlySet<string> },
  ) => Array<{ line: number; message: string }>;
}
export const rules: Rule[];
export function findImports(source: string): Array<{ specifier: string; line: number }>;
export function resolveImport(file: string, specifier: string): string;
export function featureOf(file: string): string | null;
export function declaredTypeNames(source: string): Array<{ name: string; line: number }>;
export function exportedNames(source: string): string[];
export function checkFile(
  ruleList: Rule[],
  file: string,
  source: string,
  context: { sharedNames: ReadonlySet<string> },
): Finding[];
