// The secret-scanning partner endpoint. It is public (no bearer token): the
// caller is authenticated by the ECDSA signature of the raw body instead, so
// this route runs in its own context whose JSON parser keeps the raw bytes.
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FastifyZodInstance } from '../http/types.js';
import type { ServiceOn } from '../db/client.js';
import { access } from '../http/access.js';
import { AuthenticationError } from '../errors.js';
import { leakReportBody, leakReportResult, signatureHeaders } from './schemas.js';
import type { LeakedKeyService } from './service.js';
import type { SignatureVerifier } from './signature.js';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: Buffer;
  }
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function registerSecretScanningRoutes(
  app: FastifyZodInstance,
  leaks: ServiceOn<LeakedKeyService>,
  verifySignature: SignatureVerifier,
): void {
  void app.register(async (scoped) => {
    scoped.removeContentTypeParser('application/json');
    scoped.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
      const raw = body as Buffer;
      request.rawBody = raw;
      try {
        done(null, JSON.parse(raw.toString('utf8')));
      } catch {
        done(Object.assign(new Error('Invalid JSON body'), { statusCode: 400, code: 'FST_ERR_CTP_INVALID_JSON_BODY' }), undefined);
      }
    });

    // The signature is checked before the body is validated: an unsigned caller learns nothing.
    scoped.addHook('preValidation', async (request) => {
      const keyIdentifier =
        header(request.headers['secret-scanning-key-identifier']) ?? header(request.headers['github-public-key-identifier']);
      const signature = header(request.headers['secret-scanning-signature']) ?? header(request.headers['github-public-key-signature']);
      if (!request.rawBody || !verifySignature(request.rawBody, keyIdentifier, signature)) {
        throw new AuthenticationError('The secret-scanning report signature is missing or invalid.');
      }
    });

    scoped.withTypeProvider<ZodTypeProvider>().route({
      method: 'POST',
      url: '/v1/secret-scanning/reports',
      config: { access: access.public() },
      schema: {
        tags: ['Secret scanning'],
        summary: 'Report leaked tokens (secret-scanning partner feed)',
        description:
          'For partners only, authenticated by an ECDSA P-256/SHA-256 signature of the raw body (base64 DER) in ' +
          "`Secret-Scanning-Signature` with the signing key named in `Secret-Scanning-Key-Identifier` (GitHub's " +
          '`Github-Public-Key-*` headers are accepted too). A missing or bad signature is 401 authentication_error. ' +
          'Each active secret key reported is revoked and replaced at once and its owner emailed.',
        headers: signatureHeaders,
        body: leakReportBody,
        response: { 200: leakReportResult },
      },
      handler: (request) => leaks(request.db).report(request.body),
    });
  });
}
