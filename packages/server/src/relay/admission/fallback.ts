import type { IncomingHttpHeaders } from 'node:http';
import {
  fallsBackOn,
  type GroupFallbackModels,
  type Language,
  parseStatusRanges,
  splitModelList,
} from '@gateway/shared';
import type { OptionsStore } from '../../cache/options-store.js';
import type { AppContext } from '../../context.js';
import { userSetting } from '../../services/accounts/user-setting.js';
import { RelayError } from '../errors.js';
import { modelPricing } from '../pricing.js';
import { type Billing, type ReserveInput, reserveQuota } from '../reserve.js';
import type { RelayCaller } from './caller.js';

/**
 * Model fallback: when every channel of the requested model fails (before any byte reached the client), the
 * conveyor tries the token's fallback models, else its group's (`GroupFallbackModels`), in order. Each one is
 * priced and reserved on its own before its channels are tried, gets its own `RetryTimes`, and is billed at its
 * own price; the answer and the usage log name the model that served.
 */

/** A request header that turns fallback off for that request: `off` (also `false`, `0`, `none`). */
export const FALLBACK_HEADER = 'x-gateway-fallback';
/** The model that answered, on every model answer (the requested one unless a fallback served). */
export const SERVED_MODEL_HEADER = 'X-Gateway-Served-Model';

const OPT_OUT = new Set(['off', 'false', '0', 'none', 'no']);

/** What the logs record once a fallback happened: the model asked for and every model tried, in order. */
export interface FallbackTrail {
  requested: string;
  chain: string[];
}

/**
 * The models to try after `requested`, in order: the token's own list wins over its group's. None for a request
 * that opted out, or that is pinned to one channel (`sk-KEY-<id>`, a task follow-up): another model would need
 * another channel.
 */
export function fallbackModels(
  options: OptionsStore,
  caller: RelayCaller,
  requested: string,
  headers: IncomingHttpHeaders,
  pinned: boolean,
): string[] {
  const asked = headers[FALLBACK_HEADER];
  if (pinned || (typeof asked === 'string' && OPT_OUT.has(asked.trim().toLowerCase()))) return [];
  const own = splitModelList(caller.token.fallback_models);
  const list = own.length > 0 ? own : (options.json<GroupFallbackModels>('GroupFallbackModels')?.[caller.group] ?? []);
  return list.filter((model) => model !== requested);
}

/** Whether this failure (the status the caller would get) moves on to the next model (`FallbackStatusCodes`). */
export function fallsBack(options: OptionsStore, failure: RelayError): boolean {
  return fallsBackOn(failure.status, parseStatusRanges(options.get('FallbackStatusCodes')) ?? []);
}

/**
 * Whether a fallback model may serve this caller at all: inside the token's model limits, with a channel in the
 * caller's group and a price (under the same rules as a requested model). Checked before anything is refunded.
 */
export function fallbackUsable(ctx: AppContext, caller: RelayCaller, model: string): boolean {
  if (caller.modelLimits && !caller.modelLimits.has(model)) return false;
  if (ctx.channelCache.candidates(caller.group, model).length === 0) return false;
  return modelPricing(ctx.options, model, userSetting(caller.user).accept_unset_model_ratio_model === true) !== null;
}

/**
 * Reserves a fallback model's estimated cost (the request's own estimate at that model's price). Null when the
 * balance, the token's quota or anything else refuses it: the chain goes on to the next model.
 */
export async function reserveFallback(
  ctx: AppContext,
  caller: RelayCaller,
  model: string,
  reserve: Omit<ReserveInput, 'model'>,
  lang: Language,
): Promise<Billing | null> {
  try {
    // The prompt already passed the sensitive-word check as the requested model's.
    return await reserveQuota(ctx, caller, { ...reserve, model, promptText: undefined }, lang);
  } catch (error) {
    if (error instanceof RelayError) return null;
    throw error;
  }
}

/** The client's body for pass-through channels, naming the model being tried (a fallback's own name). */
export function bodyForModel(rawBody: unknown, model: string): unknown {
  if (typeof rawBody !== 'object' || rawBody === null || Array.isArray(rawBody)) return rawBody;
  const body = rawBody as Record<string, unknown>;
  return typeof body.model === 'string' && body.model !== model ? { ...body, model } : rawBody;
}

/** A header value for a model name: names outside printable ASCII are percent-encoded (HTTP headers are ASCII). */
export function servedModelHeader(model: string): string {
  return /^[\x20-\x7e]*$/.test(model) ? model : encodeURIComponent(model);
}

/** The usage log's `other` facts of a request a fallback served (or that failed after trying fallbacks). */
export function fallbackFacts(trail: FallbackTrail | undefined): Record<string, unknown> {
  return trail ? { requested_model: trail.requested, fallback_chain: trail.chain } : {};
}
