import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OptionsStore } from '../cache/options-store.js';
import { BASELINE_HEADERS, consolePageHeaders } from './content-security.js';
import { isRelayPath } from './envelope.js';
import { answerRelayNotFound } from './relay-refusals.js';

const API_PREFIXES = ['/api', '/v1', '/v1beta', '/pg', '/mj', '/suno', '/dashboard', '/assets'];

/** A path that names a file (its last segment has an extension): never a console route. */
export function looksLikeFile(path: string): boolean {
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.');
}

/**
 * Serves the built console. Hashed assets (`/assets/…`, names change with their content) are cached for a year as
 * immutable; other public files (logo, favicon) for an hour; the HTML is revalidated on every load so a deploy shows
 * at once. Unknown non-API paths get the console page (client-side routing); unknown API paths and missing files a
 * 404 in their own shape.
 */
export async function serveWeb(
  app: FastifyInstance,
  distDir: string | null,
  options: OptionsStore,
  relayMethods: (path: string) => string[] = () => [],
): Promise<void> {
  const indexFile = distDir ? join(distDir, 'index.html') : null;
  const hasWeb = indexFile !== null && existsSync(indexFile);
  if (hasWeb && distDir) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      // The plugin's own Cache-Control (max-age=0) would replace ours.
      cacheControl: false,
      setHeaders(res, path) {
        res.setHeader('x-content-type-options', 'nosniff');
        res.setHeader(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
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
  const sendPage = (reply: FastifyReply, html: string) =>
    reply.headers(consolePageHeaders(options)).type('text/html; charset=utf-8').send(html);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
    const html = indexHtml();
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !looksLikeFile(path);
    if (isApi || !isPage || !html) {
      reply.headers(BASELINE_HEADERS);
      if (path.startsWith('/api')) return reply.code(404).send({ success: false, message: `Not found: ${path}` });
      if (isRelayPath(path)) return answerRelayNotFound(request, reply, relayMethods);
      return reply.code(404).send({
        error: {
          message: `Invalid URL (${request.method} ${path})`,
          type: 'invalid_request_error',
          code: 'not_found',
        },
      });
    }
    return sendPage(reply, html);
  });

  if (hasWeb) app.get('/', (_request, reply) => sendPage(reply, indexHtml()!));
}
