/**
 * The fuzz cases, derived from /api/openapi.json: for one operation, a valid-looking request
 * (path params, query, JSON body from the schemas) and a mutation that ALWAYS introduces at least
 * one defect the server must refuse (for GETs: must survive). Extra fields and spoofed identity
 * headers are only ever added on top of another defect.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { RawRequest } from './http';
import { acceptedTypes, clone, describePath, locations, paramArb, setAt, valueArb, type JsonSchema, type JsonType, type Location } from './schema';
import { TINY_PNG, type DemoUser } from './env';

export type Role = 'anonymous' | DemoUser;

export interface Param {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  id: string;
  method: string;
  /** OpenAPI path, e.g. /api/users/{id} */
  path: string;
  access: string;
  pathParams: Param[];
  queryParams: Param[];
  jsonBody?: JsonSchema;
  multipart: boolean;
}

/** Reads every operation of the OpenAPI document. */
interface OpenApiOperation {
  operationId?: string;
  'x-access'?: string;
  parameters?: Param[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export function operationsOf(doc: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, byMethod] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(byMethod)) {
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      ops.push({
        id: String(op.operationId ?? `${method} ${path}`),
        method: method.toUpperCase(),
        path,
        access: String(op['x-access'] ?? 'authenticated'),
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        jsonBody: content['application/json']?.schema,
        multipart: Boolean(content['multipart/form-data']),
      });
    }
  }
  return ops;
}

/** The request parts a mutation edits before the request is built. */
interface Parts {
  pathParams: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: { kind: 'value'; value: unknown } | { kind: 'text'; text: string } | { kind: 'bytes'; bytes: Buffer };
  /** Send as anonymous (with this raw Cookie header, when set) whatever role was drawn. */
  anonymous?: boolean;
  cookie?: string;
}

interface Mutation {
  family: string;
  label: string;
  apply: (p: Parts) => void;
}

export interface FuzzCase {
  op: Operation;
  role: Role;
  family: string;
  defects: string[];
  request: RawRequest;
  /** Raw Cookie header to use instead of the role's session (cookie mutations). */
  cookieOverride?: string;
}

export const GATEWAY_MAX_BODY = 6 * 1024 * 1024;
const LONG = 100_000;

// ---------------------------------------------------------------- small value pools

const enc = (s: string) => encodeURIComponent(s);

/** Path parameter texts (already encoded) that are not ids. */
const NOT_IDS = [
  'abc', '1', '0', '-1', 'null', 'undefined', 'true', 'NaN', '1e309', '%00', 'a%00b', '%ED%A0%80', '%ED%B0%80', '%C0%80',
  '%C0%AF', '%FF', '%', '%zz', '%E0%A4%A', '..', '.', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%2F', '%5C', 'a%20b',
  "'%20OR%201%3D1--", '%F0%9F%92%A9', '%E2%80%AE', '00000000-0000-0000-0000-00000000000g', 'x'.repeat(300),
  '%7B00000000-0000-4000-8000-000000000000%7D', '00000000000040008000000000000000', '00000000-0000-4000-8000-0000000000001',
  '__proto__', 'constructor', 'me', '%0D%0ASet-Cookie:%20x%3D1',
];

const SURROGATES = ['\uD800', '\uDBFF', '\uDC00', '\uDFFF'];
const BAD_UTF8: Array<[string, number[]]> = [
  ['0xFF byte', [0xff]],
  ['overlong NUL (C0 80)', [0xc0, 0x80]],
  ['UTF-8-encoded surrogate (ED A0 80)', [0xed, 0xa0, 0x80]],
  ['lone continuation byte (80)', [0x80]],
  ['truncated sequence (E2 82)', [0xe2, 0x82]],
  ['5-byte sequence (F8 88 80 80 80)', [0xf8, 0x88, 0x80, 0x80, 0x80]],
];
const BYTES_MARKER = '\u0001FUZZ_BYTES\u0001';
const DEEP_MARKER = '\u0001FUZZ_DEEP\u0001';

const WRONG_VALUES: Record<JsonType, unknown[]> = {
  string: ['abc', '', '12', 'true'],
  number: [1.5, -1, 1e308, 0],
  integer: [7, -1, 0],
  boolean: [true, false],
  object: [{}, { a: 1 }],
  array: [[], [1, 'a'], [{}]],
  null: [null],
};

