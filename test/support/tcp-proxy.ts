// A TCP proxy a test puts between a client and a server to cut the network
// between them: `partition()` stops forwarding in both directions without
// closing anything (packets vanish, as in a real partition: the client sees no
// error, only silence); `heal()` forwards again, buffered bytes included.
import { createServer, connect, type Socket } from 'node:net';
import { once } from 'node:events';

export type TcpProxy = { port: number; partition: () => void; heal: () => void; close: () => Promise<void> };

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let partitioned = false;
  const pairs = new Set<[Socket, Socket]>();
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    // Paused sockets buffer what arrives instead of passing it on.
    if (partitioned) for (const socket of pair) socket.pause();
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    partition: () => {
      partitioned = true;
      for (const pair of pairs) for (const socket of pair) socket.pause();
    },
    heal: () => {
      partitioned = false;
      for (const pair of pairs) for (const socket of pair) socket.resume();
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
