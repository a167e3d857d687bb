/**
 * JSON Schema (2020-12, what OpenAPI 3.1 uses) from the shared yup schemas the routes validate
 * with, so the document states the same fields, limits and choices as the validation: types,
 * required fields, min/max, integer, email, patterns, enumerations and defaults. Custom `.test()`
 * rules have no JSON Schema form; the pt-BR message of the 400 answer tells the client.
 */
import type { Schema } from 'yup';

export type JsonSchema = { [key: string]: unknown };

interface YupTest {
  name?: string;
  params?: Record<string, unknown>;
}

interface YupDescription {
  type: string;
  optional?: boolean;
  nullable?: boolean;
  default?: unknown;
  oneOf?: unknown[];
  tests?: YupTest[];
  fields?: Record<string, YupDescription>;
  innerType?: YupDescription;
  label?: string;
}

export function isYupSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && '__isYupSchema__' in value;
}

const JSON_TYPES: Record<string, string> = { string: 'string', number: 'number', boolean: 'boolean', object: 'object', array: 'array', date: 'string' };

function convert(d: YupDescription): JsonSchema {
  const schema: JsonSchema = {};
  const base = JSON_TYPES[d.type];
  const integer = d.tests?.some((t) => t.name === 'integer');
  const type = base === 'number' && integer ? 'integer' : base;
  if (type) schema.type = d.nullable ? [type, 'null'] : type;
  if (d.type === 'date') schema.format = 'date-time';
  for (const t of d.tests ?? []) {
    const p = t.params ?? {};
    if (d.type === 'string') {
      if (t.name === 'min' || (t.name === 'length' && typeof p.length === 'number')) schema.minLength = p.min ?? p.length;
      if (t.name === 'max' || (t.name === 'length' && typeof p.length === 'number')) schema.maxLength = p.max ?? p.length;
      if (t.name === 'email') schema.format = 'email';
      if (t.name === 'url') schema.format = 'uri';
      if (t.name === 'uuid') schema.format = 'uuid';
      if (t.name === 'matches' && p.regex instanceof RegExp && p.regex.flags === '') schema.pattern = p.regex.source;
    } else if (d.type === 'number') {
      if (t.name === 'min') schema.minimum = p.min;
      if (t.name === 'max') schema.maximum = p.max;
      if (t.name === 'min' && typeof p.more === 'number') schema.exclusiveMinimum = p.more;
      if (t.name === 'max' && typeof p.less === 'number') schema.exclusiveMaximum = p.less;
    } else if (d.type === 'array') {
      if (t.name === 'min') schema.minItems = p.min;
      if (t.name === 'max') schema.maxItems = p.max;
    }
  }
  // `oneOf` of a yup schema lists the accepted values (refs to other fields are left out).
  const values = (d.oneOf ?? []).filter((v) => v !== undefined && !(typeof v === 'object' && v !== null));
  if (values.length > 0) schema.enum = d.nullable && !values.includes(null) ? [...values, null] : values;
  if (d.default !== undefined && typeof d.default !== 'function' && d.type !== 'object') schema.default = d.default;
  if (d.type === 'object' && d.fields) {
    schema.properties = Object.fromEntries(Object.entries(d.fields).map(([k, v]) => [k, convert(v)]));
    const required = Object.entries(d.fields).filter(([, v]) => v.optional === false).map(([k]) => k);
    if (required.length > 0) schema.required = required;
  }
  if (d.type === 'array' && d.innerType) schema.items = convert(d.innerType);
  if (d.label) schema.title = d.label;
  return schema;
}

/** The JSON Schema of a yup schema (as it validates an input with no context). */
export function jsonSchemaOf(schema: Schema): JsonSchema {
  return convert(schema.describe() as unknown as YupDescription);
}

/** An object schema's properties as OpenAPI query parameters. */
export function queryParametersOf(schema: Schema | JsonSchema): JsonSchema[] {
  const json = isYupSchema(schema) ? jsonSchemaOf(schema) : schema;
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}
