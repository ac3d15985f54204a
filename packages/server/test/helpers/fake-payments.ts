import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A checkout session the fake Stripe created: the decoded form the gateway posted, and what it answered. */
export interface FakeStripeSession {
  id: string;
  url: string;
  form: Record<string, string>;
}

export interface FakeStripe {
  /** The API base to hand the gateway as STRIPE_API_BASE. */
  base: string;
  sessions: FakeStripeSession[];
  /** Requests refused for a wrong or missing secret key. */
  refused: number;
  /** When set, checkout creation answers this HTTP status with a Stripe error. */
  failWith: number | null;
  close(): Promise<void>;
}

export interface FakeCreem {
  base: string;
  checkouts: Array<{ id: string; url: string; body: Record<string, unknown> }>;
  refused: number;
  close(): Promise<void>;
}

const readBody = (request: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    request.on('end', () => resolve(body));
  });

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
};

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A hosted checkout page: what a payer would see, and the way back the session named. */
function checkoutPage(response: ServerResponse, title: string, total: string, back: string) {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(
    `<!doctype html><html><head><title>${title}</title></head><body style="font-family:sans-serif;padding:40px">` +
      `<h1>${title}</h1><p data-testid="fake-checkout-total">${total}</p>` +
      `<a data-testid="fake-checkout-back" href="${back.replace(/"/g, '&quot;')}">Back to the merchant</a></body></html>`,
  );
}

/**
 * A local stand-in for Stripe's API: `POST /v1/checkout/sessions` (form-encoded, `Authorization: Bearer sk_…`),
 * `GET /v1/prices/:id`, and the hosted checkout page each session's URL points to.
 */
export async function startFakeStripe(
  secretKey: string,
  price = { currency: 'usd', unit_amount: 100 },
): Promise<FakeStripe> {
  const sessions: FakeStripeSession[] = [];
  const state = { refused: 0, failWith: null as number | null };
  let base = '';
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    const page = /^\/pay\/(cs_test_\w+)$/.exec(path);
    if (request.method === 'GET' && page) {
      const session = sessions.find((entry) => entry.id === page[1]);
      if (!session) return json(response, 404, {});
      const quantity = Number(session.form['line_items[0][quantity]'] ?? 1);
      const cents = Number(session.form['line_items[0][price_data][unit_amount]'] ?? quantity * price.unit_amount);
      return checkoutPage(
        response,
        'Fake Stripe Checkout',
        `$${(cents / 100).toFixed(2)}`,
        session.form.success_url ?? '/',
      );
    }
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      state.refused++;
      return json(response, 401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    if (request.method === 'GET' && path.startsWith('/v1/prices/')) {
      const id = decodeURIComponent(path.slice('/v1/prices/'.length));
      return json(response, 200, { id, object: 'price', product: 'prod_credit', ...price });
    }
    if (request.method === 'POST' && path === '/v1/checkout/sessions') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(request)));
      if (state.failWith) {
        return json(response, state.failWith, { error: { type: 'api_error', message: 'Stripe is down' } });
      }
      const id = `cs_test_${randomBytes(8).toString('hex')}`;
      const url = `${base}/pay/${id}`;
      sessions.push({ id, url, form });
      return json(response, 200, {
        id,
        object: 'checkout.session',
        client_reference_id: form.client_reference_id ?? null,
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        url,
      });
    }
    json(response, 404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${path})` } });
  });
  base = await listen(server);
  return {
    base,
    sessions,
    get refused() {
      return state.refused;
    },
    get failWith() {
      return state.failWith;
    },
    set failWith(value) {
      state.failWith = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } as FakeStripe;
}

/** A Stripe event for a checkout session, as its webhook delivers it. */
export function stripeCheckoutEvent(
  tradeNo: string,
  overrides: { type?: string; status?: string; payment_status?: string; amount_total?: number } = {},
): string {
  return JSON.stringify({
    id: `evt_${randomBytes(8).toString('hex')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    type: overrides.type ?? 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${randomBytes(8).toString('hex')}`,
        object: 'checkout.session',
        client_reference_id: tradeNo,
        customer: 'cus_test',
        currency: 'usd',
        amount_total: overrides.amount_total ?? 1000,
        status: overrides.status ?? 'complete',
        payment_status: overrides.payment_status ?? 'paid',
      },
    },
  });
}

/** The `Stripe-Signature` header Stripe would send, made by Stripe's library (optionally at another time). */
export function stripeSignature(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
}

/** A local stand-in for Creem's API: `POST /v1/checkouts` (JSON, `x-api-key`) and its hosted checkout page. */
export async function startFakeCreem(apiKey: string): Promise<FakeCreem> {
  const checkouts: FakeCreem['checkouts'] = [];
  const state = { refused: 0 };
  let base = '';
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '').split('?')[0]!;
    const page = /^\/checkout\/(ch_\w+)$/.exec(path);
    if (request.method === 'GET' && page) {
      const checkout = checkouts.find((entry) => entry.id === page[1]);
      if (!checkout) return json(response, 404, {});
      return checkoutPage(
        response,
        'Fake Creem Checkout',
        String(checkout.body.product_id),
        String(checkout.body.success_url ?? '/'),
      );
    }
    if (request.headers['x-api-key'] !== apiKey) {
      state.refused++;
      return json(response, 403, { message: 'Forbidden' });
    }
    if (request.method === 'POST' && path === '/v1/checkouts') {
      const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
      const id = `ch_${randomBytes(8).toString('hex')}`;
      const url = `${base}/checkout/${id}`;
      checkouts.push({ id, url, body });
      return json(response, 200, {
        id,
        object: 'checkout',
        status: 'pending',
        request_id: body.request_id,
        checkout_url: url,
      });
    }
    json(response, 404, { message: 'Not found' });
  });
  base = await listen(server);
  return {
    base,
    checkouts,
    get refused() {
      return state.refused;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  } as FakeCreem;
}

/** A Creem `checkout.completed` webhook body for an order. */
export function creemCompletedEvent(tradeNo: string, overrides: { status?: string; eventType?: string } = {}): string {
  return JSON.stringify({
    id: `evt_${randomBytes(6).toString('hex')}`,
    eventType: overrides.eventType ?? 'checkout.completed',
    created_at: Date.now(),
    object: {
      id: `ch_${randomBytes(6).toString('hex')}`,
      object: 'checkout',
      request_id: tradeNo,
      order: { id: 'ord_1', status: overrides.status ?? 'paid', type: 'onetime', amount: 500, currency: 'USD' },
      product: { id: 'prod_small', name: 'Small pack' },
      customer: { id: 'cust_1', email: 'payer@example.com', name: 'Payer' },
      status: 'completed',
    },
  });
}

/** Creem's `creem-signature`: hex HMAC-SHA256 of the raw body with the webhook secret. */
export function creemSignature(payload: string, secret: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}
