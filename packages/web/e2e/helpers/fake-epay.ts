import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an "epay" (易支付) payment gateway, speaking its wire format: the merchant's browser form-POSTs
 * the signed order to `/submit.php`; the gateway shows a cashier page; "paying" there makes the gateway call the
 * merchant's `notify_url` (GET, signed with MD5 over the sorted parameters plus the merchant key) and then send the
 * browser to `return_url` with the same signed parameters.
 */
export interface FakeEpay {
  baseUrl: string;
  /** Orders as the merchant submitted them (fields as received), with whether their signature was right. */
  orders: Array<{ fields: Record<string, string>; signatureValid: boolean }>;
  /** What the merchant answered to each notification (`success` / `fail`). */
  notifyAnswers: string[];
  close(): Promise<void>;
}

/** The protocol's signature, written here independently of the product's code so the test checks the format. */
export function epaySignature(params: Record<string, string>, key: string): string {
  const text = Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
  return createHash('md5').update(`${text}${key}`).digest('hex');
}

async function formBody(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

const htmlEscape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function cashierPage(order: Record<string, string>, valid: boolean): string {
  return `<!doctype html><html lang="zh"><head><meta charset="utf-8"><title>收银台</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:sans-serif;max-width:420px;margin:40px auto;padding:0 16px}
.money{font-size:32px;font-weight:600}button{font-size:18px;padding:10px 24px}</style></head><body>
<h1>收银台（测试网关）</h1>
<p>商品：${htmlEscape(order.name ?? '')}</p>
<p>订单：${htmlEscape(order.out_trade_no ?? '')}</p>
<p>方式：${htmlEscape(order.type ?? '')}</p>
<p class="money" data-testid="gateway-money">¥${htmlEscape(order.money ?? '')}</p>
<p data-testid="gateway-signature">${valid ? '签名正确' : '签名错误'}</p>
<form method="post" action="/pay"><input type="hidden" name="out_trade_no" value="${htmlEscape(order.out_trade_no ?? '')}">
<button type="submit">确认支付</button></form></body></html>`;
}

export async function startFakeEpay(merchant: { pid: string; key: string }): Promise<FakeEpay> {
  const orders: FakeEpay['orders'] = [];
  const notifyAnswers: string[] = [];
  let sequence = 0;

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://gateway');
      if (request.method === 'POST' && url.pathname === '/submit.php') {
        const fields = await formBody(request);
        const signatureValid = fields.pid === merchant.pid && fields.sign === epaySignature(fields, merchant.key);
        orders.push({ fields, signatureValid });
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(cashierPage(fields, signatureValid));
        return;
      }
      if (request.method === 'POST' && url.pathname === '/pay') {
        const { out_trade_no: tradeNo } = await formBody(request);
        const order = orders.find((entry) => entry.fields.out_trade_no === tradeNo && entry.signatureValid)?.fields;
        if (!order) {
          response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
          response.end('unknown or badly signed order');
          return;
        }
        const result: Record<string, string> = {
          pid: merchant.pid,
          trade_no: `GW${Date.now()}${++sequence}`,
          out_trade_no: order.out_trade_no!,
          type: order.type!,
          name: order.name!,
          money: order.money!,
          trade_status: 'TRADE_SUCCESS',
        };
        const signed = { ...result, sign: epaySignature(result, merchant.key), sign_type: 'MD5' };
        const query = new URLSearchParams(signed).toString();
        // The server-to-server notification first, as a real gateway does once the money has arrived.
        const notify = await fetch(`${order.notify_url}?${query}`);
        notifyAnswers.push(await notify.text());
        response.writeHead(302, { location: `${order.return_url}?${query}` });
        response.end();
        return;
      }
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    orders,
    notifyAnswers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
