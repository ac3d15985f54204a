import { connect, createServer, type Server, type Socket } from 'node:net';

/** A TCP relay to host:port on a fixed local port that can be cut (every connection dropped) and restored. */
export async function startTcpRelay(host: string, port: number) {
  const sockets = new Set<Socket>();
  let listener: Server | null = null;
  let localPort = 0;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      listener = createServer((client) => {
        const upstream = connect(port, host);
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      listener.once('error', reject);
      listener.listen(localPort, '127.0.0.1', () => {
        localPort = (listener!.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    port: localPort,
    async stop() {
      const closing = listener;
      listener = null;
      for (const socket of sockets) socket.destroy();
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
    async restart() {
      if (!listener) await listen();
    },
  };
}
