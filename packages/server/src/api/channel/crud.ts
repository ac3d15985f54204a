import { ChannelStatus, splitModels } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import type { ChannelFilter } from '../../db/repos/channels.js';
import { ApiFailure, messageFor, ok } from '../../http/envelope.js';
import { queryString, readListPage } from '../../http/paging.js';
import { parseBody } from '../../http/validation.js';
import { recordAudit } from '../../services/audit/audit-trail.js';
import { type ChannelBody, channelColumns, channelKeys } from '../../services/channels/channel-input.js';
import { channelAudit } from './audit.js';
import { channelView } from './view.js';

const idsSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(10_000) });
const partialSchema = z.object({
  id: z.number().int().positive(),
  status: z.number().int().optional(),
  priority: z.number().int().min(-999, 'channel_priority_invalid').optional(),
  weight: z.number().int().min(0, 'channel_weight_invalid').optional(),
});

function truthy(value: unknown): boolean {
  return value === 'true' || value === '1' || value === true;
}

function readFilter(query: Record<string, unknown>): ChannelFilter {
  const status = Number(query.status);
  const type = Number(query.type);
  return {
    keyword: queryString(query, 'keyword') || undefined,
    group: queryString(query, 'group') || undefined,
    model: queryString(query, 'model') || undefined,
    // The console also sends status=all/enabled/disabled in newer versions; numbers are the family's wire form.
    status: Number.isInteger(status) && status > 0 ? status : undefined,
    type: queryString(query, 'type') !== '' && Number.isInteger(type) ? type : undefined,
  };
}

export async function channelCrudRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const { channels } = ctx.repos;
  const writer = ctx.channelWriter;
  const audit = channelAudit(ctx);

  const list = async (query: Record<string, unknown>) => {
    const { pageSize, offset, answer } = readListPage(query, ctx.config.listShape);
    const filter = readFilter(query);
    const idSort = truthy(query.id_sort);
    const result = truthy(query.tag_mode)
      ? await channels.listByRows(filter, idSort, offset, pageSize)
      : await channels.list(filter, idSort, offset, pageSize);
    return ok(answer(result.items.map(channelView), result.total));
  };

  app.get('/api/channel/', { preHandler: admin }, async (request) => list(request.query as Record<string, unknown>));
  app.get('/api/channel/search', { preHandler: admin }, async (request) =>
    list(request.query as Record<string, unknown>),
  );

  app.get('/api/channel/:id', { preHandler: admin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const channel = Number.isInteger(id) ? await channels.findById(id) : undefined;
    if (!channel) throw new ApiFailure('channel_not_found');
    return ok(channelView(channel));
  });

  // Family scripts post either the channel itself or {mode, channel}.
  app.post('/api/channel/', { preHandler: admin }, async (request) => {
    const raw = (request.body ?? {}) as { mode?: string; channel?: ChannelBody } & ChannelBody;
    const body: ChannelBody = raw.channel && typeof raw.channel === 'object' ? raw.channel : raw;
    const columns = channelColumns(body, 'create');
    const keys = channelKeys(body, raw.mode);
    if (keys.length === 0) throw new ApiFailure('channel_name_key_required');
    const ids = await writer.create({ ...columns, status: ChannelStatus.Enabled }, keys);
    await audit.created(request, 'channel.create', ids);
    request.log.info({ ids, by: request.user?.id }, 'channels created');
    return ok(ids, messageFor(request, 'created_count', { count: ids.length }));
  });

  app.put('/api/channel/', { preHandler: admin }, async (request) => {
    const body = (request.body ?? {}) as ChannelBody;
    if (body.name === undefined) {
      // Status / priority / weight only (the list's inline editors and switches).
      const change = parseBody(partialSchema, body);
      if (change.status !== undefined && !Object.values(ChannelStatus).includes(change.status as never)) {
        throw new ApiFailure('invalid_params');
      }
      const { id, status, ...rest } = change;
      const action = Object.keys(rest).length ? 'channel.update' : 'channel.status';
      const row = await audit.around(request, action, [id], async () => {
        let updated = Object.keys(rest).length ? await writer.update(id, rest) : await channels.findById(id);
        if (updated && status !== undefined) updated = await writer.setStatus(id, status);
        return updated;
      });
      if (!row) throw new ApiFailure('channel_not_found');
      return ok(channelView(row), messageFor(request, 'updated'));
    }
    const id = Number(body.id);
    if (!Number.isInteger(id) || id <= 0) throw new ApiFailure('invalid_params');
    const columns = channelColumns(body, 'edit');
    const key = String(body.key ?? '').trim();
    const row = await audit.around(request, 'channel.update', [id], () =>
      writer.update(id, key ? { ...columns, key } : columns),
    );
    if (!row) throw new ApiFailure('channel_not_found');
    return ok(channelView(row), messageFor(request, 'updated'));
  });

  app.delete('/api/channel/disabled', { preHandler: admin }, async (request) => {
    const ids = await channels.idsWithStatusOtherThan(ChannelStatus.Enabled);
    const count = await audit.around(request, 'channel.delete_disabled', ids, () => writer.deleteDisabled());
    return ok(count, messageFor(request, 'deleted_count', { count }));
  });

  app.delete('/api/channel/:id', { preHandler: admin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const count = Number.isInteger(id)
      ? await audit.around(request, 'channel.delete', [id], () => writer.delete([id]))
      : 0;
    if (count === 0) throw new ApiFailure('channel_not_found');
    return ok(undefined, messageFor(request, 'deleted_count', { count }));
  });

  app.post('/api/channel/batch', { preHandler: admin }, async (request) => {
    const { ids } = parseBody(idsSchema, request.body);
    const count = await audit.around(request, 'channel.batch_delete', ids, () => writer.delete(ids));
    return ok(count, messageFor(request, 'deleted_count', { count }));
  });

  app.post('/api/channel/copy/:id', { preHandler: admin }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    const source = Number.isInteger(id) ? await channels.findById(id) : undefined;
    if (!source) throw new ApiFailure('channel_not_found');
    const { id: _id, key, created_time: _created, used_quota: _used, balance: _balance, ...rest } = source;
    const [copyId] = await writer.create(
      { ...rest, name: `${source.name}_copy`, test_time: 0, response_time: 0, balance_updated_time: 0 },
      [writer.key(source)],
    );
    void key;
    await audit.created(request, 'channel.copy', [copyId!]);
    return ok({ id: copyId }, messageFor(request, 'created_count', { count: 1 }));
  });

  app.post('/api/channel/fix', { preHandler: admin }, async (request) => {
    const result = await writer.rebuildAbilities();
    // No channel changes, but the routing index was rebuilt by someone: worth a line.
    await recordAudit(ctx, request, [
      { action: 'channel.fix', targetType: 'channel', targetId: '', changes: [], always: true },
    ]);
    return ok(result);
  });

  app.get('/api/channel/models_enabled', { preHandler: admin }, async () => {
    const all = await channels.all();
    const models = new Set<string>();
    for (const channel of all) {
      if (channel.status === ChannelStatus.Enabled)
        for (const model of splitModels(channel.models ?? '')) models.add(model);
    }
    return ok([...models].sort());
  });
}
