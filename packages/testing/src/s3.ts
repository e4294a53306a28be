import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// s3rver: a real S3-compatible server in Node (CommonJS, no type declarations of its own).
interface S3rverEvent {
  Records: Array<{ eventName: string; s3: { object: { key: string } } }>;
}
interface S3rverServer {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(event: 'event', listener: (e: S3rverEvent) => void): void;
}
const S3rver = createRequire(import.meta.url)('s3rver') as new (opts: Record<string, unknown>) => S3rverServer;

export interface TestS3 {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT (path-style addressing). */
  endpoint: string;
  /** Keys of every object written, in order (the server's notifications). */
  puts: string[];
  /** Stops the server (a store using it then finds it unreachable) and deletes its folder. */
  stop(): Promise<void>;
}

/** The credentials s3rver accepts. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Starts an S3-compatible server on a free port with one empty bucket, in a folder of its own. */
export async function startTestS3(bucket: string): Promise<TestS3> {
  const dir = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const puts: string[] = [];
  server.on('event', (e) => {
    for (const r of e.Records) if (r.eventName.startsWith('ObjectCreated')) puts.push(r.s3.object.key);
  });
  let stopped = false;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    puts,
    async stop() {
      if (!stopped) await server.close();
      stopped = true;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
