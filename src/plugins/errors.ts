// Renders every failure in the spec's error envelope, with the request id,
// and hides the internals of unexpected errors. A dependency that cannot be
// reached (src/http/unavailable.ts) answers 503 service_unavailable with
// Retry-After, not 500: the client's retry is right, nothing it sent was wrong.
import fp from 'fastify-plugin';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  ApiError,
  InternalError,
  InvalidRequestError,
  MethodNotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
  type ValidationIssue,
} from '../errors.js';
import { unavailableDependency } from '../http/unavailable.js';
import { safeChainError } from '../chain/clients.js';
import { CURRENT_API_VERSION, VERSION_HEADER } from '../http/versions.js';
import { REQUEST_ID_HEADER } from './request-log.js';
import { createRouteMethods } from './method-not-allowed.js';

type ZodIssueLike = { instancePath?: string; message?: string; keyword?: string; params?: { errors?: unknown } };
type ZodBranchIssue = { path?: PropertyKey[]; message?: string };

/** `/lineItems/0/unitAmount` -> `lineItems.0.unitAmount`. */
function issuePath(issue: ZodIssueLike): string {
  return (issue.instancePath ?? '').split('/').filter(Boolean).join('.');
}

/**
 * A body no branch of a union accepts (a refund by session or by invoice) is one `invalid_union` issue at the
 * root. Its issues are those of the branch that came closest (the fewest issues), so the client is told the
 * field that is wrong (`metadata.ticket`), not only that the body is.
 */
function issuesOf(issue: ZodIssueLike): ValidationIssue[] {
  const branches = issue.keyword === 'invalid_union' ? issue.params?.errors : undefined;
  if (Array.isArray(branches) && branches.length > 0 && branches.every(Array.isArray)) {
    const closest = (branches as ZodBranchIssue[][]).reduce((best, branch) => (branch.length < best.length ? branch : best));
    const base = issuePath(issue);
    if (closest.length > 0)
      return closest.map((inner) => ({
        path: [base, ...(inner.path ?? []).map(String)].filter(Boolean).join('.'),
        message: inner.message ?? 'is invalid',
      }));
  }
  return [{ path: issuePath(issue), message: issue.message ?? 'is invalid' }];
}

function fromValidation(error: FastifyError & { validation?: ZodIssueLike[]; validationContext?: string }): InvalidRequestError {
  const context = error.validationContext;
  const issues: ValidationIssue[] = (error.validation ?? []).flatMap(issuesOf);
  const first = issues[0];
  const where = context === 'body' ? 'body' : context === 'querystring' ? 'query string' : context === 'params' ? 'path' : context;
  const message = first ? `Invalid ${where}: ${first.path || '(root)'} ${first.message}` : `Invalid ${where ?? 'request'}.`;
  return new InvalidRequestError(message, { param: first?.path || undefined, issues });
}

/** Maps Fastify's own client errors (bad JSON, wrong content type, too large) to invalid_request. */
function fromFastify(error: FastifyError): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new InvalidRequestError('The request body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new InvalidRequestError('Unsupported Content-Type; send application/json.', { param: 'Content-Type' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new InvalidRequestError('The request body is larger than the limit of the API.');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        if (error.statusCode === 404) return new NotFoundError();
        return new InvalidRequestError(error.message);
      }
      return undefined;
  }
}

/** The Retry-After of a 503 when the app is built without one (UNAVAILABLE_RETRY_AFTER_SECONDS). */
export const DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function toApiError(error: unknown, retryAfterSeconds = DEFAULT_UNAVAILABLE_RETRY_AFTER_SECONDS): ApiError {
  if (error instanceof ApiError) return error;
  const dependency = unavailableDependency(error);
  if (dependency) return new ServiceUnavailableError(dependency, retryAfterSeconds);
  const fastifyError = error as FastifyError & { validation?: ZodIssueLike[]; validationContext?: string };
  if (hasZodFastifySchemaValidationErrors(fastifyError) || fastifyError.validation) return fromValidation(fastifyError);
  return fromFastify(fastifyError) ?? new InternalError();
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError): FastifyReply {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply
    .code(error.statusCode)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        code: error.code,
        message: error.message,
        ...(error.param !== undefined ? { param: error.param } : {}),
        ...(error.details !== undefined ? { details: error.details } : {}),
        requestId: request.id,
      },
    });
}

/**
 * Fastify's `frameworkErrors`: failures of the router before any hook runs (a malformed percent-encoding,
 * a path parameter over the router's length limit), in the envelope instead of Fastify's own body.
 */
export function sendFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header(REQUEST_ID_HEADER, request.id).header(VERSION_HEADER, CURRENT_API_VERSION);
  const message = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is longer than the API accepts.' : 'The URL is not valid.';
  return sendError(
    request,
    reply,
    error.statusCode !== undefined && error.statusCode < 500 ? new InvalidRequestError(message) : new InternalError(),
  );
}

const errorsPlugin: FastifyPluginAsync<{ unavailableRetryAfterSeconds?: number }> = async (app, options) => {
  // Every route registered after this plugin (all of them) is recorded, so a known path asked with
  // another method answers 405 with `Allow` instead of 404.
  const routeMethods = createRouteMethods();
  app.addHook('onRoute', (route) => routeMethods.add(route.method, route.url));
  const methodNotAllowed = (request: FastifyRequest): MethodNotAllowedError | undefined => {
    const path = request.url.split('?')[0]!;
    const allowed = routeMethods.allowedFor(path);
    return allowed.length > 0 && !allowed.includes(request.method) ? new MethodNotAllowedError(request.method, path, allowed) : undefined;
  };

  app.setErrorHandler((error, request, reply) => {
    // A failure on the way to the not-found handler (a body method such as QUERY without a Content-Type):
    // the method is what is wrong.
    const wrongMethod = request.is404 ? methodNotAllowed(request) : undefined;
    if (wrongMethod) return sendError(request, reply, wrongMethod);
    const apiError = toApiError(error, options.unavailableRetryAfterSeconds);
    if (apiError instanceof ServiceUnavailableError) {
      request.log.warn({ err: safeChainError(error), dependency: apiError.dependency }, 'dependency unavailable; answered 503');
    } else if (apiError.statusCode >= 500) {
      request.log.error({ err: error }, 'unhandled error');
    }
    return sendError(request, reply, apiError);
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, methodNotAllowed(request) ?? new NotFoundError(`No route ${request.method} ${request.url.split('?')[0]}.`)),
  );
};

export default fp(errorsPlugin, { name: 'errors' });
