// Response serialization from the route's zod schema. The schema is turned
// into JSON Schema once per route and compiled with fast-json-stringify, which
// writes only the declared fields (so nothing undeclared ever leaks) without
// re-validating every response with zod on the hot path.
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

export function responseSerializerCompiler({ schema }: { schema: unknown }): (data: unknown) => string {
  if (!(schema instanceof z.ZodType)) return (data) => JSON.stringify(data);
  const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
  return fastJson(jsonSchema as Parameters<typeof fastJson>[0]) as (data: unknown) => string;
}
