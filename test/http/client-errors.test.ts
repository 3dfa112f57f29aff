// Requests Node's HTTP parser refuses before any route runs (a URL or headers too large, a request line that is not
// HTTP) get the API's error envelope over a real socket, as schemathesis's stateful run found they did not (431 with
// Fastify's own `{error, message, statusCode}`).
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let t: TestApp;
let port: number;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

/** Writes `raw` on a new connection and reads the whole answer until the server closes it. */
function exchange(raw: string): Promise<{ status: number; contentType: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      const contentType = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
      resolve({ status, contentType, body: body ? JSON.parse(body) : undefined });
    });
  });
}

describe('requests the HTTP parser refuses', () => {
  it('a URL larger than the header limit is 431 with the error envelope', async () => {
    const answer = await exchange(`GET /v1/refunds?cursor=${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.body).toEqual({
      error: { code: 'invalid_request', message: expect.any(String), requestId: expect.stringMatching(/^req_/) },
    });
  });

  it('a request line that is not HTTP is 400 with the error envelope', async () => {
    const answer = await exchange('NOT HTTP AT ALL\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: { code: 'invalid_request', message: expect.any(String), requestId: expect.stringMatching(/^req_/) },
    });
  });
});
