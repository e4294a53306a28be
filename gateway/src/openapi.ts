import { z } from 'zod';
import { LIVE_EVENTS_PATH, LiveEvent, Problem, ROUTES, type RouteDef } from '@dme/contracts';
import { LEGACY_CALLS, type LegacyCall } from './legacy/table';

const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function schemaOf(s: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(s, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

function parametersOf(def: RouteDef): unknown[] {
  const params: unknown[] = [];
  for (const [where, schema] of [['path', def.params], ['query', def.query]] as const) {
    if (!schema) continue;
    const json = schemaOf(schema, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      params.push({ name, in: where, required: where === 'path' || (json.required ?? []).includes(name), schema: prop });
    }
  }
  return params;
}

const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });

/** The live-updates stream, served by the gateway itself (live.ts), not from the route table. */
const LIVE_EVENTS_OPERATION = {
  operationId: 'liveEvents',
  summary: 'Live updates: a stream of server-sent events, one `change` event per order, payment or request change the caller may see',
  description: [
    'Open it with EventSource (it sends `Accept: text/event-stream`; any other Accept is answered 406).',
    'The stream starts with `retry: 3000`, sends a `: ping` comment every 20 s, and `event: change` with `data:` a LiveEvent (JSON) per change.',
    'Staff receive every change; a driver the status changes of their own orders and of orders waiting for a driver; a customer the changes of their own orders.',
    'It ends when the session ends and after 10 minutes at most; EventSource reconnects by itself. Clients refetch what they show after reconnecting.',
  ].join(' '),
  tags: ['live'],
  'x-access': 'authenticated',
  parameters: [],
  responses: {
    '200': {
      description: 'A stream of server-sent events (text/event-stream) that does not end by itself for up to 10 minutes',
      content: { 'text/event-stream': { schema: { type: 'string', description: 'Each `event: change` carries `data:` one LiveEvent (#/components/schemas/LiveEvent) as JSON.' } } },
    },
    '401': problem('Not signed in'),
    '406': problem('The request does not accept text/event-stream'),
    '429': problem('Too many streams open for this user'),
    '503': problem('Too many streams open at the gateway'),
    default: problem('Problem'),
  },
};

const LEGACY_ENVELOPE = {
  type: 'object',
  properties: { status: { type: 'integer' }, message: { type: 'string', enum: ['success'] }, data: {} },
  required: ['status', 'message', 'data'],
};

/** One legacy `.php` call (legacy/table.ts) as an operation of the 'legacy' tag. */
function legacyOperation(call: LegacyCall): Record<string, unknown> {
  const parameters: unknown[] = [];
  if (call.query) {
    const json = schemaOf(call.query, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, prop] of Object.entries(json.properties ?? {})) {
      parameters.push({ name, in: 'query', required: (json.required ?? []).includes(name), schema: prop });
    }
  }
  const ok = call.kind === 'update' ? '201' : '200';
  const op: Record<string, unknown> = {
    operationId: `legacy_${call.path.slice(1).replace(/\.php$/, '').replace(/[^A-Za-z0-9]+/g, '_')}`,
    summary: call.summary,
    tags: ['legacy'],
    'x-access': call.access,
    'x-rest-routes': call.rest,
    parameters,
    responses: {
      [ok]: { description: 'Success in the old envelope: { status, message: "success", data }', content: { 'application/json': { schema: LEGACY_ENVELOPE } } },
      default: { description: 'The REST problem, plus `message` and `error` (both = detail)', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
    },
    ...(call.access === 'public' ? { security: [] } : {}),
  };
  if (call.body === 'multipart') {
    op.requestBody = {
      required: true,
      content: { 'multipart/form-data': { schema: { type: 'object', properties: { image: { type: 'string', format: 'binary' } }, required: ['image'] } } },
    };
  } else if (call.body && call.body !== 'ignored') {
    op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(call.body, 'input') } } };
  }
  return op;
}

/** The OpenAPI 3 document, generated from the contract route table (never written by hand). */
export function buildOpenApi(routes: Record<string, RouteDef> = ROUTES) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [id, def] of Object.entries(routes)) {
    const path = toOpenApiPath(def.path);
    const okStatus = String(def.status ?? 200);
    const responses: Record<string, unknown> = {
      [okStatus]: def.binary
        ? { description: 'File', content: { [def.binary]: { schema: { type: 'string', format: 'binary' } } } }
        : def.response
          ? { description: 'Success', content: { 'application/json': { schema: schemaOf(def.response, 'output') } } }
          : { description: 'Success, no content' },
      default: { description: 'Problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
    };
    const op: Record<string, unknown> = {
      operationId: id,
      summary: def.summary,
      tags: [def.tag],
      'x-access': def.access,
      parameters: parametersOf(def),
      responses,
      ...(def.access === 'public' ? { security: [] } : {}),
    };
    if (def.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } };
    } else if (def.rawBody === 'multipart') {
      op.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties: { image: { type: 'string', format: 'binary' } }, required: ['image'] } } },
      };
    }
    (paths[path] ??= {})[def.method.toLowerCase()] = op;
  }
  (paths[LIVE_EVENTS_PATH] ??= {}).get = LIVE_EVENTS_OPERATION;
  for (const call of LEGACY_CALLS) (paths[call.path] ??= {})[call.method.toLowerCase()] = legacyOperation(call);
  return {
    openapi: '3.0.3',
    info: {
      title: 'DME shop API',
      version: '0.1.0',
      description:
        'Every route of the gateway. `x-access` names who may call it: public, any signed-in user, or a permission. ' +
        'The old client\'s `.php` calls (SPEC §7, tag `legacy`) are translated into these REST routes (`x-rest-routes`); the mapping table is at [/api/docs/legacy](/api/docs/legacy).',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'dme_session' } },
      schemas: { Problem: schemaOf(Problem, 'output'), LiveEvent: schemaOf(LiveEvent, 'output') },
    },
    security: [{ session: [] }],
    paths,
  };
}

export const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>DME shop API</title>
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script></body></html>`;

export const DOCS_INIT_JS = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui' });`;
