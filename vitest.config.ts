import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// Browser journeys need Debian's Chromium. CI installs it and requires them; elsewhere they are skipped with a note,
// as the database tests are when their server is absent.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const runBrowserJourneys = process.env.CI === 'true' || existsSync(chromium);
if (!runBrowserJourneys) {
  console.warn(`[skip] no Chromium at ${chromium}: browser journeys skipped (apt-get install -y chromium; CI runs them)`);
}

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
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      'packages/web',
      ...(runBrowserJourneys
        ? [
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
          ]
        : []),
    ],
  },
});
