/**
 * fast-check arbitraries from the JSON Schemas of openapi.json: values that follow a schema (so requests get past
 * validation and reach the services), the same values with one place broken, and hostile bodies (wrong types, NUL
 * characters, lone surrogates, huge strings, numbers past int4/int8, deep nesting, text that is not JSON).
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: boolean | JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

/** Real values of the test's resources, so generated ids sometimes name something that exists. */
export interface KnownValues {
  uuids: string[];
  integers: number[];
}

/**
 * Fixed seed unless FUZZ_SEED is set; FUZZ_RUNS scales every fuzzer's number of runs. The suite's PostgreSQL pass
 * (TEST_PASS=postgres) runs half as many cases from the next seed (unless FUZZ_SEED or FUZZ_RUNS say otherwise, as
 * when reproducing a failure with the seed fast-check printed): every operation is still fuzzed on both databases, and
 * the two passes together try half as many inputs again as one pass did.
 */
const postgresPass = process.env.TEST_PASS === 'postgres';
export const fuzzSeed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20261125 + (postgresPass ? 1 : 0);
export function fuzzRuns(base: number): number {
  const runs = Number(process.env.FUZZ_RUNS);
  if (Number.isFinite(runs) && runs > 0) return Math.round(runs * (base / 25));
  return postgresPass ? Math.ceil(base / 2) : base;
}

const INT4_MAX = 2 ** 31 - 1;

/** Numbers a database column or a JavaScript number handles badly. */
export const nastyNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    INT4_MAX + 1,
    -(INT4_MAX + 2),
    INT4_MAX,
    2 ** 53,
    2 ** 53 + 2,
    2 ** 63,
    -(2 ** 63),
    2 ** 64,
    1e308,
    -1e308,
    5e-324,
    -0,
    0.1,
    -1,
    1.5,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Strings a database, a file name, a CSV or a log handles badly. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfffy',
    '\u202e\u0301',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '-1',
    '2147483648',
    '9223372036854775808',
    '00000000-0000-0000-0000-000000000000',
    '../../etc/passwd',
    "' OR 1=1 --",
    '=cmd|"/c calc"!A1',
    '<script>alert(1)</script>',
    '%00',
    '\r\n\r\n',
    '🧪🐭'.repeat(50),
  ),
  fc.constant('x'.repeat(70_000)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
);

/** Any JSON value of small size, hostile leaves included. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    nastyNumber,
    nastyString,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Some value of another type than the schema wants (or of no sensible type). */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  nastyNumber,
  nastyString,
  fc.constant([]),
  fc.constant({}),
  anyJson,
  fc.integer({ min: 1, max: 40 }).map((depth) => nest(depth * 50, 0)),
);

/** `depth` levels of arrays and objects around a leaf (JSON.stringify and JSON.parse both handle this depth). */
function nest(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

const idLike = (name: string) => /(^|_)(uuid|uuids|id|ids)$/.test(name);

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'null';
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return undefined;
}

function stringArbitrary(schema: JsonSchema, name: string, known: KnownValues): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 30, Math.max(minLength, 30));
  let base: fc.Arbitrary<string>;
  if (schema.format === 'uuid' || /uuid/.test(name)) base = fc.uuid();
  else if (schema.format === 'email' || /email/.test(name)) base = fc.emailAddress();
  else if (schema.format === 'date-time') {
    base = fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  } else if (schema.format === 'date') {
    base = fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  } else if (schema.pattern) {
    try {
      base = fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 1000));
    } catch {
      base = fc.string({ minLength, maxLength });
    }
  } else base = fc.string({ minLength, maxLength, unit: 'grapheme-composite' });
  if (known.uuids.length > 0 && (schema.format === 'uuid' || /uuid/.test(name))) {
    return fc.oneof({ arbitrary: fc.constantFrom(...known.uuids), weight: 3 }, { arbitrary: base, weight: 1 });
  }
  return base;
}

function numberArbitrary(schema: JsonSchema, integer: boolean, name: string, known: KnownValues): fc.Arbitrary<number> {
  const low = schema.minimum ?? schema.exclusiveMinimum ?? (integer ? -1000 : -1e6);
  const high = schema.maximum ?? schema.exclusiveMaximum ?? (integer ? 100_000 : 1e6);
  const base = integer
    ? fc.integer({ min: Math.ceil(Math.max(low, -(2 ** 31))), max: Math.floor(Math.min(high, INT4_MAX)) })
    : fc
        .double({ min: low, max: high, noNaN: true, noDefaultInfinity: true })
        .filter(
          (n) =>
            (schema.exclusiveMinimum === undefined || n > schema.exclusiveMinimum) &&
            (schema.exclusiveMaximum === undefined || n < schema.exclusiveMaximum),
        );
  if (integer && idLike(name) && known.integers.length > 0) {
    return fc.oneof({ arbitrary: fc.constantFrom(...known.integers), weight: 2 }, { arbitrary: base, weight: 1 });
  }
  return base;
}

