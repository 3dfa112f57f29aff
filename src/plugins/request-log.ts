// One structured log line per request: request id, method, route, status and
// duration. Headers, bodies and query strings are never logged, so no key,
// token or secret can reach a log line.
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';

export const REQUEST_ID_HEADER = 'request-id';

const requestLogPlugin: FastifyPluginAsync = async (app) => {
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        requestId: request.id,
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        durationMs: Math.round(reply.elapsedTime * 100) / 100,
        merchantId: request.principal?.merchantId,
      },
      'request completed',
    );
  });
};

export default fp(requestLogPlugin, { name: 'request-log' });
