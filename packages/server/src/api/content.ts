import type { OptionKey } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { ok } from '../http/envelope.js';

// Admin-written texts, public like in the family. They are returned raw; the console sanitises before rendering.
const CONTENT_ROUTES: Array<[string, OptionKey]> = [
  ['/api/notice', 'Notice'],
  ['/api/about', 'About'],
  ['/api/home_page_content', 'HomePageContent'],
];

export async function contentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  for (const [path, key] of CONTENT_ROUTES) {
    app.get(path, async () => ok(ctx.options.get(key)));
  }
}
