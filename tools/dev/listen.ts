// `npm run listen -- --forward-to http://localhost:4000/hooks`: local webhook
// development, as `stripe listen` gives it. Test mode only. The CLI creates a
// listener (a temporary test-mode endpoint of kind `listener`), prints its
// signing secret, holds the listener's event stream (Server-Sent Events) open
// and forwards every delivery, with its Standard Webhooks headers and the exact
// signed bytes, to the local URL. It reports the local response back, so the
// delivery record shows it. The request to the local URL is made here, on the
// developer's machine: the service itself never connects to a private address.
// If the stream drops, the CLI reconnects; attempts made meanwhile fail and the
// delivery workflow retries them on its usual schedule.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from './temporal.js';

export class ListenError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListenError';
  }
}

export type ListenOptions = {
  forwardTo: string;
  /** Event kinds; default every kind. */
  events?: string[];
  /** An sk_test_ key; default STABLEPAY_API_KEY, else `secretKey` of .data/dev.json (written by npm start). */
  apiKey?: string;
  /** Default STABLEPAY_API_URL, else `apiUrl` of .data/dev.json, else http://127.0.0.1:3000. */
  apiUrl?: string;
  log?: (line: string) => void;
};

export type ListenSession = {
  listenerId: string;
  signingSecret: string;
  /** Resolves once the stream is open (the first time). */
  ready: Promise<void>;
  /** Ends the stream and waits for forwards in flight; the listener expires an hour later. */
  stop: () => Promise<void>;
  /** Settles when the session ends: resolves after stop(), rejects when the api refuses the stream for good. */
  done: Promise<void>;
};

type Delivery = {
  requestId: string;
  eventId: string;
  eventType: string;
  attempt: number;
  answerBy: string;
  headers: Record<string, string>;
  body: string;
};

const DEV_FILE = join(PROJECT_ROOT, '.data', 'dev.json');
const EXCERPT_BYTES = 1024;
const RECONNECT_DELAYS_MS = [500, 1000, 2000, 5000];

function readDevFile(): { apiUrl?: string; secretKey?: string } {
  if (!existsSync(DEV_FILE)) return {};
  try {
    return JSON.parse(readFileSync(DEV_FILE, 'utf8')) as { apiUrl?: string; secretKey?: string };
  } catch {
    return {};
  }
}

/** Refuses anything but a test-mode secret key, before any request is made. */
export function checkTestKey(key: string | undefined): string {
  if (!key)
    throw new ListenError('No API key: pass --api-key sk_test_..., set STABLEPAY_API_KEY, or run `npm start` (it writes .data/dev.json).');
  if (key.startsWith('sk_live_') || key.startsWith('pk_live_')) {
    throw new ListenError(
      'npm run listen works in test mode only: a live key is refused. Use an sk_test_ key; live endpoints must be public https URLs.',
    );
  }
  if (!key.startsWith('sk_test_')) throw new ListenError('npm run listen needs a test-mode secret key (sk_test_...).');
  return key;
}

