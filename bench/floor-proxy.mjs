/**
 * The platform floor: the least any Node gateway does per request. It reads the client's JSON body, parses and
 * re-serialises it, forwards it over a keep-alive undici pool, reads and parses the answer (a gateway must, to find
 * the usage) and replies. No authentication, routing framework, billing or logs. Measured under the same load and
 * on the same core as the gateway, it tells which part of the gateway's figures is Node itself on this machine.
 *
 * Plain JavaScript, started without a loader, so its memory figures compare with the gateway's.
 *
 * Usage: node bench/floor-proxy.mjs --upstream http://127.0.0.1:PORT
 * Prints one JSON line `{"port": N}` on stdout once listening on 127.0.0.1.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (!values.upstream) throw new Error('--upstream is required');
const upstream = values.upstream;
// The same pool settings as the gateway's upstream agent (packages/server/src/relay/send.ts).
const agent = new Agent({ connections: 256, keepAliveTimeout: 90_000, pipelining: 1 });
const upstreamHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-bench-upstream' };

/**
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Buffer} raw
 */
async function forward(req, res, raw) {
  const answer = await request(`${upstream}${req.url}`, {
    method: 'POST',
    headers: upstreamHeaders,
    body: JSON.stringify(JSON.parse(raw.toString('utf8'))),
    dispatcher: agent,
  });
  const type = String(answer.headers['content-type'] ?? '');
  if (type.includes('event-stream')) {
    res.writeHead(answer.statusCode, { 'content-type': type, 'cache-control': 'no-cache' });
    for await (const chunk of answer.body) res.write(chunk);
    res.end();
    return;
  }
  const text = await answer.body.text();
  JSON.parse(text);
  res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const server = createServer({ keepAlive: true }, (req, res) => {
  /** @type {Buffer[]} */
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    forward(req, res, Buffer.concat(parts)).catch((error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(error));
    });
  });
});
server.keepAliveTimeout = 120_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
