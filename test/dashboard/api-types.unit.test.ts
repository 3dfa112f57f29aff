// dashboard/src/api/generated/openapi.ts is exactly what openapi-typescript renders from the OpenAPI document the
// app builds now (in-process, from its zod schemas): a schema change that is not regenerated fails here, so the
// dashboard's types (dashboard/src/types.ts derives from this file) never drift from the API. When this fails,
// run `npm run api:generate`.
import { describe, expect, it } from 'vitest';
import { GENERATED_API_TYPES, REGENERATE_COMMAND, readGeneratedApiTypes, renderCurrentApiTypes } from '../../tools/api-types/render.js';

describe(GENERATED_API_TYPES, () => {
  it(`matches a fresh generation byte for byte (run \`${REGENERATE_COMMAND}\` when this fails)`, async () => {
    const fresh = await renderCurrentApiTypes();
    // A failure names the command rather than dumping ten thousand lines of diff first.
    expect(readGeneratedApiTypes() === fresh, `${GENERATED_API_TYPES} is stale: run \`${REGENERATE_COMMAND}\``).toBe(true);
  }, 60_000);
});
