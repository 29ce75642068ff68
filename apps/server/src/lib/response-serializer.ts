/**
 * Responses are written by fast-json-stringify, compiled from each route's zod response schema (its JSON Schema, as
 * the OpenAPI document shows it): on a list of 50 subjects, checking the page with zod and then JSON.stringify took
 * about twice as long as this compiled writer. A schema that has no JSON Schema form (a transform, a custom check)
 * keeps fastify-type-provider-zod's serializer, which checks the value with zod and throws on a mismatch.
 */

import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const schema = route.schema;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route as never);
  try {
    const jsonSchema = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  } catch {
    return zodSerializerCompiler(route as never);
  }
};
