/** The tasks of a batch answer that carry an id, keyed by it (entries without one cannot be matched and are skipped). */
export function tasksById(list: unknown[], idField: string): Array<{ id: string; task: Record<string, unknown> }> {
  return list.flatMap((entry) => {
    if (!entry || typeof entry !== 'object') return [];
    const task = entry as Record<string, unknown>;
    const id = task[idField];
    return typeof id === 'string' && id ? [{ id, task }] : [];
  });
}
