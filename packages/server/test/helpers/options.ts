import { OptionsStore } from '../../src/cache/options-store.js';

/**
 * A real options store (defaults, validation, parsed-JSON cache) without a database, holding the given values:
 * for table tests of code that reads options.
 */
export async function optionsWith(values: Record<string, string> = {}): Promise<OptionsStore> {
  const store = new OptionsStore({ all: async () => [], upsert: async () => {} } as never, null);
  for (const [key, value] of Object.entries(values)) {
    const error = await store.set(key, value);
    if (error) throw new Error(`${key}: ${JSON.stringify(error)}`);
  }
  return store;
}
