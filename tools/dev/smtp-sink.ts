// A local SMTP server for development and tests (the `smtp-server` package):
// it accepts every message, keeps it in memory and appends it to a JSON file,
// and lists what it received on a loopback HTTP endpoint
// (`GET <inboxUrl>`, optional `?to=<address>`), so the whole mail path runs
// offline and tests can read what was sent.
import { createServer as createHttpServer, type Server } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort } from './ports.js';

export type ReceivedMail = {
  id: string;
  messageId: string | null;
  from: string;
  to: string[];
  subject: string;
  text: string;
  receivedAt: string;
};

export type SmtpSink = {
  smtpUrl: string;
  inboxUrl: string;
  messages(filter?: { to?: string }): ReceivedMail[];
  /** Resolves with the first message matching `predicate` (polls the in-memory inbox). */
  waitFor(predicate: (mail: ReceivedMail) => boolean, timeoutMs?: number): Promise<ReceivedMail>;
  stop(): Promise<void>;
};

/** What `npm start` writes into .data/dev.json. */
export type SmtpSinkInfo = { smtpUrl: string; inboxUrl: string };

function unfoldHeaders(head: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** RFC 2047 encoded words (=?utf-8?Q?...?= / =?utf-8?B?...?=) in a header value. */
function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=\s*/g, (_m, _charset: string, encoding: string, text: string) =>
    encoding.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '7bit').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** Enough MIME for the single-part text mails the service sends. */
export function parseMail(raw: string): Pick<ReceivedMail, 'messageId' | 'from' | 'subject' | 'text'> {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = unfoldHeaders(head);
  return {
    messageId: headers.get('message-id') ?? null,
    from: decodeWords(headers.get('from') ?? ''),
    subject: decodeWords(headers.get('subject') ?? ''),
    text: decodeBody(body, headers.get('content-transfer-encoding')).replace(/\r\n/g, '\n').trimEnd(),
  };
}

export async function startSmtpSink(options: { storeFile?: string; smtpPort?: number; httpPort?: number } = {}): Promise<SmtpSink> {
  const inbox: ReceivedMail[] = [];
  if (options.storeFile && existsSync(options.storeFile)) {
    try {
      inbox.push(...(JSON.parse(readFileSync(options.storeFile, 'utf8')) as ReceivedMail[]));
    } catch {
      // An unreadable store starts empty.
    }
  }
  const persist = () => {
    if (!options.storeFile) return;
    mkdirSync(dirname(options.storeFile), { recursive: true });
    writeFileSync(options.storeFile, JSON.stringify(inbox, null, 2));
  };
  let counter = inbox.length;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const parsed = parseMail(raw);
        inbox.push({
          id: `mail_${++counter}`,
          ...parsed,
          from: parsed.from || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
          to: session.envelope.rcptTo.map((r) => r.address),
          receivedAt: new Date().toISOString(),
        });
        persist();
        callback();
      });
    },
  });
  const smtpPort = options.smtpPort ?? (await freePort());
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(smtpPort, '127.0.0.1', () => resolve());
  });

  const messages = (filter: { to?: string } = {}) =>
    inbox.filter((m) => !filter.to || m.to.some((address) => address.toLowerCase() === filter.to!.toLowerCase()));

  const http: Server = createHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== '/messages') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ data: messages({ to: url.searchParams.get('to') ?? undefined }) }));
  });
  const httpPort = options.httpPort ?? (await freePort());
  await new Promise<void>((resolve) => http.listen(httpPort, '127.0.0.1', () => resolve()));

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    inboxUrl: `http://127.0.0.1:${httpPort}/messages`,
    messages,
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = inbox.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('No matching mail arrived in the SMTP sink');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
