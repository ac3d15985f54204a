/** The load clients: one per path (direct, gateway, bare proxy) and kind of load, each checked before timing. */
import { BENCH_MODEL } from './gateway.js';
import { LoadClient, type Target } from './load.js';

/** Content chunks of each stream in the burst phase: an agent's fast answer, each token its own event. */
export const BURST_CHUNKS = 20;

function requestBodies() {
  const base = {
    model: BENCH_MODEL,
    messages: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'user', content: 'Write sixteen words about load testing an API gateway.' },
    ],
    max_tokens: 64,
  };
  return {
    chat: Buffer.from(JSON.stringify(base)),
    stream: Buffer.from(JSON.stringify({ ...base, stream: true, stream_options: { include_usage: true } })),
    // The mock answers `bench_chunks` records, each written on its own (bench/mock-upstream.ts).
    burst: Buffer.from(
      JSON.stringify({ ...base, stream: true, stream_options: { include_usage: true }, bench_chunks: BURST_CHUNKS }),
    ),
  };
}

/** One request of each kind through both paths, checked by content: a fast wrong answer must not be measured. */
async function verify(direct: LoadClient, gateway: LoadClient, streaming: boolean): Promise<void> {
  const hasOneChoice = (body: string) => {
    try {
      return (JSON.parse(body) as { choices?: unknown[] }).choices?.length === 1;
    } catch {
      return false;
    }
  };
  for (const client of [direct, gateway]) {
    const sample = await client.send(true);
    const body = sample.body ?? '';
    const good =
      sample.status === 200 &&
      (streaming ? body.includes('"content":"word') && body.trimEnd().endsWith('data: [DONE]') : hasOneChoice(body));
    if (!good) {
      const kind = streaming ? 'streaming' : 'non-streaming';
      throw new Error(`${kind} check via ${client.target.label} failed: ${sample.status} ${sample.error ?? body}`);
    }
  }
}

/** One kind of load's clients towards the three paths. */
export interface ThreeClients {
  direct: LoadClient;
  gateway: LoadClient;
  floor: LoadClient;
}

export interface Clients {
  bodies: ReturnType<typeof requestBodies>;
  rate: ThreeClients;
  pool: ThreeClients;
  stream: ThreeClients;
  /** Streams of BURST_CHUNKS records each, in a closed loop of connections. */
  burst: ThreeClients;
  /** Every client made, for closing them. */
  all: LoadClient[];
}

export interface Ports {
  mock: number;
  gateway: number;
  floor: number;
}

export function makeClients(ports: Ports, gatewayKey: string, connections: number): Clients {
  const all: LoadClient[] = [];
  const bodies = requestBodies();
  const path = '/v1/chat/completions';
  const direct: Target = {
    label: 'direct',
    port: ports.mock,
    path,
    headers: { authorization: 'Bearer sk-bench-upstream' },
  };
  const viaGateway: Target = {
    label: 'gateway',
    port: ports.gateway,
    path,
    headers: { authorization: `Bearer ${gatewayKey}` },
  };
  const client = (target: Target, body: Buffer, sockets: number) => {
    const made = new LoadClient(target, body, sockets);
    all.push(made);
    return made;
  };
  // Fixed-rate clients may open more sockets than they usually need, so a slow answer never delays the next send.
  const rateDirect = client(direct, bodies.chat, 256);
  const rateGateway = client(viaGateway, bodies.chat, 256);
  const poolDirect = client(direct, bodies.chat, connections);
  const poolGateway = client(viaGateway, bodies.chat, connections);
  const streamDirect = client(direct, bodies.stream, 256);
  const streamGateway = client(viaGateway, bodies.stream, 256);
  const floorTarget: Target = { ...direct, label: 'bare Node proxy', port: ports.floor };
  return {
    bodies,
    rate: { direct: rateDirect, gateway: rateGateway, floor: client(floorTarget, bodies.chat, 256) },
    pool: { direct: poolDirect, gateway: poolGateway, floor: client(floorTarget, bodies.chat, connections) },
    stream: { direct: streamDirect, gateway: streamGateway, floor: client(floorTarget, bodies.stream, 256) },
    burst: {
      direct: client(direct, bodies.burst, connections),
      gateway: client(viaGateway, bodies.burst, connections),
      floor: client(floorTarget, bodies.burst, connections),
    },
    all,
  };
}

export async function verifyClients(clients: Clients): Promise<void> {
  await verify(clients.rate.direct, clients.rate.gateway, false);
  await verify(clients.rate.direct, clients.rate.floor, false);
  await verify(clients.stream.direct, clients.stream.floor, true);
  await verify(clients.stream.direct, clients.stream.gateway, true);
  await verify(clients.burst.direct, clients.burst.floor, true);
  await verify(clients.burst.direct, clients.burst.gateway, true);
}
