import { PaymentProvider } from '@gateway/shared';
import type Stripe from 'stripe';
import type { AppContext } from '../../context.js';
import { completeOrder, isSubscriptionTradeNo } from '../subscriptions/lifecycle.js';
import { type CardOutcome, settleCardOrder } from './card-order.js';

/** How old a signed webhook may be (Stripe's own default): an older signature is a replay from a capture. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** True when the operator has filled in the secret key, the webhook secret and the price. */
export function stripeEnabled(ctx: AppContext): boolean {
  const o = ctx.options;
  return o.get('StripeApiSecret') !== '' && o.get('StripeWebhookSecret') !== '' && o.get('StripePriceId') !== '';
}

/** Stripe's library (about 16 MiB resident) is loaded on the first card payment or webhook, not at start. */
let library: Promise<typeof Stripe> | null = null;
function stripeLibrary(): Promise<typeof Stripe> {
  library ??= import('stripe').then((module) => module.default);
  return library;
}

/** Stripe's client aimed at STRIPE_API_BASE (api.stripe.com unless a test or a proxy says otherwise). */
async function stripeClient(ctx: AppContext): Promise<Stripe> {
  const base = new URL(ctx.config.paymentApis.stripe);
  const protocol = base.protocol === 'http:' ? 'http' : 'https';
  const StripeLibrary = await stripeLibrary();
  return new StripeLibrary(ctx.options.get('StripeApiSecret'), {
    host: base.hostname,
    port: base.port || (protocol === 'http' ? 80 : 443),
    protocol,
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
  });
}

/** Currencies Stripe counts in whole units (no cents). */
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);

export interface StripeCheckoutInput {
  tradeNo: string;
  /** Units of credit bought. */
  amount: number;
  /** What the order costs after group ratio and discount. */
  money: number;
  /** Whether `money` is exactly amount × StripeUnitPrice (no discount, no group ratio). */
  listPrice: boolean;
  email: string;
  successUrl: string;
  cancelUrl: string;
  /** The Price bought (a subscription plan's own); StripePriceId otherwise. */
  priceId?: string;
}

/**
 * Creates the Checkout Session and answers its URL. At the list price the configured Price is bought `amount`
 * times (the family's way, so Stripe's receipt reads "credit × amount"); with a discount or a group ratio the exact
 * money is charged as one item of the same product and currency.
 */
export async function createStripeCheckout(ctx: AppContext, input: StripeCheckoutInput): Promise<string> {
  const stripe = await stripeClient(ctx);
  const priceId = input.priceId || ctx.options.get('StripePriceId');
  let lineItem: Stripe.Checkout.SessionCreateParams.LineItem = { price: priceId, quantity: input.amount };
  if (!input.listPrice) {
    const price = await stripe.prices.retrieve(priceId);
    const product = typeof price.product === 'string' ? price.product : price.product.id;
    const minor = ZERO_DECIMAL.has(price.currency) ? 1 : 100;
    lineItem = {
      price_data: { currency: price.currency, product, unit_amount: Math.round(input.money * minor) },
      quantity: 1,
    };
  }
  const session = await stripe.checkout.sessions.create({
    mode: 'payment',
    client_reference_id: input.tradeNo,
    line_items: [lineItem],
    success_url: input.successUrl,
    cancel_url: input.cancelUrl,
    allow_promotion_codes: ctx.options.bool('StripePromotionCodesEnabled'),
    ...(input.email ? { customer_email: input.email } : {}),
    customer_creation: 'always',
    metadata: { trade_no: input.tradeNo },
  });
  if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
  return session.url;
}

/**
 * Verifies a webhook delivery with Stripe's library (signature over the raw body with the webhook secret, and the
 * timestamp within the tolerance); null when it is not genuine.
 */
export async function verifyStripeEvent(
  ctx: AppContext,
  rawBody: Buffer,
  signature: string,
): Promise<Stripe.Event | null> {
  const secret = ctx.options.get('StripeWebhookSecret');
  if (!secret || !signature) return null;
  const StripeLibrary = await stripeLibrary();
  try {
    return StripeLibrary.webhooks.constructEvent(rawBody, signature, secret, STRIPE_WEBHOOK_TOLERANCE_SECONDS);
  } catch {
    return null;
  }
}

export type StripeEventOutcome = CardOutcome | 'expired' | 'ignored';

/**
 * Acts on a verified event: a completed and paid checkout credits its order once (an asynchronous payment method
 * credits on `async_payment_succeeded`); a lapsed checkout expires its pending order; anything else is ignored.
 */
export async function handleStripeEvent(ctx: AppContext, event: Stripe.Event): Promise<StripeEventOutcome> {
  if (!event.type.startsWith('checkout.session.')) return 'ignored';
  const session = event.data.object as Stripe.Checkout.Session;
  const tradeNo = session.client_reference_id ?? '';
  if (event.type === 'checkout.session.expired') {
    if (isSubscriptionTradeNo(tradeNo)) {
      await ctx.repos.subscriptions.markOrderFailed(tradeNo);
      return 'expired';
    }
    return (await ctx.repos.topUps.expirePending(tradeNo, PaymentProvider.Stripe)) ? 'expired' : 'ignored';
  }
  const completed =
    event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded';
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
  if (!completed || session.status !== 'complete' || !paid) return 'ignored';
  // A subscription plan's order (subscriptions/lifecycle.ts grants it once, however often this is delivered).
  if (isSubscriptionTradeNo(tradeNo)) return (await completeOrder(ctx, tradeNo, null)) ? 'credited' : 'settled';
  const quotaPerUnit = ctx.options.number('QuotaPerUnit');
  return settleCardOrder(ctx, tradeNo, PaymentProvider.Stripe, (order) => Math.round(order.amount * quotaPerUnit));
}
