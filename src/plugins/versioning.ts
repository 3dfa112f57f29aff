// Chooses the API version of each request: the `Service-Version` header, else
// the merchant's pinned version, else the current one. The response names the
// version that served it.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { InvalidRequestError } from '../errors.js';
import { CURRENT_API_VERSION, SUPPORTED_API_VERSIONS, VERSION_HEADER } from '../http/versions.js';

export type VersioningOptions = { supported?: readonly string[] };

const versioningPlugin: FastifyPluginAsync<VersioningOptions> = async (app, options) => {
  const supported = options.supported ?? SUPPORTED_API_VERSIONS;

  app.decorateRequest('apiVersion', CURRENT_API_VERSION);

  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers[VERSION_HEADER];
    const requested = Array.isArray(header) ? header[0] : header;
    if (requested !== undefined && !supported.includes(requested.trim())) {
      throw new InvalidRequestError(
        `Unknown API version "${requested}". Supported versions: ${supported.join(', ')}.`,
        { param: 'Service-Version' },
      );
    }
    request.apiVersion = requested?.trim() ?? request.principal?.pinnedApiVersion ?? CURRENT_API_VERSION;
    reply.header(VERSION_HEADER, request.apiVersion);
  });
};

export default fp(versioningPlugin, { name: 'versioning', dependencies: ['auth'] });
