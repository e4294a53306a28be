import { MESSAGES, UPLOAD_RPC, UploadsExistReply } from '@dme/contracts';
import { badRequest, HttpProblem } from './errors';
import type { NatsConnection } from './nats';
import { callRpc } from './rpc';

/**
 * Checks with the catalog (which owns uploads) that each image path names an upload that exists;
 * a missing one is a 400 naming its field. `fields` maps a field name to the path sent in it.
 */
export async function assertUploadsExist(nc: NatsConnection, fields: Record<string, string>, subject: string = UPLOAD_RPC.exist): Promise<void> {
  const entries = Object.entries(fields);
  if (entries.length === 0) return;
  const reply = UploadsExistReply.safeParse(await callRpc(nc, subject, { paths: [...new Set(entries.map(([, p]) => p))] }));
  if (!reply.success) throw new HttpProblem(502, 'A service we depend on gave an unexpected answer.');
  const missing = new Set(reply.data.missing);
  const errors = entries.filter(([, p]) => missing.has(p)).map(([field]) => ({ field, message: MESSAGES.upload.notFound }));
  if (errors.length) throw badRequest(MESSAGES.upload.notFound, errors);
}
