import { createHmac, timingSafeEqual } from 'node:crypto';
import { type CreemProduct, creemProductsFrom, PaymentProvider } from '@gateway/shared';
import type { AppContext } from '../../context.js';
import { completeOrder, isSubscriptionTradeNo } from '../subscriptions/lifecycle.js';
import { type CardOutcome, settleCardOrder } from './card-order.js';

/** The header Creem signs its webhooks in: hex HMAC-SHA256 of the raw body with the webhook secret. */
export const CREEM_SIGNATURE_HEADER = 'creem-signature';

export function creemProducts(ctx: AppContext): CreemProduct[] {
  return creemProductsFrom(ctx.options.get('CreemProducts'));
}

/**
 * True when the API key, the webhook secret and at least one product are set. Unlike the family, the webhook
 * secret is required in test mode too: an unsigned webhook must never credit anyone.
 */
export function creemEnabled(ctx: AppContext): boolean {
  const o = ctx.options;
  return o.get('CreemApiKey') !== '' && o.get('CreemWebhookSecret') !== '' && creemProducts(ctx).length > 0;
}

/** The key and the webhook secret (subscription plans name their own product, so no product list is needed). */
export function creemConfigured(ctx: AppContext): boolean {
  return ctx.options.get('CreemApiKey') !== '' && ctx.options.get('CreemWebhookSecret') !== '';
}

/** CREEM_API_BASE when set, else Creem's test or live host by `CreemTestMode`. */
function creemBase(ctx: AppContext): string {
  if (ctx.config.paymentApis.creem) return ctx.config.paymentApis.creem;
  return ctx.options.bool('CreemTestMode') ? 'https://test-api.creem.io' : 'https://api.creem.io';
}

export interface CreemCheckoutInput {
  tradeNo: string;
  product: CreemProduct;
  email: string;
  username: string;
  successUrl: string;
}

/** Creates a Creem checkout for one product (`POST /v1/checkouts` with `x-api-key`) and answers its URL. */
export async function createCreemCheckout(ctx: AppContext, input: CreemCheckoutInput): Promise<string> {
  const response = await fetch(`${creemBase(ctx)}/v1/checkouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': ctx.options.get('CreemApiKey') },
    body: JSON.stringify({
      product_id: input.product.productId,
      request_id: input.tradeNo,
      success_url: input.successUrl,
      ...(input.email ? { customer: { email: input.email } } : {}),
      metadata: {
        username: input.username,
        reference_id: input.tradeNo,
        product_name: input.product.name,
        quota: String(input.product.quota),
      },
    }),
    signal: AbortSignal.timeout(20_000),
  });
  // The answer is not logged or passed on: it may echo the customer's address.
  if (!response.ok) throw new Error(`Creem answered HTTP ${response.status}`);
  const answer = (await response.json()) as { checkout_url?: unknown };
  if (typeof answer.checkout_url !== 'string' || !/^https?:\/\//.test(answer.checkout_url)) {
    throw new Error('Creem answered a checkout without a URL');
  }
  return answer.checkout_url;
}

/** Constant-time check of the webhook's signature over the raw body. */
export function verifyCreemSignature(ctx: AppContext, rawBody: Buffer, signature: string): boolean {
  const secret = ctx.options.get('CreemWebhookSecret');
  if (!secret || !signature) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(signature.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface CreemEvent {
  eventType?: unknown;
  object?: { request_id?: unknown; order?: { status?: unknown; type?: unknown } };
}

export type CreemEventOutcome = CardOutcome | 'ignored';

/** Acts on a verified event: a paid one-time checkout credits its order's quota once; anything else is ignored. */
export async function handleCreemEvent(ctx: AppContext, event: CreemEvent): Promise<CreemEventOutcome> {
  if (event.eventType !== 'checkout.completed') return 'ignored';
  const order = event.object?.order;
  if (order?.status !== 'paid' || (order.type !== undefined && order.type !== 'onetime')) return 'ignored';
  const tradeNo = typeof event.object?.request_id === 'string' ? event.object.request_id : '';
  if (isSubscriptionTradeNo(tradeNo)) return (await completeOrder(ctx, tradeNo, null)) ? 'credited' : 'settled';
  // Creem orders store the product's quota itself as the amount (the family's rule).
  return settleCardOrder(ctx, tradeNo, PaymentProvider.Creem, (row) => row.amount);
}
