// Chooses the API version of each request: the `Service-Version` header, else
// the merchant's pinned version, else the current one. Every response names
// the version that served it, refusals before authentication (401, 403, 429)
// included: the requested version is taken before anything can refuse the
// request, and the merchant's pin once the caller is known.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../errors.js';
import { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS, VERSION_HEADER } from '../http/versions.js';

export type VersioningOptions = { supported?: readonly string[] };

function requestedVersion(request: FastifyRequest): string | undefined {
  const header = request.headers[VERSION_HEADER];
  return (Array.isArray(header) ? header[0] : header)?.trim();
}

/** Names a version on every response from the first hook on: the requested one when it is served, else the current one. */
const requestedVersionPlugin: FastifyPluginAsync<VersioningOptions> = async (app, options) => {
  const supported = options.supported ?? SUPPORTED_API_VERSIONS;
  app.decorateRequest('apiVersion', CURRENT_API_VERSION);

  app.addHook('onRequest', async (request, reply) => {
    const requested = requestedVersion(request);
    if (requested !== undefined && supported.includes(requested)) request.apiVersion = requested;
    reply.header(VERSION_HEADER, request.apiVersion);
  });
};

/** Refuses an unknown version and applies the merchant's pin once the caller is authenticated. */
const versioningPlugin: FastifyPluginAsync<VersioningOptions> = async (app, options) => {
  const supported = options.supported ?? SUPPORTED_API_VERSIONS;

  app.addHook('onRequest', async (request, reply) => {
    const requested = requestedVersion(request);
    if (requested !== undefined && !supported.includes(requested)) {
      throw new InvalidRequestError(`Unknown API version "${requested}". Supported versions: ${supported.join(', ')}.`, {
        param: 'Service-Version',
      });
    }
    request.apiVersion = requested ?? request.principal?.pinnedApiVersion ?? CURRENT_API_VERSION;
    reply.header(VERSION_HEADER, request.apiVersion);
  });
};

/** Register first, before the rate limits and authentication. */
export const requestedVersionHeaderPlugin = fp(requestedVersionPlugin, { name: 'versioning-requested' });
/** Register after the auth plugin. */
export default fp(versioningPlugin, { name: 'versioning', dependencies: ['auth', 'versioning-requested'] });
