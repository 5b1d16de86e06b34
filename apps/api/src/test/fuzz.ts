import fc from 'fast-check';

/*
 * Requests generated from the api's OpenAPI document for the fuzz test: hostile values, and values that
 * fit each operation's schema, built by fast-check so a failure shrinks to the smallest request.
 */

export interface JsonSchema {
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  nullable?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body: JsonSchema | null;
}

/* ---------------------------------------------------------------- hostile values */

const MEGABYTE = 1024 * 1024;
export const hostileText = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'ab\u0000cd',
    '\u0000',
    '\ud800',
    'x\udfffy',
    '\udc00\ud800',
    'invoice\u202egpj.exe',
    '\u202d\u2066\u2069',
    '😀👩🏽‍🎓🇷🇼',
    'Élodie Ñandú İstanbul',
    '\r\nX-Injected: 1',
    '../../../etc/passwd',
    '%00%ff',
    "'; select pg_sleep(5); --",
    '\\',
    '%_\\%',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '9007199254740993',
    '-1',
    '0x1F',
    'null',
    'true',
    '{}',
    '[]',
    '2024-02-30',
    '0000-00-00',
    '99999-12-31',
    '2024-01-01T25:61:00Z',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
  fc.constant('x'.repeat(MEGABYTE)),
  fc.constant('é'.repeat(70_000)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Any UTF-16 unit, so lone surrogates in the middle of text.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 40 }),
);

export const edgeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    -0.5,
    1e-7,
    2 ** 15,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    -(2 ** 53),
    2 ** 63,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

export const deepJsonText = fc.constantFrom(
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{',
  '',
  'null',
  '[]',
  '"\\u0000"',
  '{"a":"\\ud800"}',
);

function deepValue(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { nested: value };
  return value;
}

/** A value of any type: what a client sends when it ignores the schema. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  edgeNumber,
  hostileText,
  fc.constant([]),
  fc.constant({}),
  fc.constant(deepValue(500)),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(hostileText, hostileText, { maxKeys: 3 }),
);

/* ---------------------------------------------------------------- values from the schema */

export interface IdPool {
  /** Real ids of the caller's own records, by the parameter names that take them. */
  byName: Map<string, string[]>;
}

/*
 * Two kinds of request: hostile ones, where any value may be of any type and any text hostile, and
 * fitting ones, where the request matches its schema (real ids of the caller's own records, numbers in
 * range) except for the odd hostile text, so it gets past validation to the service and the database.
 */
type Mode = 'hostile' | 'fitting';

interface Context {
  ids: IdPool;
  mode: Mode;
}

function stringPattern(pattern: string): fc.Arbitrary<string> | null {
  try {
    return fc.stringMatching(new RegExp(pattern));
  } catch {
    return null;
  }
}

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

function valueFor(schema: JsonSchema, context: Context, name: string, depth = 0): fc.Arbitrary<unknown> {
  const fitting = fittingValue(schema, context, name, depth);
  if (context.mode === 'fitting') return fitting;
  return fc.oneof({ arbitrary: fitting, weight: 5 }, { arbitrary: anyValue, weight: 1 });
}

function fittingValue(schema: JsonSchema, context: Context, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return anyValue;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((part) => fittingValue(part, context, name, depth + 1)));
  }
  if (schema.allOf && schema.allOf.length > 0) {
    const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
    for (const part of schema.allOf) {
      Object.assign(merged.properties!, part.properties ?? {});
      merged.required!.push(...(part.required ?? []));
    }
    return fittingValue(merged, context, name, depth + 1);
  }
  const nullable = schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
  const value = typedValue(schema, context, name, depth);
  return nullable ? fc.oneof({ arbitrary: value, weight: 3 }, { arbitrary: fc.constant(null), weight: 1 }) : value;
}

function typedValue(schema: JsonSchema, context: Context, name: string, depth: number): fc.Arbitrary<unknown> {
  const fitting = context.mode === 'fitting';
  switch (typeOf(schema)) {
    case 'string':
      return stringValue(schema, context, name);
    case 'integer': {
      const min = Math.max(schema.minimum ?? -(2 ** 31), Number.MIN_SAFE_INTEGER);
      const max = Math.min(schema.maximum ?? 2 ** 31, Number.MAX_SAFE_INTEGER);
      const inRange = fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
      return fitting ? inRange : fc.oneof(inRange, edgeNumber);
    }
    case 'number': {
      const min = schema.minimum ?? -1e308;
      const max = schema.maximum ?? 1e308;
      const inRange = fc.oneof(
        fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(min, max),
      );
      return fitting ? inRange : fc.oneof(inRange, edgeNumber);
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, context, name, depth + 1), { maxLength: 4 });
    case 'object':
      return objectValue(schema, context, depth);
    default:
      return anyValue;
  }
}

/** Text a person might really type: accents, emoji, right-to-left marks, as long as the field allows. */
function typedText(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 80, 4000));
  const fit = (text: string) => text.padEnd(min, 'a').slice(0, max);
  return fc.oneof(
    fc.string({ minLength: min, maxLength: Math.min(max, 80) }),
    fc.constantFrom('Élodie Uwase', 'Kigali', '😀👩🏽‍🎓', 'مرحبا\u202ebad', '+250788123456', 'a'.repeat(max)).map(fit),
  );
}

