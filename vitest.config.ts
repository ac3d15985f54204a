import { defineConfig } from 'vitest/config';

// One runner for every package. Server tests share real databases, so files run one at a time per project
// (2 cores: parallel DB-heavy files mostly contend).
export default defineConfig({
  test: {
    projects: [
      {
        resolve: { conditions: ['gateway-source'] },
        test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'], environment: 'node' },
      },
      {
        resolve: { conditions: ['gateway-source'] },
        ssr: { resolve: { conditions: ['gateway-source'] } },
        test: {
          name: 'server',
          root: 'packages/server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'packages/web',
      {
        test: {
          name: 'e2e',
          root: 'packages/web',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 90_000,
          hookTimeout: 90_000,
        },
      },
    ],
  },
});
