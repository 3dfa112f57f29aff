// The hosted refund-claim page (public: the link's token is the capability): GET shows the refund
// and a form, the form POSTs the address back to the same URL as a plain urlencoded form. Hidden from
// /openapi.json, like the other hosted pages; the refund object links it as `claimUrl`.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { access } from '../http/access.js';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { CLAIM_TOKEN_PATTERN } from './claim.js';
import { CLAIM_PAGE_HEADERS, claimNotFoundPage, renderClaimPage } from './claim-page.js';
import type { RefundService } from './service.js';

const claimParams = z.object({ token: z.string().max(100) });
const claimForm = z.object({ address: z.string().max(200).optional() }).loose();

export async function registerRefundClaimRoutes(app: FastifyZodInstance, refunds: ServiceOn<RefundService>): Promise<void> {
  // Only this page takes a urlencoded form: parsed here, in its own scope, so no other route accepts one.
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    scope.route({
      method: 'GET',
      url: '/refund-claims/:token',
      config: { access: access.public() },
      schema: { hide: true, tags: ['Refunds'], summary: 'The hosted refund-claim page', params: claimParams },
      handler: async (request, reply) => {
        const view = CLAIM_TOKEN_PATTERN.test(request.params.token) ? await refunds(request.db).claimView(request.params.token) : undefined;
        reply.headers(CLAIM_PAGE_HEADERS).type('text/html; charset=utf-8');
        if (!view) return reply.code(404).send(claimNotFoundPage());
        return reply.send(renderClaimPage(view));
      },
    });

    scope.route({
      method: 'POST',
      url: '/refund-claims/:token',
      config: { access: access.public() },
      schema: {
        hide: true,
        tags: ['Refunds'],
        summary: 'Give the refund address on the hosted refund-claim page',
        params: claimParams,
        body: claimForm,
      },
      handler: async (request, reply) => {
        const token = request.params.token;
        reply.headers(CLAIM_PAGE_HEADERS).type('text/html; charset=utf-8');
        if (!CLAIM_TOKEN_PATTERN.test(token)) return reply.code(404).send(claimNotFoundPage());
        const address = request.body.address ?? '';
        const outcome = await refunds(request.db).claim(token, address);
        if (outcome.kind === 'not_found') return reply.code(404).send(claimNotFoundPage());
        const view = (await refunds(request.db).claimView(token))!;
        if (outcome.kind === 'invalid') return reply.code(400).send(renderClaimPage(view, { error: outcome.message, address }));
        // Claimed now or before: the page says where the refund goes; a second claim changed nothing.
        return reply.code(outcome.kind === 'claimed' ? 200 : 409).send(renderClaimPage(view));
      },
    });
  });
}
