import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { createTestApp, type TestApp } from '../support/app.js';

let db: TestDatabase;
let t: TestApp;
beforeAll(async () => {
  db = await createTestDatabase();
  t = await createTestApp(db.sql);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

it('documents the account, key and secret-scanning endpoints with their security', async () => {
  const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
  expect(response.statusCode).toBe(200);
  const doc = response.json();
  expect(doc.paths['/v1/auth/sync'].post.security).toEqual([{ dashboardSession: [] }]);
  expect(doc.paths['/v1/api-keys'].post.security).toEqual([{ dashboardSession: [] }]);
  expect(doc.paths['/v1/merchants/me/live-mode-eligibility'].get).toBeDefined();
  expect(doc.paths['/v1/secret-scanning/reports'].post.security).toEqual([]);
  expect(JSON.stringify(doc.components.schemas.LiveModeEligibility)).toContain('reasons');
});

it('refuses dashboard tokens when no identity provider is configured', async () => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/v1/merchants/me',
    headers: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln' },
  });
  expect(response.statusCode).toBe(401);
  expect(response.json().error.code).toBe('authentication_error');
});
