// JSON requests of the hosted pages to their own origin: no credentials, no
// cache; a non-2xx answer rejects with the API's error (./errors.ts).
import { apiError } from './errors.js';

async function readJson<T>(response: Response): Promise<T> {
  const body: unknown = await response.json();
  if (!response.ok) throw apiError(body, response.status);
  return body as T;
}

export async function getJson<T>(url: string): Promise<T> {
  return readJson<T>(await fetch(url, { headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' }));
}

export async function postJson<T>(url: string, body: unknown): Promise<T> {
  return readJson<T>(
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'omit',
      body: JSON.stringify(body),
    }),
  );
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
