import { isAdmin, isMessageCode, type Language, LogType, type LogView } from '@gateway/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, guards } from '../auth/guard.js';
import type { AppContext } from '../context.js';
import type { LogFilter } from '../db/repos/logs.js';
import type { LogRow } from '../db/schema.js';
import { nowSeconds } from '../db/sql-helpers.js';
import { ApiFailure, languageOf, messageFor, ok } from '../http/envelope.js';
import { queryNumber, queryString, readPaging } from '../http/paging.js';
import { wordsText } from '../relay/errors.js';
import { recordAudit } from '../services/audit/audit-trail.js';
import { logBodyRoutes } from './log-bodies.js';

/** Log filters from the query; the admin-only ones (username, channel) are read only for admins. */
const CACHE_USAGE_ROWS = 20;

function readFilter(query: Record<string, unknown>, admin: boolean): LogFilter {
  return {
    type: queryNumber(query, 'type'),
    tokenName: queryString(query, 'token_name') || undefined,
    modelName: queryString(query, 'model_name') || undefined,
    group: queryString(query, 'group') || undefined,
    startTimestamp: queryNumber(query, 'start_timestamp'),
    endTimestamp: queryNumber(query, 'end_timestamp'),
    ...(admin
      ? { username: queryString(query, 'username') || undefined, channelId: queryNumber(query, 'channel') }
      : {}),
  };
}

/** Stored message params, kept only when they are the plain values a template takes. */
function storedParams(value: unknown): Record<string, string | number> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const params: Record<string, string | number> = {};
  for (const [name, param] of Object.entries(value)) {
    if (typeof param === 'string' || typeof param === 'number') params[name] = param;
  }
  return params;
}

/**
 * A row's text in the reader's language when the row stored the words behind it (relay errors: `message_code`).
 * A code this server does not know (written by a newer or older one) keeps the text that was stored.
 */
function contentIn(content: string | null, other: Record<string, unknown> | null, lang: Language): string | null {
  const code = other?.message_code;
  if (typeof code !== 'string' || !isMessageCode(code)) return content;
  return wordsText({ code, params: storedParams(other?.message_params) }, lang);
}

/**
 * A log row as the console shows it, its text in the reader's language where the row allows. Users never see which
 * upstream channel served them.
 */
export function logView(row: LogRow, admin: boolean, lang: Language) {
  const { channel_id, channel_name, other, is_stream, ...rest } = row;
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = other ? (JSON.parse(other) as Record<string, unknown>) : null;
  } catch {
    parsed = null;
  }
  if (!admin && parsed) delete parsed.admin_info;
  return {
    ...rest,
    content: contentIn(rest.content, parsed, lang),
    // Stored as 0/1 on every engine; the family sends a JSON boolean.
    is_stream: Number(is_stream) === 1,
    other: parsed ? JSON.stringify(parsed) : '',
    ...(admin ? { channel: channel_id, channel_name } : {}),
  } satisfies LogView;
}

export async function logRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { user: requireUser, admin: requireAdmin } = guards(ctx);
  const logs = ctx.repos.logs;

  const page = async (request: FastifyRequest, filter: LogFilter, admin: boolean) => {
    const { page: p, pageSize, offset } = readPaging(request.query as Record<string, unknown>);
    // Rows still in the write buffer belong on the page a user opens right after a call.
    await ctx.logWriter.flush();
    const result = await logs.list(filter, offset, pageSize);
    return ok({
      items: result.items.map((row) => logView(row, admin, languageOf(request))),
      total: result.total,
      page: p,
      page_size: pageSize,
    });
  };

  app.get('/api/log/', { preHandler: requireAdmin }, async (request) =>
    page(request, readFilter(request.query as Record<string, unknown>, true), true),
  );

  app.get('/api/log/self/', { preHandler: requireUser }, async (request) => {
    const user = currentUser(request);
    return page(request, { ...readFilter(request.query as Record<string, unknown>, false), userId: user.id }, false);
  });

  app.get('/api/log/stat', { preHandler: requireAdmin }, async (request) => {
    await ctx.logWriter.flush();
    const filter = readFilter(request.query as Record<string, unknown>, true);
    return ok(await logs.stat({ ...filter, type: filter.type ?? LogType.Consume }, nowSeconds()));
  });

  app.get('/api/log/self/stat', { preHandler: requireUser }, async (request) => {
    await ctx.logWriter.flush();
    const filter = readFilter(request.query as Record<string, unknown>, false);
    return ok(
      await logs.stat(
        { ...filter, type: filter.type ?? LogType.Consume, userId: currentUser(request).id },
        nowSeconds(),
      ),
    );
  });

  // Prompt-cache hits per key and model (the dashboard's hit rate): the 20 busiest pairs of the filter's range.
  app.get('/api/log/cache_usage', { preHandler: requireAdmin }, async (request) => {
    await ctx.logWriter.flush();
    return ok(await logs.cacheUsage(readFilter(request.query as Record<string, unknown>, true), CACHE_USAGE_ROWS));
  });

  app.get('/api/log/self/cache_usage', { preHandler: requireUser }, async (request) => {
    await ctx.logWriter.flush();
    const filter = readFilter(request.query as Record<string, unknown>, false);
    return ok(await logs.cacheUsage({ ...filter, userId: currentUser(request).id }, CACHE_USAGE_ROWS));
  });

  app.delete('/api/log/', { preHandler: requireAdmin }, async (request) => {
    const target = queryNumber(request.query as Record<string, unknown>, 'target_timestamp');
    if (!target) throw new ApiFailure('log_target_required');
    await ctx.logWriter.flush();
    const count = await logs.deleteBefore(target);
    // The audit trail is kept as long as the usage logs: one clear removes both.
    const auditCount = await ctx.repos.auditLogs.deleteBefore(target);
    // Kept request bodies go with the logs they belong to.
    await ctx.bodyWriter.flush();
    await ctx.repos.requestBodies.deleteBefore(target);
    request.log.info(
      { count, auditCount, before: target, by: request.user?.id, admin: isAdmin(request.user?.role) },
      'logs deleted',
    );
    // Written after the clear, so the row saying who cleared survives it.
    await recordAudit(ctx, request, [
      {
        action: 'log.clear',
        targetType: 'log',
        targetId: '',
        changes: [{ field: 'target_timestamp', before: null, after: target }],
      },
    ]);
    return ok(count, messageFor(request, 'deleted_count', { count }));
  });

  await logBodyRoutes(app, ctx);
}
