// Values for a JSON Schema (the OpenAPI document's, or a zod schema's), as fast-check arbitraries
// that lean two ways at once: values the schema accepts (so requests get past validation and into
// the handlers, the database and the projections), and the hostile ones real callers send — NUL
// and lone surrogates, year 0000 and +16:00 offsets, huge and fractional numbers, wrong types,
// extra properties, ids in upper case, ids of other people's things.
import fc from 'fast-check';

export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly items?: JsonSchema;
  readonly maxItems?: number;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly allOf?: readonly JsonSchema[];
  readonly $ref?: string;
  readonly default?: unknown;
}

/** What the fuzz knows of the system: real ids and codes, so requests reach real rows. */
export interface FuzzWorld {
  readonly uuids: readonly string[];
  /** Embed codes and invitation tokens: what pattern-shaped strings should sometimes be. */
  readonly embedCodes: readonly string[];
  readonly emails: readonly string[];
  /** The websites' own origins: where the widget's requests come from. */
  readonly origins: readonly string[];
  /** Resolves `#/components/schemas/X`. */
  readonly resolve: (ref: string) => JsonSchema | undefined;
}

/** Strings callers should never be able to turn into a 500. */
export const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDFFFy',
  '\uFEFF',
  '\u202E',
  '😀'.repeat(40),
  '=cmd|\' /C calc\'!A0',
  "'; DROP TABLE events; --",
  '../../etc/passwd',
  '%00',
  '%',
  '<script>alert(1)</script>',
  'a'.repeat(5000),
  '0000-01-01T00:00:00Z',
  '2026-11-24T10:00:00+16:00',
  '9999-12-31T23:59:59.999Z',
  '2026-02-30T00:00:00Z',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '{}',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
];

const hostileNumbers = [0, -1, -0.5, 0.5, 1e21, -1e21, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 31, 2 ** 53 + 2, 1e308];

/** Any JSON value, small: what a caller sends when it sends the wrong thing entirely. */
export const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 2 }).map((value) => value as unknown);

const typesOf = (schema: JsonSchema): readonly string[] => (schema.type === undefined ? [] : typeof schema.type === 'string' ? [schema.type] : schema.type);

/** A string: the schema's enum or format, text of its length, or a hostile one. */
function stringFor(schema: JsonSchema, world: FuzzWorld, valid: boolean): fc.Arbitrary<string> {
  /** In valid mode the hostile alternatives are left out. */
  const mix = (...options: Array<{ weight: number; arbitrary: fc.Arbitrary<string>; hostile?: boolean }>) =>
    fc.oneof(...options.filter((option) => !(valid && option.hostile)).map(({ weight, arbitrary }) => ({ weight, arbitrary })));
  const hostile = fc.constantFrom(...hostileStrings);
  const maxLength = Math.min(schema.maxLength ?? 80, 300);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  // Plain words and hostnames get past validation; any code point (astral, control) tests the rest.
  const text = mix(
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength, maxLength }) },
    { weight: 2, arbitrary: fc.domain().filter((domain) => domain.length <= maxLength) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }), hostile: true },
  );
  if (schema.enum) return mix({ weight: 8, arbitrary: fc.constantFrom(...(schema.enum.filter((v) => typeof v === 'string') as string[])) }, { weight: 1, arbitrary: hostile, hostile: true });
  switch (schema.format) {
    case 'uuid':
      return mix(
        { weight: 6, arbitrary: world.uuids.length > 0 ? fc.constantFrom(...world.uuids) : fc.uuid() },
        { weight: 2, arbitrary: (world.uuids.length > 0 ? fc.constantFrom(...world.uuids) : fc.uuid()).map((id) => id.toUpperCase()) },
        { weight: 2, arbitrary: fc.uuid(), hostile: true },
        { weight: 1, arbitrary: hostile, hostile: true },
      );
    case 'date-time':
      return mix(
        { weight: 4, arbitrary: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString()) },
        { weight: 2, arbitrary: hostile, hostile: true },
      );
    case 'date':
      return mix(
        { weight: 4, arbitrary: fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)) },
        { weight: 2, arbitrary: fc.constantFrom('0000-01-01', '2026-13-01', '2026-02-30', '99999-01-01', '2026-1-1'), hostile: true },
      );
    case 'email':
      return mix(
        { weight: 3, arbitrary: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,15}[a-z0-9]$/), fc.domain()).map(([local, domain]) => `${local}@${domain}`) },
        { weight: 1, arbitrary: fc.emailAddress(), hostile: true },
        { weight: 2, arbitrary: world.emails.length > 0 ? fc.constantFrom(...world.emails) : fc.domain().map((domain) => `someone@${domain}`) },
        { weight: 1, arbitrary: hostile, hostile: true },
      );
    case 'hostname':
      return mix({ weight: 4, arbitrary: fc.domain() }, { weight: 1, arbitrary: fc.webUrl() }, { weight: 1, arbitrary: hostile, hostile: true });
    case 'uri':
      return mix({ weight: 3, arbitrary: fc.webUrl() }, { weight: 1, arbitrary: fc.constantFrom('javascript:alert(1)', 'http://127.0.0.1:9/', 'data:text/html,x'), hostile: true }, { weight: 1, arbitrary: hostile, hostile: true });
    default:
      break;
  }
  if (schema.pattern !== undefined) {
    // A pattern is usually an identifier or a colour: strings it matches, the ones the system knows, then text.
    let matching: fc.Arbitrary<string> | null = null;
    try {
      matching = fc.stringMatching(new RegExp(schema.pattern)).filter((value) => value.length <= maxLength);
    } catch {
      matching = null;
    }
    return mix(
      ...(matching ? [{ weight: 4, arbitrary: matching }] : []),
      { weight: 2, arbitrary: world.embedCodes.length > 0 ? fc.constantFrom(...world.embedCodes) : text },
      { weight: 2, arbitrary: fc.constantFrom('#2563eb', '#0F766E', 'abc', 'A'.repeat(43), 'dGVzdA', '#zzzzzz'), hostile: !!matching },
      { weight: 2, arbitrary: text, hostile: !!matching },
      { weight: 1, arbitrary: hostile, hostile: true },
    );
  }
  return mix({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: world.embedCodes.length > 0 ? fc.constantFrom(...world.embedCodes) : text }, { weight: 2, arbitrary: hostile, hostile: true });
}

