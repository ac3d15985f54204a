import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../../context.js';
import { RelayError } from '../../errors.js';
import { providerFor } from '../../providers/registry.js';
import type { UpstreamResponse } from '../../send.js';
import type { UpstreamCall } from '../../types.js';
import { fileHostAllowed } from '../file-host.js';
import { openVendorCall } from '../vendor-call.js';
import { contentReader, ownVideoTask, videoNotFound } from './lookup.js';
import { videoPlatforms } from './platforms.js';
import { videoSecrets } from './task-record.js';

/** A video file may take a while to start; past this the download is given up. */
const CONTENT_TIMEOUT_MS = 120_000;

/** The answer's headers a player needs to seek (ranges) and show the file; nothing of the vendor's own. */
const PASSED_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'last-modified', 'etag'];

/**
 * `GET /v1/videos/{id}/content`: the finished file streamed from the vendor to its owner chunk by chunk (never held
 * whole), with Range passed through where the vendor takes it, so players can seek. The vendor's URL and key stay on
 * the server: the file is fetched by the vendor's own `content` when it has one (OpenAI's authenticated `/content`,
 * MiniMax's two steps, Vertex's bytes held in the operation), else from the URL the poll reported, and only from a
 * host the outbound policy allows.
 */
export function videoContentHandler(ctx: AppContext) {
  return async (request: FastifyRequest<{ Params: { task_id: string } }>, reply: FastifyReply) => {
    const reader = await contentReader(ctx, request);
    const { lang } = reader;
    const row =
      reader.admin && reader.userId !== null
        ? await adminVisibleTask(ctx, request.params.task_id, reader.userId)
        : await ownVideoTask(ctx, reader.userId ?? 0, request.params.task_id);
    if (!row) throw videoNotFound(lang);
    if (row.status !== 'SUCCESS') {
      throw RelayError.of(409, lang, 'video_not_ready', { status: row.status }, 'video_not_ready');
    }
    const unavailable = (status: number) =>
      RelayError.of(status, lang, 'video_content_unavailable', undefined, 'content_unavailable');
    const secrets = videoSecrets(row);
    const channel = ctx.channelCache.get(row.channel_id);
    const provider = channel ? providerFor(channel.type) : undefined;
    const vendor = provider?.functions.video;
    if (!channel || !provider || !vendor) throw unavailable(404);
    const range = typeof request.headers.range === 'string' ? request.headers.range : undefined;
    // Every call the file takes goes through the provider (its signing) and the outbound policy: a vendor's answer
    // may name any host, and only the channel's own or a public one is fetched.
    const open = async (call: UpstreamCall) => {
      if (!(await fileHostAllowed(ctx, new URL(call.url), channel.baseUrl))) throw new Error('file host refused');
      return openVendorCall(provider, channel, call, CONTENT_TIMEOUT_MS);
    };
    let response: UpstreamResponse;
    try {
      if (vendor.content) {
        response = await vendor.content(channel, secrets.upstream_task_id ?? '', secrets.result_url, open, range);
      } else {
        const url = new URL(secrets.result_url ?? '');
        response = await open({ method: 'GET', url: url.toString(), headers: range ? { range } : {} });
      }
    } catch {
      // No file named, a host the policy refuses, or a vendor that could not be reached: nothing to stream.
      throw unavailable(502);
    }
    if (response.statusCode !== 200 && response.statusCode !== 206) {
      await response.body.dump();
      throw unavailable(response.statusCode === 404 || response.statusCode === 410 ? 404 : 502);
    }
    reply.code(response.statusCode);
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === 'string' && value) reply.header(name, value);
    }
    if (!response.headers['content-type']) reply.header('content-type', 'video/mp4');
    // A finished video never changes; the owner's browser may keep it.
    reply.header('cache-control', 'private, max-age=3600');
    return reply.send(Readable.from(response.body, { objectMode: false }));
  };
}

/** An admin plays any user's video from the console's task log. */
async function adminVisibleTask(ctx: AppContext, taskId: string, adminId: number) {
  const own = await ownVideoTask(ctx, adminId, taskId);
  if (own) return own;
  const [row] = await ctx.repos.tasks.list({ taskId }, 0, 1);
  return row && videoPlatforms().includes(row.platform) && !videoSecrets(row).deleted ? row : undefined;
}