function stringValue(schema: JsonSchema, context: Context, name: string): fc.Arbitrary<string> {
  const own = context.ids.byName.get(name) ?? [];
  const choices: Array<{ arbitrary: fc.Arbitrary<string>; weight: number }> = [];
  const add = (arbitrary: fc.Arbitrary<string>, weight = 2) => choices.push({ arbitrary, weight });
  add(hostileText, context.mode === 'fitting' ? 1 : 3);
  if (own.length > 0) add(fc.constantFrom(...own), 6);
  if (schema.format === 'uuid') add(fc.uuid());
  else if (schema.format === 'date')
    add(
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-12-31') })
        .map((date) => date.toISOString().slice(0, 10)),
    );
  else if (schema.format === 'date-time')
    add(
      fc
        .date({ noInvalidDate: true, min: new Date('1900-01-01'), max: new Date('2100-12-31') })
        .map((date) => date.toISOString()),
    );
  else if (schema.format === 'email' || /email/i.test(name)) {
    add(fc.emailAddress());
    add(fc.stringMatching(/^[a-z]{2,12}(\+[a-z0-9]{1,6})?@[a-z]{3,10}\.example$/), 4);
  } else if (schema.pattern) {
    const matching = stringPattern(schema.pattern);
    if (matching) add(matching, 4);
  } else add(typedText(schema), 4);
  return fc.oneof(...choices);
}

function objectValue(schema: JsonSchema, context: Context, depth: number): fc.Arbitrary<unknown> {
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const shape = Object.fromEntries(properties.map(([key, part]) => [key, valueFor(part, context, key, depth + 1)]));
  const record = fc.record(shape, { requiredKeys: properties.map(([key]) => key).filter((key) => required.has(key)) });
  if (context.mode === 'fitting') return record;
  // Sometimes a required field is missing, sometimes there are fields nobody asked for.
  return fc
    .tuple(
      record,
      fc.dictionary(hostileText, anyValue, { maxKeys: 2 }),
      fc.option(fc.constantFrom(...(properties.length > 0 ? properties.map(([key]) => key) : ['none']))),
    )
    .map(([value, extra, drop]) => {
      const result: Record<string, unknown> = { ...(value as object) };
      for (const [key, item] of Object.entries(extra)) if (!(key in result)) result[key] = item;
      if (drop !== null) delete result[drop];
      return result;
    });
}

/* ---------------------------------------------------------------- requests */

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

export function requestFor(operation: Operation, ids: IdPool): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(requestOf(operation, { ids, mode: 'hostile' }), requestOf(operation, { ids, mode: 'fitting' }));
}

function requestOf(operation: Operation, context: Context): fc.Arbitrary<FuzzRequest> {
  const hostile = context.mode === 'hostile';
  const path = operation.parameters.filter((parameter) => parameter.in === 'path');
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const headers = operation.parameters.filter((parameter) => parameter.in === 'header');
  const optional = (parameter: Parameter, freq: number) =>
    parameter.required && !hostile
      ? valueFor(parameter.schema, context, parameter.name)
      : fc.option(valueFor(parameter.schema, context, parameter.name), { freq });
  const pathValues = fc.tuple(...path.map((parameter) => valueFor(parameter.schema, context, parameter.name)));
  const queryValues = fc.tuple(...query.map((parameter) => optional(parameter, hostile ? 2 : 3)));
  const headerValues = fc.tuple(...headers.map((parameter) => optional(parameter, 3)));
  const json = operation.body
    ? valueFor(operation.body, context, 'body').map((value) => JSON.stringify(value) ?? 'null')
    : fc.constant(undefined);
  const body: fc.Arbitrary<string | undefined> = hostile
    ? fc.oneof({ arbitrary: json, weight: 4 }, { arbitrary: deepJsonText, weight: 1 })
    : json;

  return fc.tuple(pathValues, queryValues, headerValues, body).map(([pathParts, queryParts, headerParts, payload]) => {
    let url = operation.path;
    path.forEach((parameter, index) => {
      // A URL carries UTF-8: a lone surrogate cannot be sent in one (URLSearchParams replaces it the same way).
      const text = textOf(pathParts[index])
        .slice(0, 200)
        .replace(/\p{Cs}/gu, '\ufffd');
      url = url.replace(`{${parameter.name}}`, encodeURIComponent(text) || 'x');
    });
    const search = new URLSearchParams();
    query.forEach((parameter, index) => {
      const value = queryParts[index];
      if (value !== null && value !== undefined) search.append(parameter.name, textOf(value));
    });
    const requestHeaders: Record<string, string> = {};
    headers.forEach((parameter, index) => {
      const value = headerParts[index];
      if (value !== null && value !== undefined) requestHeaders[parameter.name] = textOf(value);
    });
    if (payload !== undefined) requestHeaders['content-type'] = 'application/json';
    const queryString = search.toString();
    return {
      method: operation.method,
      url: queryString ? `${url}?${queryString}` : url,
      headers: requestHeaders,
      ...(payload !== undefined ? { payload } : {}),
    };
  });
}

/** A request as printed on failure: long text cut, so a megabyte of input does not bury the report. */
export function summary(request: FuzzRequest): string {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
  return JSON.stringify({ ...request, url: cut(request.url), payload: request.payload && cut(request.payload) });
}