function numberFor(schema: JsonSchema, integer: boolean, valid: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 100_000);
  const lo = Math.max(Math.ceil(min), -1e9);
  const hi = Math.min(Math.floor(max), 1e9);
  const inRange = lo <= hi ? fc.integer({ min: lo, max: hi }) : fc.integer();
  if (valid) return inRange;
  return fc.oneof(
    { weight: 5, arbitrary: inRange },
    { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers, min - 1, max + 1) },
    ...(integer ? [] : [{ weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) }]),
  );
}

/**
 * Values for a schema; depth bounds recursion through nested objects and arrays. `valid`: only
 * values the schema means to accept (a whole request of them gets into the handlers); otherwise
 * any field may be hostile or of the wrong type.
 */
export function valueFor(schema: JsonSchema | undefined, world: FuzzWorld, depth = 0, valid = false): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return valid ? fc.constant(null) : anyJson;
  if (schema.$ref) return valueFor(world.resolve(schema.$ref), world, depth + 1, valid);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((alternative) => valueFor(alternative, world, depth + 1, valid)));
  if (schema.allOf && schema.allOf.length > 0) return valueFor(schema.allOf[0], world, depth + 1, valid);
  if (schema.const !== undefined) return valid ? fc.constant(schema.const) : fc.oneof({ weight: 5, arbitrary: fc.constant(schema.const) }, { weight: 1, arbitrary: anyJson });
  if (schema.enum) {
    return valid ? fc.constantFrom(...schema.enum) : fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...schema.enum) }, { weight: 1, arbitrary: fc.constantFrom(...hostileStrings) });
  }

  const types = typesOf(schema);
  const variants: fc.Arbitrary<unknown>[] = [];
  for (const type of types.length > 0 ? types : ['object']) {
    switch (type) {
      case 'string':
        variants.push(stringFor(schema, world, valid));
        break;
      case 'integer':
        variants.push(numberFor(schema, true, valid));
        break;
      case 'number':
        variants.push(numberFor(schema, false, valid));
        break;
      case 'boolean':
        variants.push(fc.boolean());
        break;
      case 'null':
        variants.push(fc.constant(null));
        break;
      case 'array':
        variants.push(fc.array(valueFor(schema.items, world, depth + 1, valid), { maxLength: Math.min(schema.maxItems ?? 6, 6) }));
        break;
      default:
        variants.push(objectFor(schema, world, depth, valid));
    }
  }
  if (valid) return fc.oneof(...variants);
  // Now and then the wrong type altogether.
  return fc.oneof({ weight: 12, arbitrary: fc.oneof(...variants) }, { weight: 1, arbitrary: anyJson });
}

/**
 * Where a string property's schema says less than its name (zod refinements do not reach the
 * OpenAPI document), the name tells what a valid value looks like.
 */
function hintedByName(name: string, schema: JsonSchema | undefined): JsonSchema | undefined {
  if (!schema || schema.format || schema.enum || typesOf(schema).join() !== 'string') return schema;
  if (/email/i.test(name)) return { ...schema, format: 'email' };
  if (/domain|host/i.test(name)) return { ...schema, format: 'hostname' };
  if (/url$/i.test(name)) return { ...schema, format: 'uri' };
  if (/colou?r$/i.test(name)) return { ...schema, pattern: '^#[0-9a-fA-F]{6}$' };
  if (/password/i.test(name)) return { ...schema, minLength: Math.max(schema.minLength ?? 0, 8), maxLength: Math.min(schema.maxLength ?? 64, 64) };
  return schema;
}

function objectFor(schema: JsonSchema, world: FuzzWorld, depth: number, valid: boolean): fc.Arbitrary<unknown> {
  const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [name, hintedByName(name, property)]));
  const names = Object.keys(properties);
  if (names.length === 0) return valid ? fc.constant({}) : fc.oneof(fc.constant({}), fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 4 }));
  const required = new Set(schema.required ?? []);
  const record = fc.record(
    Object.fromEntries(names.map((name) => [name, valueFor(properties[name], world, depth + 1, valid)])),
    // Mostly the required keys are there; sometimes anything may be missing.
    { requiredKeys: [] },
  );
  const complete = fc.record(Object.fromEntries(names.map((name) => [name, valueFor(properties[name], world, depth + 1, valid)])));
  const withRequired = fc.tuple(complete, record).map(([full, partial]) => {
    const value: Record<string, unknown> = { ...partial };
    for (const name of required) if (!(name in value)) value[name] = full[name];
    return value;
  });
  if (valid) return withRequired;
  return fc.oneof(
    { weight: 6, arbitrary: withRequired },
    { weight: 2, arbitrary: record },
    { weight: 1, arbitrary: fc.tuple(withRequired, fc.string({ maxLength: 12 }), anyJson).map(([value, key, extra]) => ({ ...value, [key]: extra })) },
  );
}
