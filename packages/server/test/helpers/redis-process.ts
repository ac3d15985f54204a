import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { IN_CI } from './databases.js';
import { until } from './wait.js';

/** Whether `redis-server` is on PATH; required in CI, else the caller's tests are skipped with `skipNote`. */
export function redisServerAvailable(skipNote: string): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    if (IN_CI) throw new Error('redis-server is not on PATH but CI=true requires it');
    console.warn(`[skip] redis-server is not on PATH: ${skipNote}`);
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A redis-server of this test's own on a random port, without persistence: killed, it forgets everything. */
export async function startRedisProcess() {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const ping = async () => {
    const probe = new Redis({ port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  };
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until(ping, { what: `redis-server on port ${port}` });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    /** Kills the process at once (SIGKILL): its data is gone. */
    async kill() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
    restart: start,
  };
}

/**
 * A TCP relay in front of Redis that can hold traffic: while held, what clients send is kept back (their commands
 * wait and time out, as with a Redis that stopped answering but keeps the connection), and released later, so a
 * command the client gave up on still runs afterwards, which is the hard case for anything not idempotent.
 */
export async function startHoldingRelay(port: number) {
  let held: Array<() => void> | null = null;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.on('data', (chunk) => {
      if (held) held.push(() => upstream.write(chunk));
      else upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    hold() {
      held ??= [];
    },
    release() {
      const waiting = held ?? [];
      held = null;
      for (const send of waiting) send();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
