/**
 * Regenerates the dashboard's API types (dashboard/src/api/generated/openapi.ts) from the OpenAPI document the
 * app builds from its zod schemas, in-process (no database, Temporal or server needed): `npm run api:generate`.
 *   npm run api:generate              write the generated file
 *   npm run api:generate -- --check   exit 1 when the generated file is stale
 */
import {
  GENERATED_API_TYPES,
  readGeneratedApiTypes,
  renderCurrentApiTypes,
  writeGeneratedApiTypes,
  REGENERATE_COMMAND,
} from '../tools/api-types/render.js';

const fresh = await renderCurrentApiTypes();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readGeneratedApiTypes();
  } catch {
    // A missing file is stale too.
  }
  if (current !== fresh) {
    console.error(`${GENERATED_API_TYPES} is out of date: run \`${REGENERATE_COMMAND}\``);
    process.exit(1);
  }
  console.log(`${GENERATED_API_TYPES} is up to date`);
} else {
  writeGeneratedApiTypes(fresh);
  console.log(`wrote ${GENERATED_API_TYPES}`);
}
