// The one client of the public API. Every call sends the dashboard session's
// token as the bearer and the chosen mode in `Service-Mode`; POSTs carry a
// fresh Idempotency-Key. Errors become ApiError with the API's own message.
// On `merchant_not_synced` (first login) it calls POST /v1/auth/sync once and
// retries the request.
import { accessToken } from './auth.ts';

export type Mode = 'test' | 'live';
export type Page<T> = { data: T[]; nextCursor: string; hasMore: boolean };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly requestId?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let currentMode: Mode = sessionStorage.getItem('stablepay.mode') === 'live' ? 'live' : 'test';
export const getMode = (): Mode => currentMode;
export function setMode(mode: Mode): void {
  currentMode = mode;
  sessionStorage.setItem('stablepay.mode', mode);
}

/** Called when the API says the session is no longer valid (expired token): the app shows the login again. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

type Query = Record<string, string | number | undefined | null>;
type Options = { query?: Query; body?: unknown; mode?: Mode };

function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(method: string, path: string, options: Options): Promise<Response> {
  const token = accessToken();
  if (!token) {
    onSignedOut();
    throw new ApiError('Your session has ended; sign in again.', 401, 'authentication_error');
  }
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'service-mode': options.mode ?? currentMode };
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    headers['content-type'] = 'application/json';
    if (method === 'POST') headers['idempotency-key'] = crypto.randomUUID();
  }
  return fetch(withQuery(path, options.query), {
    method,
    headers,
    // A DELETE sends no body: without a content type the server would refuse one.
    body: options.body === undefined ? (method === 'GET' || method === 'DELETE' ? undefined : '{}') : JSON.stringify(options.body),
  });
}

async function toError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => null)) as {
    error?: {
      code?: string;
      message?: string;
      requestId?: string;
      param?: string;
      details?: { issues?: { path?: string; message?: string }[] };
    };
  } | null;
  const error = body?.error;
  let message = error?.message ?? `The request failed (HTTP ${response.status}).`;
  const issues = error?.details?.issues;
  if (issues?.length) message += ` ${issues.map((i) => [i.path, i.message].filter(Boolean).join(': ')).join('; ')}`;
  return new ApiError(message, response.status, error?.code ?? 'api_error', error?.requestId, error?.param);
}

export async function request<T>(method: string, path: string, options: Options = {}): Promise<T> {
  let response = await send(method, path, options);
  if (response.status === 401) {
    const error = await toError(response);
    if (error.code !== 'merchant_not_synced') {
      if (error.code === 'authentication_error') onSignedOut();
      throw error;
    }
    const sync = await send('POST', '/v1/auth/sync', { mode: 'test' });
    if (!sync.ok) throw await toError(sync);
    response = await send(method, path, options);
  }
  if (!response.ok) throw await toError(response);
  return (await response.json()) as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  patch: <T>(path: string, body: unknown) => request<T>('PATCH', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** One page of a list endpoint (`cursor` = the previous page's nextCursor). */
  list: <T>(path: string, cursor?: string, query?: Query) => request<Page<T>>('GET', path, { query: { limit: 20, ...query, cursor } }),
};

/** Every row of a list endpoint, paging through its cursors (for pickers and exports; stops after `max` rows). */
export async function listAll<T>(path: string, query?: Query, max = 10_000): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await request<Page<T>>('GET', path, { query: { ...query, limit: 100, cursor } });
    rows.push(...page.data);
    cursor = page.hasMore ? page.nextCursor : undefined;
  } while (cursor && rows.length < max);
  return rows;
}

/** Fetches a file the API serves to authenticated callers (a PDF, …) and saves it under `filename`. */
export async function download(path: string, filename: string): Promise<void> {
  const response = await send('GET', path, {});
  if (!response.ok) throw await toError(response);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.requestId ? `${error.message} (request ${error.requestId})` : error.message;
  return error instanceof Error ? error.message : String(error);
}
