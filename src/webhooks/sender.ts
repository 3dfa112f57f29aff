// One signed POST to a checked target. It connects to the address that passed
// the check (never re-resolving the name), while TLS SNI, certificate
// validation and the Host header use the endpoint's host name. Redirects are
// not followed (a 3xx is a failed attempt).
import https from 'node:https';
import type { CheckedTarget } from './targets.js';

export const RESPONSE_EXCERPT_BYTES = 1024;
/** More than this is read and discarded only up to here, then the socket is dropped. */
const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

export type SendResult = {
  /** HTTP status, or null when no response arrived (timeout, refused, TLS failure). */
  status: number | null;
  retryAfterSeconds: number | null;
  bodyExcerpt: string | null;
  error: string | null;
  durationMs: number;
};

export type SenderOptions = {
  timeoutMs: number;
  /** Extra trusted CA certificates (tests and local receivers with self-signed certificates). */
  ca?: string | Buffer | Array<string | Buffer>;
  agent?: https.Agent;
  userAgent?: string;
};

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

function isIpLiteral(hostname: string): boolean {
  return /^[0-9.]+$/.test(hostname) || hostname.includes(':');
}

export function sendWebhook(
  target: CheckedTarget,
  headers: Record<string, string>,
  body: Buffer,
  options: SenderOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = https.request(
      {
        method: 'POST',
        host: target.address,
        port: target.port,
        path: `${target.url.pathname}${target.url.search}`,
        servername: isIpLiteral(target.hostname) ? undefined : target.hostname,
        ...(options.ca ? { ca: options.ca } : {}),
        agent: options.agent,
        headers: {
          ...headers,
          host: target.url.host,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': options.userAgent ?? 'stablepay-webhooks/1',
        },
        timeout: options.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          if (received < RESPONSE_READ_LIMIT_BYTES) chunks.push(chunk);
          received += chunk.length;
          if (received >= RESPONSE_READ_LIMIT_BYTES) response.destroy();
        });
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8');
          const retryAfter = response.headers['retry-after'];
          finish({
            status: response.statusCode ?? null,
            retryAfterSeconds: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
            bodyExcerpt: text.length > 0 ? text : null,
            error: null,
          });
        };
        response.on('end', done);
        response.on('close', done);
        response.on('error', done);
      },
    );
    // Covers connect, TLS and the whole exchange, not only socket idleness.
    const deadline = setTimeout(() => {
      request.destroy(new Error(`timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('timeout', () => request.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    request.on('error', (error) => finish({ status: null, retryAfterSeconds: null, bodyExcerpt: null, error: error.message }));
    request.on('close', () => clearTimeout(deadline));
    request.end(body);
  });
}
