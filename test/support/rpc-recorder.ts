// An HTTP forwarder a test puts between a chain client and anvil to see its round trips:
// every POST body is passed on unchanged and kept, parsed, so a test can count HTTP
// requests and the JSON-RPC calls each carried (a JSON-RPC batch is one request).
import { createServer } from 'node:http';
import { once } from 'node:events';

export type RpcCall = { method: string; params?: unknown[] };
export type RpcRecorder = {
  url: string;
  /** One entry per HTTP request: the calls it carried, in order. */
  requests: RpcCall[][];
  close: () => Promise<void>;
};

export async function startRpcRecorder(targetUrl: string): Promise<RpcRecorder> {
  const requests: RpcCall[][] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      requests.push(Array.isArray(parsed) ? parsed : [parsed]);
      fetch(targetUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(
        async (upstream) => {
          res.writeHead(upstream.status, { 'content-type': 'application/json' });
          res.end(await upstream.text());
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the recorder has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections(); // the client's keep-alive sockets
      return closed;
    },
  };
}
