// A real HTTPS webhook receiver on 127.0.0.1 with a self-signed certificate
// made for the run (openssl CLI), for the tests and bench/webhooks.ts. Its
// certificate is handed to the delivery client as a trusted CA; nothing
// disables certificate checks globally.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ReceivedRequest = { path: string; headers: Record<string, string>; body: Buffer; receivedAt: number };
export type ReceiverResponse = { status: number; headers?: Record<string, string>; body?: string };
/** May answer later (a slow receiver): the request stays open until the promise settles. */
export type Responder = (request: ReceivedRequest) => ReceiverResponse | Promise<ReceiverResponse>;

export type HttpsReceiver = {
  port: number;
  /** The certificate (also its own CA): pass as `ca` to the delivery client. */
  certificate: string;
  requests: ReceivedRequest[];
  /** Per-path responses; unknown paths answer 200. */
  respond: (path: string, responder: Responder) => void;
  onRequest?: (request: ReceivedRequest) => void;
  close: () => Promise<void>;
};

/** Host names the certificate is valid for (tests resolve them to 127.0.0.1 through an injected resolver). */
export const RECEIVER_HOSTNAMES = ['receiver.test', 'rebind.test', 'localhost'];

export function makeSelfSignedCertificate(hostnames = RECEIVER_HOSTNAMES): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-cert-'));
  try {
    const san = [...hostnames.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',');
    const config = [
      '[req]',
      'distinguished_name=dn',
      'x509_extensions=ext',
      'prompt=no',
      '[dn]',
      'CN=webhook receiver',
      '[ext]',
      `subjectAltName=${san}`,
      'basicConstraints=critical,CA:TRUE',
      'keyUsage=digitalSignature,keyCertSign',
    ].join('\n');
    writeFileSync(join(dir, 'openssl.cnf'), config);
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-config',
        join(dir, 'openssl.cnf'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startHttpsReceiver(tls = makeSelfSignedCertificate()): Promise<HttpsReceiver> {
  const responders = new Map<string, Responder>();
  const requests: ReceivedRequest[] = [];
  const receiver: HttpsReceiver = {
    port: 0,
    certificate: tls.cert,
    requests,
    respond: (path, responder) => responders.set(path, responder),
    close: async () => {},
  };
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const received: ReceivedRequest = { path: req.url ?? '/', headers, body: Buffer.concat(chunks), receivedAt: Date.now() };
      requests.push(received);
      receiver.onRequest?.(received);
      void Promise.resolve(responders.get(received.path)?.(received) ?? { status: 200, body: 'ok' }).then((answer) => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? '');
      });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