/** Values that follow the schema (as far as its keywords go; strings follow patterns when fast-check can). */
export function validValue(
  schema: JsonSchema | boolean | undefined,
  known: KnownValues,
  name = '',
): fc.Arbitrary<unknown> {
  if (schema === false) return fc.constant(undefined);
  if (schema === true || schema === undefined) return anyJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, known, name)));
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], known, name);
  switch (typeOf(schema)) {
    case 'string':
      return stringArbitrary(schema, name, known);
    case 'integer':
      return numberArbitrary(schema, true, name, known);
    case 'number':
      return numberArbitrary(schema, false, name, known);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (schema.prefixItems) return fc.tuple(...schema.prefixItems.map((item) => validValue(item, known, name)));
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 4, 4));
      const itemName = name.endsWith('s') ? name.slice(0, -1) : name;
      return fc.array(validValue(schema.items as JsonSchema, known, itemName), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validValue(value, known, key)])),
        { requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
      );
      if (typeof schema.additionalProperties === 'object') {
        const extra = fc.dictionary(
          schema.propertyNames ? (validValue(schema.propertyNames, known) as fc.Arbitrary<string>) : fc.string(),
          validValue(schema.additionalProperties, known),
          { maxKeys: 3 },
        );
        return fc.tuple(record, extra).map(([fixed, more]) => ({ ...more, ...fixed }));
      }
      return record;
    }
    default:
      return anyJson;
  }
}

/** Every place (path of keys) inside a value, the value itself included. */
function places(value: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) places(item, [...at, i], out);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) places(item, [...at, key], out);
  }
  return out;
}

type Mutation = 'replace' | 'delete' | 'extra';

/** The value with one place replaced by a wrong value, deleted, or given an unexpected sibling field. */
function mutate(value: unknown, pick: number, how: Mutation, replacement: unknown, extraKey: string): unknown {
  const copy = structuredClone(value);
  const all = places(copy);
  const at = all[pick % all.length]!;
  if (at.length === 0) return how === 'replace' ? replacement : copy;
  type Node = Record<string | number, unknown>;
  const parent = at.slice(0, -1).reduce<Node>((node, key) => node[key] as Node, copy as Node);
  const key = at[at.length - 1]!;
  if (how === 'replace') parent[key] = replacement;
  else if (how === 'delete') {
    if (Array.isArray(parent)) parent.splice(Number(key), 1);
    else delete parent[key];
  } else if (Array.isArray(parent)) parent.push(replacement);
  else parent[extraKey] = replacement;
  return copy;
}

/** Request bodies that are not JSON, or JSON no parser should be asked to walk. */
const rawBodies: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'null',
    '{',
    '{"a":',
    '[1,2',
    'not json',
    '\u0000',
    '{"a":1}garbage',
    '1e999',
    '-',
    '"\u0000"',
  ),
  fc.constantFrom('\ufeff{}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"x":1}}}'),
  fc.integer({ min: 1_000, max: 200_000 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1_000, max: 100_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

export interface FuzzBody {
  /** What kind of body this is, for the failure message. */
  kind: 'valid' | 'mutated' | 'hostile' | 'raw';
  payload: string;
}

/** Bodies for an operation whose JSON body has this schema. */
export function bodyArbitrary(schema: JsonSchema, known: KnownValues): fc.Arbitrary<FuzzBody> {
  const valid = validValue(schema, known);
  const mutated = fc
    .tuple(
      valid,
      fc.nat(),
      fc.constantFrom<Mutation>('replace', 'replace', 'delete', 'extra'),
      wrongValue,
      fc.oneof(fc.constantFrom('extra', 'id', 'project_uuid', 'owner', 'role', 'status'), fc.string({ maxLength: 10 })),
    )
    .map(([value, pick, how, replacement, extraKey]) => mutate(value, pick, how, replacement, extraKey));
  const asJson = (kind: FuzzBody['kind']) => (value: unknown) => ({ kind, payload: JSON.stringify(value) ?? 'null' });
  return fc.oneof(
    { arbitrary: valid.map(asJson('valid')), weight: 3 },
    { arbitrary: mutated.map(asJson('mutated')), weight: 4 },
    { arbitrary: wrongValue.map(asJson('hostile')), weight: 1 },
    { arbitrary: rawBodies.map((payload) => ({ kind: 'raw' as const, payload })), weight: 1 },
  );
}
