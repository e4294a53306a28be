import { headers as natsHeaders, type Msg, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import type { z } from 'zod';
import { Problem } from '@dme/contracts';
import { fromZodError, HttpProblem } from './errors';
import { toHttpProblem } from './http';
import { CORRELATION_HEADER, currentRequestId, isRequestId, withRequestContext, type Logger } from './logger';
import { namesOf } from './nats';

type Reply = { ok: true; result: unknown } | { ok: false; problem: z.infer<typeof Problem> };

/**
 * Serves a synchronous command over NATS request/reply (DESIGN §2: only where the user waits).
 * Replicas share the subject through a queue group; each request is handled concurrently and
 * answered with its result or a problem (status, detail) the caller turns back into an error.
 */
export function serveRpc<S extends z.ZodType>(opts: {
  nc: NatsConnection;
  subject: string;
  queue: string;
  schema: S;
  logger: Logger;
  handle: (input: z.output<S>) => Promise<unknown>;
}): Subscription {
  const respond = (m: Msg, reply: Reply) => {
    if (!m.reply) return;
    m.respond(JSON.stringify(reply));
  };
  const handleOne = async (m: Msg) => {
    try {
      const parsed = opts.schema.safeParse(m.json());
      if (!parsed.success) throw fromZodError(parsed.error);
      respond(m, { ok: true, result: await opts.handle(parsed.data) });
    } catch (err) {
      const problem = toHttpProblem(err);
      if (problem.status >= 500) opts.logger.error({ err, subject: opts.subject }, 'rpc handler failed');
      respond(m, { ok: false, problem: problem.toProblem() });
    }
  };
  // The subject is given unprefixed; the connection's deployment prefix is added.
  return opts.nc.subscribe(namesOf(opts.nc).core(opts.subject), {
    queue: opts.queue,
    callback: (err, m) => {
      if (err) {
        opts.logger.warn({ err, subject: opts.subject }, 'rpc subscription error');
        return;
      }
      // The caller's correlation id (header): the handler's log lines and events carry it.
      const requestId = m.headers?.get(CORRELATION_HEADER);
      void withRequestContext(isRequestId(requestId) ? requestId : undefined, () => handleOne(m));
    },
  });
}

/** Calls a command served with serveRpc; a problem reply is thrown as the same HttpProblem. */
export async function callRpc(nc: NatsConnection, subject: string, payload: unknown, timeoutMs = 10_000): Promise<unknown> {
  let msg: Msg;
  try {
    const requestId = currentRequestId();
    const headers = requestId ? natsHeaders() : undefined;
    headers?.set(CORRELATION_HEADER, requestId!);
    msg = await nc.request(namesOf(nc).core(subject), JSON.stringify(payload), { timeout: timeoutMs, ...(headers ? { headers } : {}) });
  } catch {
    throw new HttpProblem(503, 'A service we depend on did not answer. Please try again in a moment.');
  }
  const reply = msg.json() as Reply;
  if (reply.ok) return reply.result;
  const p = Problem.safeParse(reply.problem);
  if (!p.success) throw new HttpProblem(502, 'A service we depend on gave an unexpected answer.');
  throw new HttpProblem(p.data.status, p.data.detail, p.data.errors);
}
