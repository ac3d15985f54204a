/**
 * Dotted paths into a JSON body, as channel param overrides write them: `temperature`, `messages.0.content`,
 * `messages.-1.content` (negative indexes count from the end of an array), `metadata.user.id`.
 */

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

function segments(path: string): string[] {
  return path.split('.').filter((segment) => segment !== '');
}

/** An array index (negative from the end) or -1 when the segment is not a usable index for this array. */
function arrayIndex(array: unknown[], segment: string): number {
  if (!/^-?\d+$/.test(segment)) return -1;
  const index = Number(segment);
  const resolved = index < 0 ? array.length + index : index;
  return resolved >= 0 ? resolved : -1;
}

function child(container: Container, segment: string): unknown {
  if (Array.isArray(container)) {
    const index = arrayIndex(container, segment);
    return index === -1 ? undefined : container[index];
  }
  return Object.hasOwn(container, segment) ? container[segment] : undefined;
}

export function getPath(root: unknown, path: string): { found: boolean; value: unknown } {
  let current: unknown = root;
  for (const segment of segments(path)) {
    if (!isContainer(current)) return { found: false, value: undefined };
    current = child(current, segment);
    if (current === undefined) return { found: false, value: undefined };
  }
  return { found: true, value: current };
}

/** Sets a value, creating missing objects on the way (arrays are only indexed, never invented). */
export function setPath(root: Record<string, unknown>, path: string, value: unknown): boolean {
  const parts = segments(path);
  if (parts.length === 0) return false;
  let current: Container = root;
  for (const [position, segment] of parts.entries()) {
    const last = position === parts.length - 1;
    if (Array.isArray(current)) {
      const index = arrayIndex(current, segment);
      if (index === -1 || index > current.length) return false;
      if (last) {
        current[index] = value;
        return true;
      }
      if (!isContainer(current[index])) current[index] = {};
      current = current[index] as Container;
      continue;
    }
    if (last) {
      current[segment] = value;
      return true;
    }
    if (!isContainer(current[segment])) current[segment] = {};
    current = current[segment] as Container;
  }
  return false;
}

export function deletePath(root: Record<string, unknown>, path: string): boolean {
  const parts = segments(path);
  const last = parts.pop();
  if (last === undefined) return false;
  const parent = parts.length ? getPath(root, parts.join('.')).value : root;
  if (!isContainer(parent)) return false;
  if (Array.isArray(parent)) {
    const index = arrayIndex(parent, last);
    if (index === -1 || index >= parent.length) return false;
    parent.splice(index, 1);
    return true;
  }
  if (!Object.hasOwn(parent, last)) return false;
  delete parent[last];
  return true;
}
