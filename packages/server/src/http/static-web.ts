import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api', '/v1', '/v1beta', '/pg', '/mj', '/suno', '/dashboard', '/assets'];

/**
 * Serves the built console. Hashed assets are cached for a year; index.html is never cached so a deploy shows at
 * once. Unknown non-API paths get index.html (client-side routing); unknown API paths get a JSON 404.
 */
export async function serveWeb(app: FastifyInstance, distDir: string | null): Promise<void> {
  const indexFile = distDir ? join(distDir, 'index.html') : null;
  const hasWeb = indexFile !== null && existsSync(indexFile);
  if (hasWeb && distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      setHeaders(res, path) {
        res.setHeader('Cache-Control', path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Re-read on change so a rebuilt console is served without restarting; the stat is cheap and off the relay path.
  let cached: { mtimeMs: number; html: string } | null = null;
  const indexHtml = () => {
    if (!hasWeb || !indexFile) return null;
    const { mtimeMs } = statSync(indexFile);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: readFileSync(indexFile, 'utf8') };
    return cached.html;
  };

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    const html = indexHtml();
    if (isApi || request.method !== 'GET' || !html) {
      if (path.startsWith('/api')) return reply.code(404).send({ success: false, message: `Not found: ${path}` });
      return reply.code(404).send({
        error: {
          message: `Invalid URL (${request.method} ${path})`,
          type: 'invalid_request_error',
          code: 'not_found',
        },
      });
    }
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
  });

  if (hasWeb) {
    app.get('/', (_request, reply) =>
      reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(indexHtml()),
    );
  }
}
