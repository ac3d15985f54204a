import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// The API server runs on :3000 during development; the console is served same-origin in production.
const backend = 'http://localhost:3000';
const proxiedPrefixes = ['/api', '/v1', '/pg', '/mj', '/suno'];

export default defineConfig({
  plugins: [react()],
  resolve: {
    // `source` first: @gateway/shared is consumed from its TypeScript sources, so no build of shared is needed.
    conditions: ['gateway-source', ...defaultClientConditions],
  },
  server: {
    port: 5173,
    // The server refuses state changes whose Origin is another site; through the dev proxy the console's requests
    // arrive from the backend's own origin, as they do in production.
    proxy: Object.fromEntries(
      proxiedPrefixes.map((prefix) => [prefix, { target: backend, changeOrigin: true, headers: { origin: backend } }]),
    ),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // antd alone is close to 1 MB minified; the pages themselves are split by route.
    chunkSizeWarningLimit: 1600,
  },
});
