/**
 * A small JSON Schema (the subset zod's toJSONSchema emits for the contracts) → fast-check
 * arbitrary of *valid-looking* values, plus the questions the mutators ask of a schema (which JSON
 * types does it accept? which locations of a value does it describe?).
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
}

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

const INT_LIMIT = 1_000_000;

function clampInt(v: number | undefined, fallback: number): number {
  if (v === undefined || !Number.isFinite(v)) return fallback;
  return Math.max(-INT_LIMIT, Math.min(INT_LIMIT, Math.trunc(v)));
}

function typeOfValue(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v as JsonType;
}

/** The JSON types a schema accepts, or 'any' when it does not constrain the type. */
export function acceptedTypes(s: JsonSchema): Set<JsonType> | 'any' {
  const out = new Set<JsonType>();
  if (s.enum) {
    for (const v of s.enum) out.add(typeOfValue(v));
  } else if (s.const !== undefined) {
    out.add(typeOfValue(s.const));
  } else if (s.anyOf || s.oneOf) {
    for (const sub of s.anyOf ?? s.oneOf ?? []) {
      const t = acceptedTypes(sub);
      if (t === 'any') return 'any';
      for (const x of t) out.add(x);
    }
  } else if (s.type) {
    for (const t of Array.isArray(s.type) ? s.type : [s.type]) out.add(t as JsonType);
  } else {
    return 'any';
  }
  if (out.has('number')) out.add('integer');
  if (s.nullable) out.add('null');
  return out;
}

const DATE = fc
  .record({ y: fc.integer({ min: 1930, max: 2010 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 28 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const MONEY = fc.integer({ min: 1, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));

function stringArb(s: JsonSchema, name: string): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, 40);
  if (s.format === 'uuid') return fc.uuid({ version: 4 });
  if (s.pattern) {
    let re: RegExp | undefined;
    try {
      re = new RegExp(s.pattern);
    } catch {
      re = undefined;
    }
    if (re) return fc.stringMatching(re).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
  }
  if (/email/i.test(name)) return fc.emailAddress().filter((v) => v.length <= (s.maxLength ?? 254));
  if (/date/i.test(name)) return DATE;
  if (/price|charge|amount/i.test(name)) return MONEY;
  return fc.string({ minLength: Math.max(min, 1), maxLength: Math.max(max, Math.max(min, 1)), unit: 'grapheme-ascii' });
}

/** Valid-looking values for a schema (not guaranteed valid: refinements are invisible in JSON Schema). */
export function valueArb(s: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  // Built once per schema object and property name (building them is the costly part).
  let byName = cache.get(s);
  if (!byName) cache.set(s, (byName = new Map()));
  let arb = byName.get(name);
  if (!arb) {
    const base = baseArb(s, name);
    arb = s.nullable ? fc.oneof({ arbitrary: base, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 }) : base;
    byName.set(name, arb);
  }
  return arb;
}
const cache = new WeakMap<JsonSchema, Map<string, fc.Arbitrary<unknown>>>();

function baseArb(s: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.anyOf || s.oneOf) {
    const subs = (s.anyOf ?? s.oneOf ?? []).map((x) => valueArb(x, name));
    if (/price|charge|amount/i.test(name)) return MONEY;
    return fc.oneof(...subs);
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return stringArb(s, name);
    case 'integer': {
      const min = clampInt(s.minimum, -1000);
      const max = clampInt(s.maximum, Math.max(min, 0) + 1000);
      return fc.integer({ min, max: Math.max(min, max) });
    }
    case 'number': {
      const min = clampInt(s.minimum, 0);
      const max = clampInt(s.maximum, min + 10_000);
      return fc.integer({ min: min * 100, max: Math.max(min, max) * 100 }).map((c) => c / 100);
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const item = s.items ? valueArb(s.items, name) : fc.jsonValue({ maxDepth: 1 });
      const minLength = s.minItems ?? 0;
      return fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
    }
    case 'object': {
      const props = s.properties ?? {};
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, sub] of Object.entries(props)) model[k] = valueArb(sub, k);
      const required = (s.required ?? []).filter((k) => k in props);
      return fc.record(model, { requiredKeys: required as never[] });
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

/** A valid-looking value as a query or path parameter (its text). */
export function paramArb(s: JsonSchema, name: string): fc.Arbitrary<string> {
  return valueArb(s, name).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

export interface Location {
  /** Keys from the root to the value ([] is the root). */
  path: Array<string | number>;
  schema: JsonSchema;
  value: unknown;
}

/** Every location of a value that the schema describes (objects' properties and arrays' items). */
export function locations(value: unknown, schema: JsonSchema, path: Array<string | number> = []): Location[] {
  const here: Location[] = [{ path, schema, value }];
  if (value && typeof value === 'object' && !Array.isArray(value) && schema.properties) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const sub = schema.properties[k];
      if (sub) here.push(...locations(v, sub, [...path, k]));
    }
  } else if (Array.isArray(value) && schema.items) {
    value.forEach((v, i) => here.push(...locations(v, schema.items!, [...path, i])));
  }
  return here;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** Returns a copy of root with the value at path replaced (or deleted when `remove`). */
export function setAt(root: unknown, path: Array<string | number>, value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = clone(root) as Record<string | number, unknown>;
  let cur = copy;
  for (const k of path.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete cur[last];
  else cur[last] = value;
  return copy;
}

export function describePath(path: Array<string | number>): string {
  return path.length === 0 ? '(root)' : path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('').replace(/^\./, '');
}
