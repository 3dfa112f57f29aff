// Probes for orchestrators, outside the public API (no credentials, no scope,
// not in the OpenAPI document, like /openapi.json): /healthz says the process
// is alive and serving HTTP (restart it when this fails); /readyz says whether
// it can serve requests now, per dependency (send it no traffic while 503; a
// chain that is down answers 200 `degraded`, naming it: src/health/readiness.ts).
import { z } from 'zod';
import { access } from '../http/access.js';
import type { FastifyZodInstance } from '../http/types.js';
import type { ReadinessService } from './readiness.js';

const check = z.object({ status: z.enum(['up', 'down']), latencyMs: z.number(), error: z.string().optional() });
const chainCheck = check.extend({
  mode: z.enum(['test', 'live']),
  chainId: z.number(),
  head: z.string().optional(),
  indexedBlock: z.string().optional(),
});
const readiness = z.object({
  status: z.enum(['ready', 'degraded', 'unavailable']),
  checks: z.record(z.string(), check),
  chains: z.array(chainCheck),
  degraded: z.array(z.string()).optional(),
});

export function registerHealthRoutes(app: FastifyZodInstance, readinessService: ReadinessService, retryAfterSeconds: number): void {
  app.route({
    method: 'GET',
    url: '/healthz',
    config: { access: access.public() },
    schema: { hide: true, response: { 200: z.object({ status: z.literal('ok') }) } },
    // Liveness only: a dependency outage must not get a healthy process restarted.
    handler: async () => ({ status: 'ok' as const }),
  });

  app.route({
    method: 'GET',
    url: '/readyz',
    config: { access: access.public() },
    schema: { hide: true, response: { 200: readiness, 503: readiness } },
    handler: async (_request, reply) => {
      const report = await readinessService.check();
      if (report.status !== 'unavailable') return report;
      return reply.code(503).header('retry-after', String(retryAfterSeconds)).send(report);
    },
  });
}
