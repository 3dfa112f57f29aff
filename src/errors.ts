// The one error hierarchy of the API. Each class carries the spec's error code
// and HTTP status; src/plugins/errors.ts renders them in the spec's envelope.

export type ErrorCode =
  | 'authentication_error'
  | 'permission_denied'
  | 'merchant_not_synced'
  | 'not_found'
  | 'invalid_request'
  | 'session_invalid_state'
  | 'idempotency_error'
  | 'rate_limited'
  | 'api_error'
  | 'service_unavailable'
  | 'method_not_allowed';

export type ErrorOptions = {
  param?: string;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  readonly param: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, statusCode: number, message: string, options: ErrorOptions = {}) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.statusCode = statusCode;
    this.param = options.param;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

export class AuthenticationError extends ApiError {
  constructor(message = 'Invalid or missing credentials.') {
    super('authentication_error', 401, message);
  }
}

export class PermissionDeniedError extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super('permission_denied', 403, message, options);
  }
}

export class MerchantNotSyncedError extends ApiError {
  constructor() {
    super('merchant_not_synced', 401, 'No merchant exists for this dashboard session; call POST /v1/auth/sync first.');
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'No such resource.', options?: ErrorOptions) {
    super('not_found', 404, message, options);
  }
}

/** The path exists but not with this method: 405 with the methods it answers in `Allow` (docs/decisions.md). */
export class MethodNotAllowedError extends ApiError {
  constructor(method: string, path: string, allowed: readonly string[]) {
    super('method_not_allowed', 405, `${path} does not answer ${method}; it answers ${allowed.join(', ')}.`, {
      headers: { allow: allowed.join(', ') },
    });
  }
}

export type ValidationIssue = { path: string; message: string };

export class InvalidRequestError extends ApiError {
  constructor(message: string, options: ErrorOptions & { issues?: ValidationIssue[] } = {}) {
    const issues = options.issues ?? (options.param ? [{ path: options.param, message }] : []);
    super('invalid_request', 400, message, { ...options, details: { ...options.details, issues } });
  }
}

export class InvalidStateError extends ApiError {
  constructor(message: string, options?: ErrorOptions) {
    super('session_invalid_state', 403, message, options);
  }
}

export class IdempotencyError extends ApiError {
  constructor(message: string) {
    super('idempotency_error', 409, message, { param: 'Idempotency-Key' });
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super('rate_limited', 429, 'Too many requests; retry after the Retry-After delay.', {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
  }
}

export class InternalError extends ApiError {
  constructor(message = 'An unexpected error occurred.') {
    super('api_error', 500, message);
  }
}

/** What a dependency outage is named after: the api's own dependencies. */
export type Dependency = 'postgres' | 'temporal' | 'chain';

const UNAVAILABLE_MESSAGES: Record<Dependency, string> = {
  postgres: 'The service cannot reach its database right now; retry after the Retry-After delay.',
  temporal: 'The service cannot reach its workflow engine right now; retry after the Retry-After delay.',
  chain: 'The service cannot reach the chain node right now; retry after the Retry-After delay.',
};

/**
 * 503: a dependency (database, workflow engine, chain node) is unreachable or timed out. Nothing
 * the client sent is wrong; the same request may succeed after `Retry-After` seconds. A code of
 * ours: the spec lists none for this case (docs/decisions.md, "Outages answer 503").
 */
export class ServiceUnavailableError extends ApiError {
  readonly dependency: Dependency;
  constructor(dependency: Dependency, retryAfterSeconds: number) {
    super('service_unavailable', 503, UNAVAILABLE_MESSAGES[dependency], {
      headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    });
    this.dependency = dependency;
  }
}
