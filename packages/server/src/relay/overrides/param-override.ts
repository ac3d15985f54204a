import { deletePath, getPath, setPath } from './json-path.js';

/**
 * A channel's `param_override`, applied to the upstream body after conversion. Two forms, as in the family:
 * - legacy: a flat object whose keys are set into the body (a dotted key sets a nested path);
 * - operations: `{"operations":[{path, mode, value, keep_origin, from, to, conditions, logic}]}`, run in order,
 *   each only when its conditions hold.
 * Supported modes are listed in OPERATIONS below; a mode the gateway does not know is an error in the channel's
 * configuration (the request goes to another channel and the log says why) rather than being silently skipped.
 */

export interface OverrideVariables {
  /** The model name the client asked for. */
  original_model: string;
  /** The name sent upstream (after model mapping). */
  upstream_model: string;
}

/** `return_error`: answer the client with this instead of calling the upstream. */
export interface OverrideRefusal {
  status: number;
  message: string;
  code: string;
  skipRetry: boolean;
}

export interface OverrideOutcome {
  body: Record<string, unknown>;
  /** Header edits for the outgoing call: a string sets, null deletes (names lower-cased). */
  headers: Map<string, string | null>;
  refusal?: OverrideRefusal;
}

export class InvalidOverrideError extends Error {}

interface Condition {
  path?: string;
  mode?: string;
  value?: unknown;
  invert?: boolean;
  pass_missing_key?: boolean;
}

interface Operation {
  path?: string;
  mode?: string;
  value?: unknown;
  keep_origin?: boolean;
  from?: string;
  to?: string;
  conditions?: Condition[];
  logic?: string;
}

type Run = (operation: Operation, outcome: OverrideOutcome) => void;

const asString = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

function requirePath(operation: Operation, field: 'path' | 'from' | 'to' = 'path'): string {
  const path = operation[field];
  if (typeof path !== 'string' || path.trim() === '') {
    throw new InvalidOverrideError(`param_override: "${operation.mode}" needs "${field}"`);
  }
  return path.trim();
}

/** Rewrites the string at `path` (missing or non-string values are left alone). */
function stringEdit(edit: (text: string, operation: Operation) => string): Run {
  return (operation, outcome) => {
    const path = requirePath(operation);
    const current = getPath(outcome.body, path);
    if (current.found && typeof current.value === 'string') {
      setPath(outcome.body, path, edit(current.value, operation));
    }
  };
}

/** Adds `value` at the start or end of the string or array at `path` (or sets it when missing). */
function extend(atStart: boolean): Run {
  return (operation, outcome) => {
    const path = requirePath(operation);
    const current = getPath(outcome.body, path);
    if (!current.found) {
      setPath(outcome.body, path, operation.value);
    } else if (Array.isArray(current.value)) {
      const items = Array.isArray(operation.value) ? operation.value : [operation.value];
      setPath(outcome.body, path, atStart ? [...items, ...current.value] : [...current.value, ...items]);
    } else if (typeof current.value === 'string') {
      const text = asString(operation.value);
      setPath(outcome.body, path, atStart ? text + current.value : current.value + text);
    }
  };
}

function transfer(removeSource: boolean): Run {
  return (operation, outcome) => {
    const from = requirePath(operation, 'from');
    const to = requirePath(operation, 'to');
    const source = getPath(outcome.body, from);
    if (!source.found) return;
    if (operation.keep_origin && getPath(outcome.body, to).found) return;
    setPath(outcome.body, to, structuredClone(source.value));
    if (removeSource) deletePath(outcome.body, from);
  };
}

function compileRegex(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'g');
  } catch {
    throw new InvalidOverrideError(`param_override: invalid regular expression ${JSON.stringify(pattern)}`);
  }
}

function headerName(operation: Operation, field: 'path' | 'from' | 'to' = 'path'): string {
  return requirePath(operation, field).toLowerCase();
}

