import {
  DummyDriver,
  Kysely,
  type RootOperationNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

export type MigrationUp = (db: Kysely<unknown>) => Promise<void>;

/**
 * The statements a migration would run, as Kysely operation nodes, without touching any database: adopting a
 * family database compares them with what is there, so our schema keeps one definition (the migrations).
 * The dialect's own DDL choices (serial ids, MySQL's charset) are in the nodes; the compiler here never runs.
 */
export async function recordSchema(up: MigrationUp): Promise<RootOperationNode[]> {
  const nodes: RootOperationNode[] = [];
  const recorder = new Kysely<unknown>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [
      {
        transformQuery: ({ node }) => {
          nodes.push(node);
          return node;
        },
        transformResult: async ({ result }) => result,
      },
    ],
  });
  await up(recorder);
  await recorder.destroy();
  return nodes;
}
