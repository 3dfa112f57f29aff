// What a client gets when Node's HTTP parser refuses its request before Fastify routes it (headers or URL too large,
// a malformed request line, a request not received in time): the API's error envelope, as for every other refusal,
// instead of Fastify's default `{error, message, statusCode}`. The socket is closed after the answer, as Node does.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ulid } from '../ids.js';

type ClientError = Error & { code?: string };

/** Status and message of a parser refusal. */
function refusalOf(error: ClientError): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return { status: 431, message: 'The request line or headers are too large (the URL with its query string counts).' };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request was not received in time.' };
  return { status: 400, message: 'The request is not valid HTTP.' };
}

export function clientErrorHandler(error: ClientError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = refusalOf(error);
  const body = JSON.stringify({ error: { code: 'invalid_request', message, requestId: `req_${ulid()}` } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