function wrongTypesFor(accepted: Set<JsonType>): JsonType[] {
  const out: JsonType[] = [];
  for (const t of ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as JsonType[]) {
    if (accepted.has(t)) continue;
    if ((t === 'number' || t === 'integer') && accepted.has('number')) continue;
    if (t === 'integer' && accepted.has('integer')) continue;
    out.push(t);
  }
  // integer only: a fraction is the wrong type too.
  return out;
}

function isInvalidJson(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

function deepText(kind: 'array' | 'object', depth = 1000): string {
  return kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function withBytes(text: string, bytes: number[]): Buffer {
  const [a, b] = text.split(JSON.stringify(BYTES_MARKER).slice(1, -1));
  return Buffer.concat([Buffer.from(a ?? '', 'utf8'), Buffer.from(bytes), Buffer.from(b ?? '', 'utf8')]);
}

function hasRequired(s: JsonSchema | undefined): boolean {
  return Boolean(s?.required?.length);
}

function oversizeJson(): string {
  return `{"pad":"${'a'.repeat(GATEWAY_MAX_BODY + 64 * 1024)}"}`;
}

// ---------------------------------------------------------------- body mutations (JSON routes)

function bodyMutations(op: Operation, value: unknown): Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> {
  const schema = op.jsonBody!;
  const locs = locations(value, schema);
  const out: Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> = [];
  const setValue = (v: unknown): Mutation['apply'] => (p) => {
    p.body = { kind: 'value', value: v };
  };

  // Wrong type at a location whose schema constrains the type.
  const typed = locs
    .map((l) => ({ l, acc: acceptedTypes(l.schema) }))
    .filter((x): x is { l: Location; acc: Set<JsonType> } => x.acc !== 'any')
    .map((x) => ({ l: x.l, wrong: wrongTypesFor(x.acc) }))
    .filter((x) => x.wrong.length > 0);
  if (typed.length) {
    out.push({
      weight: 6,
      arbitrary: fc.constantFrom(...typed).chain(({ l, wrong }) =>
        fc.constantFrom(...wrong).chain((t) =>
          fc.constantFrom(...WRONG_VALUES[t]).map((v) => ({
            family: 'wrong-type',
            label: `wrong type at ${describePath(l.path)}: ${JSON.stringify(v)} (${t})`,
            apply: setValue(setAt(value, l.path, v)),
          })),
        ),
      ),
    });
  }

  // A required field missing (at the root or in a nested object).
  const missing = locs.flatMap((l) =>
    l.value && typeof l.value === 'object' && !Array.isArray(l.value)
      ? (l.schema.required ?? []).filter((k) => k in (l.value as object)).map((k) => ({ path: [...l.path, k] }))
      : [],
  );
  if (missing.length) {
    out.push({
      weight: 5,
      arbitrary: fc.constantFrom(...missing).map(({ path }) => ({
        family: 'missing-required',
        label: `required field ${describePath(path)} missing`,
        apply: setValue(setAt(value, path, undefined, true)),
      })),
    });
  }

  // String defects: NUL, lone surrogate, invalid UTF-8 bytes, 100 KB.
  // (not where the schema takes anything: such a field is ignored, like an extra one)
  const strings = locs.filter((l) => typeof l.value === 'string' && acceptedTypes(l.schema) !== 'any') as Array<Location & { value: string }>;
  if (strings.length) {
    const at = fc.constantFrom(...strings).chain((l) => fc.nat({ max: l.value.length }).map((i) => ({ l, i })));
    out.push({
      weight: 4,
      arbitrary: at.map(({ l, i }) => ({
        family: 'nul',
        label: `NUL in ${describePath(l.path)}`,
        apply: setValue(setAt(value, l.path, `${l.value.slice(0, i)}\u0000${l.value.slice(i)}`)),
      })),
    });
    out.push({
      weight: 4,
      arbitrary: fc.tuple(at, fc.constantFrom(...SURROGATES)).map(([{ l, i }, s]) => ({
        family: 'lone-surrogate',
        label: `lone surrogate \\u${s.charCodeAt(0).toString(16)} (JSON escape) in ${describePath(l.path)}`,
        apply: setValue(setAt(value, l.path, `${l.value.slice(0, i)}${s}${l.value.slice(i)}`)),
      })),
    });
    out.push({
      weight: 3,
      arbitrary: fc.tuple(at, fc.constantFrom(...BAD_UTF8)).map(([{ l, i }, [name, bytes]]) => ({
        family: 'invalid-utf8',
        label: `invalid UTF-8 (${name}) in ${describePath(l.path)}`,
        apply: (p: Parts) => {
          const text = JSON.stringify(setAt(value, l.path, `${l.value.slice(0, i)}${BYTES_MARKER}${l.value.slice(i)}`));
          p.body = { kind: 'bytes', bytes: withBytes(text, bytes) };
        },
      })),
    });
    out.push({
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom(...strings), fc.constantFrom('a', 'é', '7')).map(([l, ch]) => ({
        family: 'long-string',
        label: `${LONG.toLocaleString('en')}-character string ("${ch}"…) in ${describePath(l.path)}`,
        apply: setValue(setAt(value, l.path, ch.repeat(LONG))),
      })),
    });
  }

  // 1,000-deep nesting where the schema does not take that container (always possible at the root with arrays).
  const deepTargets: Array<{ l: Location; kind: 'array' | 'object' }> = [];
  for (const { l, acc } of locs.map((l) => ({ l, acc: acceptedTypes(l.schema) }))) {
    if (acc === 'any') continue;
    if (!acc.has('array')) deepTargets.push({ l, kind: 'array' });
    if (!acc.has('object')) deepTargets.push({ l, kind: 'object' });
  }
  if (deepTargets.length) {
    out.push({
      weight: 3,
      arbitrary: fc.constantFrom(...deepTargets).map(({ l, kind }) => ({
        family: 'deep-nesting',
        label: `1,000-deep ${kind} at ${describePath(l.path)}`,
        apply: (p: Parts) => {
          const text = JSON.stringify(setAt(value, l.path, DEEP_MARKER));
          p.body = { kind: 'text', text: text.replace(JSON.stringify(DEEP_MARKER), deepText(kind)) };
        },
      })),
    });
  }

  // Invalid JSON text.
  const text = JSON.stringify(value);
  const corrupt: fc.Arbitrary<{ how: string; text: string }> = fc.oneof(
    fc.integer({ min: 1, max: Math.max(1, text.length - 1) }).map((k) => ({ how: `cut after ${k} chars`, text: text.slice(0, k) })),
    fc.constantFrom('}', ',', 'x', '{}', ']').map((s) => ({ how: `trailing "${s}"`, text: text + s })),
    fc.constant({ how: 'single quotes', text: text.replace(/"/g, "'") }),
    fc.constant({ how: 'trailing comma', text: `${text.slice(0, -1)},}` }),
    fc.constantFrom('NaN', 'undefined', 'Infinity', '0x10', '01', "'x'").map((v) => ({ how: `literal ${v}`, text: `{"fuzz":${v},${text.slice(1)}` })),
    fc.constant({ how: 'comment', text: `/*x*/${text}` }),
    fc.constantFrom('{', '[', '"', 'tru', '{"a"', '{"a":}', '{,}', ' ').map((t) => ({ how: `text ${JSON.stringify(t)}`, text: t })),
  );
  out.push({
    weight: 4,
    arbitrary: corrupt.map(({ how, text: t }) => ({
      family: 'invalid-json',
      label: `invalid JSON (${how})`,
      apply: (p: Parts) => {
        p.body = { kind: 'text', text: isInvalidJson(t) ? t : '{' };
      },
    })),
  });

  // __proto__ / constructor keys.
  out.push({
    weight: 3,
    arbitrary: fc
      .constantFrom('"__proto__":{"admin":true,"userType":"SUPERADMIN"}', '"__proto__":null', '"constructor":{"prototype":{"admin":true}}', '"__proto__":[]')
      .map((kv) => ({
        family: 'proto-key',
        label: `prototype key ${kv.split(':')[0]}`,
        apply: (p: Parts) => {
          const t = JSON.stringify(value);
          p.body = { kind: 'text', text: t === '{}' ? `{${kv}}` : `{${kv},${t.slice(1)}` };
        },
      })),
  });

  // The root is not an object.
  out.push({
    weight: 2,
    arbitrary: fc.constantFrom('[]', '"x"', '1', 'null', 'true', '[{}]', `[${text}]`).map((t) => ({
      family: 'root-not-object',
      label: `body ${t.length > 40 ? '[<the body>]' : t}`,
      apply: (p: Parts) => {
        p.body = { kind: 'text', text: t };
      },
    })),
  });

  // Wrong or missing content type / empty body: only a defect when something is required.
  if (hasRequired(schema)) {
    out.push({
      weight: 3,
      arbitrary: fc
        .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fuzz', 'application/xml', 'image/png', 'application/octet-stream', '')
        .map((ct) => ({
          family: 'content-type',
          label: ct ? `content-type ${ct}` : 'no content-type',
          apply: (p: Parts) => {
            if (ct) p.headers['content-type'] = ct;
            else delete p.headers['content-type'];
          },
        })),
    });
    out.push({
      weight: 1,
      arbitrary: fc.constant({
        family: 'empty-body',
        label: 'empty body with content-type application/json',
        apply: (p: Parts) => {
          p.body = { kind: 'bytes', bytes: Buffer.alloc(0) };
        },
      }),
    });
  }

  // Content encodings that do not match the bytes. (Not a charset parameter: RFC 8259 defines none
  // for application/json and says adding one has no effect, so a server may ignore it.)
  out.push({
    weight: 3,
    arbitrary: fc
      .constantFrom(
        { h: { 'content-encoding': 'gzip' }, l: 'content-encoding gzip, body not gzip' },
        { h: { 'content-encoding': 'deflate' }, l: 'content-encoding deflate, body not deflate' },
        { h: { 'content-encoding': 'x-fuzz' }, l: 'unknown content-encoding x-fuzz' },
        { h: { 'content-encoding': 'compress' }, l: 'unsupported content-encoding compress' },
        { h: { 'content-encoding': 'gzip, x-fuzz' }, l: 'content-encoding "gzip, x-fuzz"' },
      )
      .map(({ h, l }) => ({
        family: 'encoding',
        label: l,
        apply: (p: Parts) => Object.assign(p.headers, h),
      })),
  });

  // Over the gateway's body limit (slow: rare).
  out.push({
    weight: 0.15,
    arbitrary: fc.constant({
      family: 'oversize',
      label: `body over ${GATEWAY_MAX_BODY} bytes`,
      apply: (p: Parts) => {
        p.body = { kind: 'text', text: oversizeJson() };
      },
    }),
  });
  return out;
}

// ---------------------------------------------------------------- multipart (uploads)

function multipart(boundary: string, parts: Array<{ name: string; filename?: string; type?: string; content: Buffer }>, close = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), part.content, Buffer.from('\r\n'));
  }
  if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

const NOT_IMAGES: Array<[string, Buffer]> = [
  ['text', Buffer.from('hello, this is not an image')],
  ['PDF', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF')],
  ['GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
  ['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
  ['EXE', Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1')],
  ['HTML', Buffer.from('<html><script>alert(1)</script></html>')],
  ['empty file', Buffer.alloc(0)],
];

function multipartMutations(): Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> {
  const boundary = fc.stringMatching(/^[a-zA-Z0-9]{8,30}$/).map((s) => `fz${s}`);
  const png = { name: 'image', filename: 'a.png', type: 'image/png', content: TINY_PNG };
  const set = (ct: string | undefined, bytes: Buffer) => (p: Parts) => {
    if (ct === undefined) delete p.headers['content-type'];
    else p.headers['content-type'] = ct;
    p.body = { kind: 'bytes', bytes };
  };
  return [
    {
      weight: 2,
      arbitrary: fc.tuple(boundary, fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'image/png', 'application/octet-stream')).map(([b, ct]) => ({
        family: 'multipart-content-type',
        label: `content-type ${ct} with a multipart body`,
        apply: set(ct, multipart(b, [png])),
      })),
    },
    {
      weight: 1,
      arbitrary: boundary.map((b) => ({ family: 'multipart-no-boundary', label: 'multipart/form-data without boundary', apply: set('multipart/form-data', multipart(b, [png])) })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(boundary, boundary).filter(([a, b]) => a !== b).map(([a, b]) => ({
        family: 'multipart-boundary-mismatch',
        label: 'boundary in header differs from the body',
        apply: set(`multipart/form-data; boundary=${a}`, multipart(b, [png])),
      })),
    },
    {
      weight: 3,
      arbitrary: boundary.chain((b) => {
        const full = multipart(b, [png]);
        const closing = full.lastIndexOf(Buffer.from(`--${b}--`));
        return fc.integer({ min: 1, max: closing }).map((cut) => ({
          family: 'multipart-truncated',
          label: `multipart body cut after ${cut} of ${full.length} bytes`,
          apply: set(`multipart/form-data; boundary=${b}`, full.subarray(0, cut)),
        }));
      }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(boundary, fc.constantFrom('file', 'img', 'IMAGE', '')).map(([b, name]) => ({
        family: 'multipart-wrong-field',
        label: `image in field "${name}" instead of "image"`,
        apply: set(`multipart/form-data; boundary=${b}`, multipart(b, [{ ...png, name }])),
      })),
    },
    {
      weight: 1,
      arbitrary: boundary.map((b) => ({
        family: 'multipart-no-file',
        label: 'only a text field "image", no file',
        apply: set(`multipart/form-data; boundary=${b}`, multipart(b, [{ name: 'image', content: Buffer.from('hello') }])),
      })),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(boundary, fc.constantFrom(...NOT_IMAGES), fc.constantFrom('a.png', 'a.jpg', '../../a.png', 'a.png\u0000.exe', 'a.svg')).map(([b, [kind, content], filename]) => ({
        family: 'multipart-not-image',
        label: `file is ${kind}, named ${JSON.stringify(filename)}, declared image/png`,
        apply: set(`multipart/form-data; boundary=${b}`, multipart(b, [{ name: 'image', filename, type: 'image/png', content }])),
      })),
    },
    {
      weight: 0.2,
      arbitrary: boundary.map((b) => ({
        family: 'oversize',
        label: `multipart body over ${GATEWAY_MAX_BODY} bytes`,
        apply: set(`multipart/form-data; boundary=${b}`, multipart(b, [{ ...png, content: Buffer.concat([TINY_PNG, Buffer.alloc(GATEWAY_MAX_BODY + 64 * 1024)]) }])),
      })),
    },
  ];
}

// ---------------------------------------------------------------- path, query, cookie

function decodesTo(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

function pathMutation(op: Operation): fc.Arbitrary<Mutation> {
  const values = fc.oneof(
    { weight: 15, arbitrary: fc.constantFrom(...NOT_IDS) },
    { weight: 5, arbitrary: fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).map((s) => s.replace(/[\uD800-\uDFFF]/g, 'x')).map(enc) },
    { weight: 1, arbitrary: fc.constant('x'.repeat(20_000)) },
  );
  return fc.tuple(fc.constantFrom(...op.pathParams), values).filter(([param, v]) => {
    if (op.method === 'GET') return true; // a GET may answer anything below 500
    const decoded = decodesTo(v);
    if (decoded === undefined || !param.schema.pattern) return true;
    return !new RegExp(param.schema.pattern).test(decoded);
  }).map(([param, v]) => ({
    family: 'path-param',
    label: `path param ${param.name} = ${v.length > 60 ? `${v.slice(0, 20)}… (${v.length} chars)` : v}`,
    apply: (p: Parts) => {
      p.pathParams[param.name] = v;
    },
  }));
}

function wrongQueryValues(param: Param): string[] {
  const s = param.schema;
  const acc = acceptedTypes(s);
  const out = ['%00', 'a%00b', '%ED%A0%80', '%', '%zz', '%E0%A4%A', '', '%20', '%0D%0A'];
  if (acc !== 'any' && (acc.has('integer') || acc.has('number'))) out.push('abc', '1.5', '-1', '1e999', '0x10', 'NaN', 'Infinity', '99999999999999999999', '101', '0');
  if (s.enum) out.push('BOGUS', enc(String(s.enum[0]).toLowerCase()), enc(` ${String(s.enum[0])}`));
  if (s.pattern || s.format) out.push('abc', 'not-a-uuid', '..');
  if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength + 1));
  return out;
}

function queryMutations(op: Operation): Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> {
  const out: Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> = [];
  if (op.queryParams.length) {
    out.push({
      weight: 5,
      arbitrary: fc.constantFrom(...op.queryParams).chain((param) =>
        fc.constantFrom(...wrongQueryValues(param)).map((v) => ({
          family: 'query-value',
          label: `query ${param.name}=${v.length > 40 ? `${v.slice(0, 10)}… (${v.length})` : v}`,
          apply: (p: Parts) => {
            p.query = p.query.filter(([k]) => k !== param.name);
            p.query.push([param.name, v]);
          },
        })),
      ),
    });
    out.push({
      weight: 2,
      arbitrary: fc.constantFrom(...op.queryParams).chain((param) =>
        fc.constantFrom<[string, Array<[string, string]>]>(
          ['repeated', [[param.name, '1'], [param.name, '2']]],
          ['bracket array', [[`${param.name}[]`, 'x'], [`${param.name}[]`, 'y']]],
          ['bracket object', [[`${param.name}[a]`, '1']]],
        ).map(([how, pairs]) => ({
          family: 'query-shape',
          label: `query ${param.name} as ${how}`,
          apply: (p: Parts) => {
            p.query = p.query.filter(([k]) => k !== param.name);
            p.query.push(...pairs);
          },
        })),
      ),
    });
    out.push({
      weight: 0.5,
      arbitrary: fc.tuple(fc.constantFrom(...op.queryParams), fc.constantFrom(10_000, LONG)).map(([param, n]) => ({
        family: n > 16_000 ? 'query-long-url' : 'query-long',
        label: `query ${param.name} = ${n.toLocaleString('en')} characters`,
        apply: (p: Parts) => {
          p.query = p.query.filter(([k]) => k !== param.name);
          p.query.push([param.name, 'x'.repeat(n)]);
        },
      })),
    });
  }
  out.push({
    weight: op.queryParams.length ? 1 : 3,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [['__proto__', 'x']],
      [['__proto__[admin]', 'true']],
      [['constructor[prototype][admin]', 'true']],
      [['zzz', '%00']],
      [['%ED%A0%80', '1']],
      [['a', '%zz']],
    ).map((pairs) => ({
      family: 'query-junk',
      label: `query junk ${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`,
      apply: (p: Parts) => {
        p.query.push(...pairs);
      },
    })),
  });
  return out;
}

function cookieMutation(): fc.Arbitrary<Mutation> {
  return fc
    .constantFrom(
      'dme_session=',
      'dme_session=x',
      `dme_session=${'0'.repeat(64)}`,
      'dme_session=%ZZ',
      'dme_session=%00',
      `dme_session=${'a'.repeat(8000)}`,
      'dme_session="quoted"',
      'dme_session=a; dme_session=b',
      'dme_session',
      `dme_session=${randomUUID()}`,
    )
    .map((c) => ({
      family: 'session-cookie',
      label: `anonymous with cookie ${c.length > 50 ? `${c.slice(0, 20)}… (${c.length})` : c}`,
      apply: (p: Parts) => {
        p.anonymous = true;
        p.cookie = c;
      },
    }));
}

// ---------------------------------------------------------------- the case arbitrary

export interface CaseContext {
  /** Roles that may call the operation (from each role's permissions), anonymous included for public ones. */
  allowedRoles: (op: Operation) => Role[];
  roles: Role[];
}

const SPOOF_HEADERS: Record<string, string> = {
  'x-dme-user-type': 'SUPERADMIN',
  'x-dme-user-id': '00000000-0000-4000-8000-000000000001',
  'x-dme-username': 'superadmin',
  'x-dme-internal-token': 'guessed-token-0123456789abcdef',
  'x-forwarded-for': '10.0.0.1',
};

const caseArbs = new WeakMap<Operation, fc.Arbitrary<FuzzCase>>();

/** The case arbitrary of one operation (built once per operation). */
export function caseArb(op: Operation, ctx: CaseContext): fc.Arbitrary<FuzzCase> {
  let arb = caseArbs.get(op);
  if (!arb) caseArbs.set(op, (arb = buildCaseArb(op, ctx)));
  return arb;
}

function buildCaseArb(op: Operation, ctx: CaseContext): fc.Arbitrary<FuzzCase> {
  const allowed = ctx.allowedRoles(op);
  const role: fc.Arbitrary<Role> =
    op.id === 'authLogout' || op.path === '/api/auth/logout'
      ? fc.constant('anonymous')
      : fc.oneof({ weight: 7, arbitrary: fc.constantFrom(...(allowed.length ? allowed : ctx.roles)) }, { weight: 3, arbitrary: fc.constantFrom(...ctx.roles) });
  const pathParams = fc.record(Object.fromEntries(op.pathParams.map((p) => [p.name, paramArb(p.schema, p.name).map(enc)])));
  const query = fc
    .tuple(
      ...op.queryParams.map((p) => {
        const pair = paramArb(p.schema, p.name).map((v): [string, string] | undefined => [p.name, enc(v)]);
        return p.required ? pair : fc.option(pair, { nil: undefined, freq: 2 });
      }),
    )
    .map((pairs) => pairs.filter((x): x is [string, string] => x !== undefined));
  const extra = fc.option(fc.dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,12}$/), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 3 }), { nil: undefined, freq: 2 });
  const body = op.jsonBody ? valueArb(op.jsonBody) : fc.constant(undefined);

  return fc.record({ role, pathParams, query, body, extra, spoof: fc.boolean() }).chain((base) => {
    let value = base.body;
    const addExtra = Boolean(base.extra) && value && typeof value === 'object' && !Array.isArray(value);
    if (addExtra) value = { ...(base.extra as object), ...(value as object) };

    const families: Array<{ weight: number; arbitrary: fc.Arbitrary<Mutation> }> = [];
    const isGet = op.method === 'GET' || op.method === 'HEAD';
    if (op.pathParams.length) families.push({ weight: isGet ? 4 : 2, arbitrary: pathMutation(op) });
    if (isGet) families.push(...queryMutations(op));
    if (op.jsonBody && !isGet) families.push(...bodyMutations(op, value));
    if (op.multipart) families.push(...multipartMutations());
    if (!op.jsonBody && !op.multipart && op.method === 'POST' && !op.pathParams.length) {
      // A POST that takes no body (logout): a body that claims to be JSON and is not, or is huge.
      families.push(
        {
          weight: 4,
          arbitrary: fc.constantFrom('{', '{"a":', 'nope', '{"a":1}}', "{'a':1}").map((t) => ({
            family: 'invalid-json',
            label: `invalid JSON ${JSON.stringify(t)} with content-type application/json`,
            apply: (p: Parts) => {
              p.headers['content-type'] = 'application/json';
              p.body = { kind: 'text', text: t };
            },
          })),
        },
        {
          weight: 0.1,
          arbitrary: fc.constant({
            family: 'oversize',
            label: `body over ${GATEWAY_MAX_BODY} bytes`,
            apply: (p: Parts) => {
              p.headers['content-type'] = 'application/json';
              p.body = { kind: 'text', text: oversizeJson() };
            },
          }),
        },
      );
    }
    if (op.access !== 'public') families.push({ weight: 0.5, arbitrary: cookieMutation() });
    if (families.length === 0) throw new Error(`No defect applies to ${op.method} ${op.path}`);

    // fc.oneof takes integer weights; the families above are written as relative numbers.
    const weighted = families.map((f) => ({ weight: Math.max(1, Math.round(f.weight * 20)), arbitrary: f.arbitrary }));
    return fc.oneof(...weighted).map((m): FuzzCase => {
      const parts: Parts = {
        pathParams: { ...(base.pathParams as Record<string, string>) },
        query: [...base.query],
        headers: { accept: 'application/json' },
      };
      if (op.jsonBody && !isGet) {
        parts.headers['content-type'] = 'application/json';
        parts.body = { kind: 'value', value: clone(value) };
      }
      m.apply(parts);
      const defects = [m.label];
      if (addExtra) defects.push(`+ extra fields ${Object.keys(base.extra as object).join(', ')}`);
      if (base.spoof) {
        Object.assign(parts.headers, SPOOF_HEADERS);
        defects.push('+ spoofed x-dme-* identity headers');
      }
      const path = op.path.replace(/\{([^}]+)\}/g, (_, n: string) => parts.pathParams[n] ?? 'x');
      const qs = parts.query.map(([k, v]) => `${k}=${v}`).join('&');
      let bytes: Buffer | undefined;
      if (parts.body?.kind === 'value') bytes = Buffer.from(JSON.stringify(parts.body.value), 'utf8');
      else if (parts.body?.kind === 'text') bytes = Buffer.from(parts.body.text, 'utf8');
      else if (parts.body?.kind === 'bytes') bytes = parts.body.bytes;
      return {
        op,
        role: parts.anonymous ? 'anonymous' : base.role,
        family: m.family,
        defects,
        request: { method: op.method, path: qs ? `${path}?${qs}` : path, headers: parts.headers, body: bytes },
        cookieOverride: parts.cookie,
      };
    });
  });
}
