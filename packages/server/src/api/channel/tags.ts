import { ChannelStatus, joinModels, parseJsonObjectField } from '@gateway/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { guards } from '../../auth/guard.js';
import type { AppContext } from '../../context.js';
import type { ChannelUpdate } from '../../db/schema.js';
import { ApiFailure, messageFor, ok } from '../../http/envelope.js';
import { parseBody } from '../../http/validation.js';
import { channelAudit } from './audit.js';

const tagSchema = z.object({ tag: z.string().trim().min(1, 'channel_tag_required') });
const batchTagSchema = z.object({
  ids: z.array(z.number().int().positive()).min(1, 'channel_select_first'),
  tag: z.string().trim().max(128).nullable().optional(),
});
const editTagSchema = z.object({
  tag: z.string().trim().min(1, 'channel_tag_required'),
  new_tag: z.string().trim().max(128).nullable().optional(),
  model_mapping: z.string().nullable().optional(),
  // The family's server reads a comma string; the console of this gateway sends a list.
  groups: z
    .union([z.string(), z.array(z.string())])
    .nullable()
    .optional(),
  models: z
    .union([z.string(), z.array(z.string())])
    .nullable()
    .optional(),
  priority: z.number().int('channel_priority_invalid').min(-999, 'channel_priority_invalid').nullable().optional(),
  weight: z.number().int('channel_weight_invalid').min(0, 'channel_weight_invalid').nullable().optional(),
});

export async function channelTagRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { admin } = guards(ctx);
  const { channels } = ctx.repos;
  const writer = ctx.channelWriter;
  const audit = channelAudit(ctx);

  const idsOfTag = async (tag: string) => {
    const ids = (await channels.findByTag(tag)).map((channel) => channel.id);
    if (ids.length === 0) throw new ApiFailure('channel_tag_not_found', { tag });
    return ids;
  };

  for (const [path, status, action] of [
    ['/api/channel/tag/enabled', ChannelStatus.Enabled, 'channel.tag_enable'],
    ['/api/channel/tag/disabled', ChannelStatus.ManuallyDisabled, 'channel.tag_disable'],
  ] as const) {
    app.post(path, { preHandler: admin }, async (request) => {
      const { tag } = parseBody(tagSchema, request.body);
      const ids = await idsOfTag(tag);
      const count = await audit.around(request, action, ids, () => writer.updateMany(ids, { status }));
      return ok(count, messageFor(request, 'updated'));
    });
  }

  app.post('/api/channel/batch/tag', { preHandler: admin }, async (request) => {
    const { ids, tag } = parseBody(batchTagSchema, request.body);
    const count = await audit.around(request, 'channel.batch_tag', ids, () =>
      writer.updateMany(ids, { tag: tag ? tag : null }),
    );
    return ok(count, messageFor(request, 'updated'));
  });

  // An empty new tag dissolves the tag: its channels become untagged.
  app.put('/api/channel/tag', { preHandler: admin }, async (request) => {
    const input = parseBody(editTagSchema, request.body);
    const changes: ChannelUpdate = {};
    if (input.new_tag !== undefined && input.new_tag !== null && input.new_tag !== input.tag) {
      changes.tag = input.new_tag === '' ? null : input.new_tag;
    }
    if (input.model_mapping !== undefined && input.model_mapping !== null && input.model_mapping.trim() !== '') {
      if (!parseJsonObjectField(input.model_mapping).ok) throw new ApiFailure('channel_model_mapping_invalid');
      changes.model_mapping = input.model_mapping.trim();
    }
    if (input.groups && joinModels(input.groups) !== '') changes.group = joinModels(input.groups);
    if (input.models !== undefined && input.models !== null && joinModels(input.models) !== '') {
      changes.models = joinModels(input.models);
    }
    if (input.priority !== undefined && input.priority !== null) changes.priority = input.priority;
    if (input.weight !== undefined && input.weight !== null) changes.weight = input.weight;
    if (Object.keys(changes).length === 0) throw new ApiFailure('channel_tag_no_changes');
    const ids = await idsOfTag(input.tag);
    const count = await audit.around(request, 'channel.tag_update', ids, () => writer.updateMany(ids, changes));
    return ok(count, messageFor(request, 'updated'));
  });
}
