// Renders the dashboard's API types (dashboard/src/api/generated/openapi.ts) from the OpenAPI document the app
// serves, with openapi-typescript (pinned in package.json). Shared by `npm run api:generate` and the freshness test
// (test/dashboard/api-types.unit.test.ts), so both render the same bytes. No network: the document is an object.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { buildOpenApiDocument } from './openapi-document.js';

/** The generated file, relative to the repository root. */
export const GENERATED_API_TYPES = 'dashboard/src/api/generated/openapi.ts';
export const REGENERATE_COMMAND = 'npm run api:generate';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const HEADER = [
  "// Generated from the API's OpenAPI document (GET /openapi.json, built from the zod schemas) by openapi-typescript.",
  `// Do not edit: change the API's schemas, then run \`${REGENERATE_COMMAND}\`. test/dashboard/api-types.unit.test.ts`,
  '// fails while this file differs from a fresh generation.',
  '',
].join('\n');

/** The file's content for a given OpenAPI document. */
export async function renderApiTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(document as unknown as OpenAPI3, { silent: true, alphabetize: false });
  return `${HEADER}\n${astToString(ast)}`;
}

/** The file's content for the app's document as it is now. */
export async function renderCurrentApiTypes(): Promise<string> {
  return renderApiTypes(await buildOpenApiDocument());
}

export function readGeneratedApiTypes(root = ROOT): string {
  return readFileSync(join(root, GENERATED_API_TYPES), 'utf8');
}

export function writeGeneratedApiTypes(content: string, root = ROOT): void {
  const path = join(root, GENERATED_API_TYPES);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
