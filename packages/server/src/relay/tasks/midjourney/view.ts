import type { MidjourneyRow } from '../../../db/schema.js';

function parseJson(text: string | null | undefined): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The upstream's properties without the gateway's own bookkeeping (who paid), which is never shown. */
export function publicProperties(text: string | null | undefined): Record<string, unknown> | null {
  const parsed = parseJson(text);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const { payer: _payer, ...rest } = parsed as Record<string, unknown>;
  return Object.keys(rest).length > 0 ? rest : null;
}

/**
 * MjForwardUrlEnabled: image links point at this gateway's `/mj/image/{id}` instead of the upstream's CDN, so
 * callers never learn (or depend on) the upstream address. `base` is ServerAddress, or '' for same-origin links.
 */
export function imageUrlFor(row: Pick<MidjourneyRow, 'image_url' | 'mj_id'>, forward: boolean, base: string): string {
  if (!row.image_url) return '';
  if (!forward) return row.image_url;
  return `${base.replace(/\/+$/, '')}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

/** A task in the midjourney-proxy wire format (what `/mj/task/{id}/fetch` answers). */
export function midjourneyDto(row: MidjourneyRow, imageUrl: string) {
  return {
    id: row.mj_id,
    action: row.action,
    customId: '',
    botType: '',
    prompt: row.prompt ?? '',
    promptEn: row.prompt_en ?? '',
    description: row.description ?? '',
    state: row.state ?? '',
    submitTime: Number(row.submit_time),
    startTime: Number(row.start_time),
    finishTime: Number(row.finish_time),
    imageUrl,
    videoUrl: row.video_url ?? '',
    videoUrls: parseJson(row.video_urls) ?? [],
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason ?? '',
    buttons: parseJson(row.buttons) ?? [],
    maskBase64: '',
    properties: publicProperties(row.properties),
  };
}

/** A task as the console lists it (`/api/mj/…`): table columns; channel and upstream properties only for admins. */
export function midjourneyListItem(row: MidjourneyRow, imageUrl: string, admin: boolean) {
  const { properties, channel_id, image_url: _raw, buttons, video_urls, ...rest } = row;
  return {
    ...rest,
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    quota: Number(row.quota),
    image_url: imageUrl,
    buttons: parseJson(buttons) ?? [],
    video_urls: parseJson(video_urls) ?? [],
    // The upstream's properties name its Discord account and instance: operator business.
    ...(admin ? { channel_id, properties: publicProperties(properties) } : {}),
  };
}