const OPERATIONS: Record<string, Run> = {
  set(operation, outcome) {
    const path = requirePath(operation);
    if (operation.keep_origin && getPath(outcome.body, path).found) return;
    setPath(outcome.body, path, structuredClone(operation.value));
  },
  delete(operation, outcome) {
    deletePath(outcome.body, requirePath(operation));
  },
  move: transfer(true),
  copy: transfer(false),
  prepend: extend(true),
  append: extend(false),
  trim_prefix: stringEdit((text, op) =>
    text.startsWith(asString(op.value)) ? text.slice(asString(op.value).length) : text,
  ),
  trim_suffix: stringEdit((text, op) => {
    const suffix = asString(op.value);
    return suffix && text.endsWith(suffix) ? text.slice(0, -suffix.length) : text;
  }),
  ensure_prefix: stringEdit((text, op) => (text.startsWith(asString(op.value)) ? text : asString(op.value) + text)),
  ensure_suffix: stringEdit((text, op) => (text.endsWith(asString(op.value)) ? text : text + asString(op.value))),
  trim_space: stringEdit((text) => text.trim()),
  to_lower: stringEdit((text) => text.toLowerCase()),
  to_upper: stringEdit((text) => text.toUpperCase()),
  replace: stringEdit((text, op) => (op.from ? text.replaceAll(op.from, op.to ?? '') : text)),
  regex_replace: stringEdit((text, op) => text.replace(compileRegex(op.from ?? ''), op.to ?? '')),
  return_error(operation, outcome) {
    const spec = (typeof operation.value === 'object' && operation.value !== null ? operation.value : {}) as Record<
      string,
      unknown
    >;
    const status = Number(spec.status_code ?? 400);
    outcome.refusal = {
      status: Number.isInteger(status) && status >= 400 && status <= 599 ? status : 400,
      message: typeof operation.value === 'string' ? operation.value : asString(spec.message) || 'request refused',
      code: asString(spec.code) || 'param_override_refused',
      skipRetry: spec.skip_retry !== false,
    };
  },
  set_header(operation, outcome) {
    outcome.headers.set(headerName(operation), asString(operation.value));
  },
  delete_header(operation, outcome) {
    outcome.headers.set(headerName(operation), null);
  },
};

function compare(actual: unknown, condition: Condition): boolean {
  const expected = condition.value;
  switch (condition.mode ?? 'full') {
    case 'full':
      return typeof actual === 'string' || typeof expected === 'string'
        ? asString(actual) === asString(expected)
        : JSON.stringify(actual) === JSON.stringify(expected);
    case 'prefix':
      return asString(actual).startsWith(asString(expected));
    case 'suffix':
      return asString(actual).endsWith(asString(expected));
    case 'contains':
      return Array.isArray(actual)
        ? actual.some((item) => asString(item) === asString(expected))
        : asString(actual).includes(asString(expected));
    case 'gt':
      return Number(actual) > Number(expected);
    case 'gte':
      return Number(actual) >= Number(expected);
    case 'lt':
      return Number(actual) < Number(expected);
    case 'lte':
      return Number(actual) <= Number(expected);
    default:
      throw new InvalidOverrideError(`param_override: unknown condition mode "${condition.mode}"`);
  }
}

function conditionHolds(condition: Condition, body: Record<string, unknown>, variables: OverrideVariables): boolean {
  const path = condition.path ?? '';
  let target = getPath(body, path);
  if (!target.found && Object.hasOwn(variables, path)) {
    target = { found: true, value: variables[path as keyof OverrideVariables] };
  }
  if (!target.found) return condition.pass_missing_key === true;
  const result = compare(target.value, condition);
  return condition.invert ? !result : result;
}

function shouldRun(operation: Operation, body: Record<string, unknown>, variables: OverrideVariables): boolean {
  const conditions = operation.conditions ?? [];
  if (conditions.length === 0) return true;
  const results = conditions.map((condition) => conditionHolds(condition, body, variables));
  return String(operation.logic ?? 'AND').toUpperCase() === 'OR' ? results.some(Boolean) : results.every(Boolean);
}

/** Applies the override to a parsed body (modified in place and returned in the outcome). */
export function applyParamOverride(
  body: Record<string, unknown>,
  override: Record<string, unknown>,
  variables: OverrideVariables,
): OverrideOutcome {
  const outcome: OverrideOutcome = { body, headers: new Map() };
  const operations = override.operations;
  if (!Array.isArray(operations)) {
    for (const [key, value] of Object.entries(override)) setPath(body, key, structuredClone(value));
    return outcome;
  }
  for (const raw of operations) {
    const operation = (typeof raw === 'object' && raw !== null ? raw : {}) as Operation;
    const run = OPERATIONS[operation.mode ?? ''];
    if (!run) throw new InvalidOverrideError(`param_override: unknown mode "${operation.mode ?? ''}"`);
    if (!shouldRun(operation, body, variables)) continue;
    run(operation, outcome);
    if (outcome.refusal) break;
  }
  return outcome;
}
