// The secret-scanning partner feed, in the shape of GitHub's secret scanning
// partner program: a signed JSON array of found tokens, answered per token.
import { z } from 'zod';

export const leakReportBody = z
  .array(
    z.object({
      token: z.string().min(1).max(512).describe('The string found in public.'),
      type: z.string().max(200).describe("The partner's name for the token pattern."),
      url: z.string().max(2048).describe('Where it was found.'),
      source: z.string().max(200).optional().describe('e.g. `content`, `commit`, `npm`.'),
    }),
  )
  .min(1)
  .max(1000);

export const leakReportResult = z
  .array(
    z.object({
      token_hash: z.string().describe('SHA-256 (hex) of the reported token; the token itself is never echoed.'),
      token_type: z.string(),
      label: z.enum(['true_positive', 'false_positive']).describe('`true_positive` when it is one of our secret keys.'),
      action: z
        .enum(['revoked_and_replaced', 'already_revoked', 'none'])
        .describe('What we did: revoked and replaced the key (owner emailed), nothing because it was revoked before, or nothing.'),
    }),
  )
  .meta({ id: 'LeakReportResult' });

export const signatureHeaders = z.object({
  'secret-scanning-key-identifier': z
    .string()
    .optional()
    .describe('Identifier of the partner key that signed the body (or `Github-Public-Key-Identifier`).'),
  'secret-scanning-signature': z
    .string()
    .optional()
    .describe('Base64 ECDSA P-256 / SHA-256 signature (DER) of the raw body (or `Github-Public-Key-Signature`).'),
});

export type LeakReport = z.infer<typeof leakReportBody>;
export type LeakReportResult = z.infer<typeof leakReportResult>;