function checkForwardTarget(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ListenError(`--forward-to is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ListenError('--forward-to must be an http:// or https:// URL.');
  return url.toString();
}

export function parseListenArgs(argv: readonly string[]): ListenOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'forward-to': { type: 'string', short: 'f' },
      events: { type: 'string', short: 'e' },
      'api-key': { type: 'string' },
      'api-url': { type: 'string' },
    },
    strict: true,
  });
  if (!values['forward-to'])
    throw new ListenError(
      'Usage: npm run listen -- --forward-to http://localhost:4000/hooks [--events a,b] [--api-key sk_test_...] [--api-url URL]',
    );
  const events = values.events
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  return {
    forwardTo: values['forward-to'],
    ...(events && events.length > 0 ? { events } : {}),
    ...(values['api-key'] ? { apiKey: values['api-key'] } : {}),
    ...(values['api-url'] ? { apiUrl: values['api-url'] } : {}),
  };
}

async function apiError(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const { error } = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (error?.message) return `${response.status} ${error.code}: ${error.message}`;
  } catch {
    // not the error envelope
  }
  return `${response.status} ${text.slice(0, 200)}`;
}

const stamp = () => new Date().toISOString().replace('T', ' ').slice(0, 19);

/** Reads Server-Sent Events from a fetch body: yields each event's name and data. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer[newline] === '\r' ? 2 : 1));
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (line.startsWith(':')) {
        continue; // keepalive comment
      } else {
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
    }
  }
}

export async function startListening(options: ListenOptions): Promise<ListenSession> {
  const dev = readDevFile();
  const apiKey = checkTestKey(options.apiKey ?? process.env.STABLEPAY_API_KEY ?? dev.secretKey);
  const apiUrl = (options.apiUrl ?? process.env.STABLEPAY_API_URL ?? dev.apiUrl ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
  const forwardTo = checkForwardTarget(options.forwardTo);
  const log = options.log ?? ((line: string) => console.log(line));
  const auth = { authorization: `Bearer ${apiKey}` };

  const created = await fetch(`${apiUrl}/v1/webhook-listeners`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ events: options.events ?? ['*'], forwardTo }),
  }).catch((error: unknown) => {
    throw new ListenError(
      `Cannot reach the api at ${apiUrl} (is \`npm start\` running?): ${(error as { cause?: { code?: string } }).cause?.code ?? String(error)}`,
    );
  });
  if (!created.ok) throw new ListenError(`The api refused the listener: ${await apiError(created)}`);
  const listener = (await created.json()) as { endpoint: { id: string }; signingSecret: string; streamPath: string };
  const listenerId = listener.endpoint.id;

  const abort = new AbortController();
  const seen = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let stopped = false;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  async function answer(
    delivery: Delivery,
    result: { status: number | null; bodyExcerpt: string | null; error: string | null; durationMs: number },
  ) {
    const response = await fetch(`${apiUrl}/v1/webhook-listeners/${listenerId}/answers`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ requestId: delivery.requestId, ...result }),
    });
    if (!response.ok) log(`${stamp()}  could not report the response of ${delivery.eventId}: ${await apiError(response)}`);
    else if (!((await response.json()) as { recorded: boolean }).recorded) {
      log(`${stamp()}  the response to ${delivery.eventId} came too late; the delivery will be retried`);
    }
  }

  async function forward(delivery: Delivery) {
    log(`${stamp()}   --> ${delivery.eventType} [${delivery.eventId}] attempt ${delivery.attempt}`);
    const started = performance.now();
    // Answer before the attempt stops waiting, leaving time for the report.
    const timeoutMs = Math.max(1000, Date.parse(delivery.answerBy) - Date.now() - 1000);
    let result: { status: number | null; bodyExcerpt: string | null; error: string | null; durationMs: number };
    try {
      const response = await fetch(forwardTo, {
        method: 'POST',
        headers: { ...delivery.headers, 'content-type': 'application/json', 'user-agent': 'stablepay-listen/1' },
        body: Buffer.from(delivery.body, 'base64'),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      result = {
        status: response.status,
        bodyExcerpt: bytes.length > 0 ? bytes.subarray(0, EXCERPT_BYTES).toString('utf8') : null,
        error: null,
        durationMs: Math.round(performance.now() - started),
      };
      log(`${stamp()}  <--  [${response.status}] POST ${forwardTo} [${delivery.eventId}]`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const message = cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
      result = {
        status: null,
        bodyExcerpt: null,
        error: `forwarding to ${forwardTo} failed: ${message}`.slice(0, 500),
        durationMs: Math.round(performance.now() - started),
      };
      log(`${stamp()}  <--  [ERR] POST ${forwardTo} [${delivery.eventId}]: ${message}`);
    }
    await answer(delivery, result).catch((error: unknown) => log(`${stamp()}  could not report a response: ${String(error)}`));
  }

  async function follow(): Promise<void> {
    let failures = 0;
    while (!stopped) {
      try {
        const response = await fetch(`${apiUrl}${listener.streamPath}`, {
          headers: { ...auth, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (!response.ok || !response.body) {
          const reason = await apiError(response);
          // 4xx: the listener is gone, disabled or expired, or the key was revoked: reconnecting will not help.
          if (response.status >= 400 && response.status < 500 && response.status !== 429)
            throw new ListenError(`The api closed the listener: ${reason}`);
          throw new Error(reason);
        }
        for await (const message of readEvents(response.body)) {
          if (message.event === 'ready') {
            failures = 0;
            markReady();
          } else if (message.event === 'delivery') {
            const delivery = JSON.parse(message.data) as Delivery;
            if (seen.has(delivery.requestId)) continue;
            seen.add(delivery.requestId);
            const task = forward(delivery).finally(() => inFlight.delete(task));
            inFlight.add(task);
          }
        }
        if (!stopped) log(`${stamp()}  the stream ended; reconnecting`);
      } catch (error) {
        if (stopped) break;
        if (error instanceof ListenError) throw error;
        const delay = RECONNECT_DELAYS_MS[Math.min(failures, RECONNECT_DELAYS_MS.length - 1)]!;
        failures++;
        log(`${stamp()}  the stream was lost (${error instanceof Error ? error.message : String(error)}); reconnecting in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  const done = follow();
  done.catch(() => markReady());
  return {
    listenerId,
    signingSecret: listener.signingSecret,
    ready,
    done,
    stop: async () => {
      stopped = true;
      abort.abort();
      await done.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}

/** The command: returns the exit code (0 after Ctrl-C, 1 on a refusal). */
export async function main(
  argv: readonly string[] = process.argv.slice(2),
  log: (line: string) => void = (line) => console.log(line),
): Promise<number> {
  let session: ListenSession;
  try {
    const options = parseListenArgs(argv);
    session = await startListening({ ...options, log });
  } catch (error) {
    if (error instanceof ListenError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    }
    console.error(`npm run listen: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  await session.ready;
  log(`Ready! Your webhook signing secret is ${session.signingSecret} (listener ${session.listenerId}; test mode)`);
  log('Verify deliveries with it (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature). Ctrl-C to stop.');
  const interrupted = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  try {
    await Promise.race([interrupted, session.done]);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    await session.stop();
    return 1;
  }
  await session.stop();
  log('Stopped. The listener expires in one hour; deliveries it did not get are retried until then and then cancelled.');
  return 0;
}
