// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256
// over `<webhook-id>.<webhook-timestamp>.<body>` with the exact bytes sent,
// one `v1,<base64>` entry per active secret, space-separated (two during a
// rotation overlap).
import { createHmac } from 'node:crypto';
import { secretKeyBytes } from './secrets.js';

export type SignedHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

export function signPayload(secrets: readonly string[], messageId: string, timestampSeconds: number, body: Buffer): SignedHeaders {
  const signatures = secrets.map((secret) => {
    const hmac = createHmac('sha256', secretKeyBytes(secret));
    hmac.update(`${messageId}.${timestampSeconds}.`, 'utf8');
    hmac.update(body);
    return `v1,${hmac.digest('base64')}`;
  });
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatures.join(' '),
  };
}
