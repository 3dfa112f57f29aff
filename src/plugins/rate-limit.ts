// Rate limits: per IP on every request (before authentication), and per API
// key or dashboard user once authenticated. Over either: 429 rate_limited
// with Retry-After. Counters are shared across api instances (src/rate-limits).
import fp from 'fastify-plugin';
import type { FastifyPluginAsync } from 'fastify';
import { RateLimitedError } from '../errors.js';
import type { RateLimiter } from '../rate-limits/service.js';

export type RateLimitOptions = { limiter: RateLimiter; perIpPerMinute: number; perKeyPerMinute: number };

const ipRateLimit: FastifyPluginAsync<RateLimitOptions> = async (app, { limiter, perIpPerMinute }) => {
  app.addHook('onRequest', async (request) => {
    const decision = limiter.hit(`ip:${request.ip}`, perIpPerMinute);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  });
};

const principalRateLimit: FastifyPluginAsync<RateLimitOptions> = async (app, { limiter, perKeyPerMinute }) => {
  app.addHook('onRequest', async (request) => {
    const principal = request.principal;
    if (!principal) return;
    const bucket = principal.type === 'api_key' ? `key:${principal.keyId}` : `dashboard:${principal.subject}`;
    const decision = limiter.hit(bucket, principal.rateLimitPerMinute ?? perKeyPerMinute);
    if (!decision.allowed) throw new RateLimitedError(decision.retryAfterSeconds);
  });
};

/** Register before the auth plugin. */
export const ipRateLimitPlugin = fp(ipRateLimit, { name: 'rate-limit-ip' });
/** Register after the auth plugin. */
export const principalRateLimitPlugin = fp(principalRateLimit, { name: 'rate-limit-principal', dependencies: ['auth'] });
