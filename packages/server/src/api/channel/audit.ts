import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { ChannelRow } from '../../db/schema.js';
import { recordAudit } from '../../services/audit/audit-trail.js';
import { channelChanges } from '../../services/audit/entity-diffs.js';

/**
 * Audit rows for channel changes: the channels are read before and after the change and each one gets its own row,
 * so a batch or tag operation still says what happened to every channel it touched.
 */
export function channelAudit(ctx: AppContext) {
  const { channels } = ctx.repos;
  const writer = ctx.channelWriter;

  const record = (
    request: FastifyRequest,
    action: string,
    ids: number[],
    before: ChannelRow[],
    after: ChannelRow[],
  ) => {
    const find = (rows: ChannelRow[], id: number) => rows.find((row) => row.id === id) ?? null;
    return recordAudit(
      ctx,
      request,
      ids.map((id) => ({
        action,
        targetType: 'channel' as const,
        targetId: id,
        changes: channelChanges(writer, find(before, id), find(after, id)),
      })),
    );
  };

  return {
    /** Runs a change to existing channels and records how each of them changed (a deleted one is gone after). */
    async around<T>(request: FastifyRequest, action: string, ids: number[], change: () => Promise<T>): Promise<T> {
      const before = await channels.findByIds(ids);
      const result = await change();
      await record(request, action, ids, before, await channels.findByIds(ids));
      return result;
    },
    /** Records channels that did not exist before. */
    async created(request: FastifyRequest, action: string, ids: number[]): Promise<void> {
      await record(request, action, ids, [], await channels.findByIds(ids));
    },
  };
}
