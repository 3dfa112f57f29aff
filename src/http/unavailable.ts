// Which dependency an error says is unreachable, if any: the error plugin turns
// those into 503 service_unavailable with Retry-After instead of 500 api_error.
// Only failures to reach or hear from a dependency count; an answer it gave
// (a constraint violation, a workflow that exists, a reverted call) does not.
import postgres from 'postgres';
import { isGrpcServiceError } from '@temporalio/client';
import type { Dependency } from '../errors.js';

/** Socket and connection failures, from Node and from the postgres library (its own codes are upper-case words). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
]);

/**
 * SQLSTATEs of a server that is there but cannot serve: class 08 (connection exception), shutting
 * down or starting up (57P01-57P03), too many connections (53300), and the statement or idle
 * transaction timeouts we set (57014, 25P03).
 */
function unavailableSqlState(code: string): boolean {
  return code.startsWith('08') || ['57P01', '57P02', '57P03', '53300', '57014', '25P03'].includes(code);
}

/** gRPC UNAVAILABLE and DEADLINE_EXCEEDED: Temporal's frontend unreachable or too slow. */
const GRPC_UNAVAILABLE = 14;
const GRPC_DEADLINE_EXCEEDED = 4;

/** viem's names for a node that did not answer (kept by safeChainError, which drops the URL). */
const CHAIN_UNREACHABLE_NAMES = new Set(['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError']);

/** The error and the errors it wraps (`cause`, AggregateError's `errors`), breadth first, bounded. */
function* chainOf(error: unknown): Generator<unknown> {
  const queue = [error];
  for (let seen = 0; queue.length > 0 && seen < 20; seen++) {
    const next = queue.shift();
    if (next === null || next === undefined) continue;
    yield next;
    if (typeof next === 'object') {
      const { cause, errors } = next as { cause?: unknown; errors?: unknown };
      if (cause !== undefined) queue.push(cause);
      if (Array.isArray(errors)) queue.push(...errors);
    }
  }
}

function classifyOne(error: unknown): Dependency | undefined {
  if (error instanceof postgres.PostgresError) return unavailableSqlState(error.code) ? 'postgres' : undefined;
  if (isGrpcServiceError(error)) {
    return error.code === GRPC_UNAVAILABLE || error.code === GRPC_DEADLINE_EXCEEDED ? 'temporal' : undefined;
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (typeof name === 'string' && CHAIN_UNREACHABLE_NAMES.has(name)) return 'chain';
  const code = (error as { code?: unknown } | null)?.code;
  // A bare socket error comes from the postgres library: Temporal's and viem's are wrapped in their own types above.
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'postgres';
  return undefined;
}

/** The unreachable dependency behind `error`, or undefined when it is any other failure. */
export function unavailableDependency(error: unknown): Dependency | undefined {
  for (const link of chainOf(error)) {
    const dependency = classifyOne(link);
    if (dependency) return dependency;
  }
  return undefined;
}
