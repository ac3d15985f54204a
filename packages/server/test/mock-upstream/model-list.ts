import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ModelListUpstream {
  server: Server;
  baseUrl: string;
  /** What `/v1/models` lists: change it in place to make the upstream add or drop models. */
  models: string[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible upstream that only lists models, under a key (`Bearer <key>`), for the upstream model watch:
 * a test changes `models` and the gateway's next check sees it.
 */
export async function startModelListUpstream(key: string, models: string[]): Promise<ModelListUpstream> {
  const server = createServer((request, response) => {
    const found = request.url === '/v1/models';
    if (!found || request.headers.authorization !== `Bearer ${key}`) {
      response.writeHead(found ? 401 : 404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: found ? 'Incorrect API key' : 'Not found', type: 'invalid_request_error' },
        }),
      );
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model', owned_by: 'mock' })) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    models,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
