import type { S3Client } from '@aws-sdk/client-s3';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { pgBlobStore, type BlobStore } from './blobs';
import { parseConfig } from './config';
import { HttpProblem } from './errors';
import { qualified } from './outbox';

/** A blob store in an S3 bucket (AWS S3 or an S3-compatible store: MinIO, R2, Ceph, s3rver). */
export interface S3BlobStore extends BlobStore {
  readonly bucket: string;
  readonly prefix: string;
  /** Closes the client's sockets (only a client this store made itself). */
  close(): void;
}

export interface S3BlobStoreOptions {
  /** A ready client; when absent one is made from the options below. */
  client?: S3Client;
  /** For S3-compatible stores (e.g. http://127.0.0.1:9000); absent = AWS. */
  endpoint?: string;
  region?: string;
  bucket: string;
  /** Key prefix ("uploads" or "uploads/"), so one bucket can hold other things too. */
  prefix?: string;
  /** Absent = the SDK's default credential chain (environment, profile, instance or pod role). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Bucket in the path instead of the host name (most S3-compatible stores need it). */
  forcePathStyle?: boolean;
  /** HEAD requests in flight at once in missing() (default 8). */
  concurrency?: number;
}

/** A file store that cannot be reached or refused a request: the HTTP layer answers 503. */
export class BlobStoreUnavailable extends HttpProblem {
  /** What the store said, for the log (the client only sees the problem's detail). */
  readonly reason: string;
  constructor(cause: unknown) {
    super(503, 'Stored files cannot be reached right now. Please try again.', undefined, { 'Retry-After': '5' });
    const e = cause as { name?: unknown; message?: unknown; code?: unknown; $metadata?: { httpStatusCode?: unknown } };
    this.reason = [e?.name, e?.code, e?.$metadata?.httpStatusCode, e?.message].filter((p) => p !== undefined && p !== '').join(' ');
  }
}

// A name is one key segment: no slash, no "." or ".." segment, nothing a store could read as a path.
const SAFE_SEGMENT = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

export function isSafeBlobName(name: string): boolean {
  return name.length <= 200 && SAFE_SEGMENT.test(name);
}

/** "uploads", "/uploads/", "shop/uploads" → "uploads/", "shop/uploads/"; "" → ""; undefined when unsafe. */
export function normalizeBlobPrefix(prefix: string): string | undefined {
  const trimmed = prefix.trim().replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  return trimmed.split('/').every((s) => SAFE_SEGMENT.test(s)) ? `${trimmed}/` : undefined;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: unknown; $metadata?: { httpStatusCode?: unknown } };
  // HEAD answers carry no body, so a missing key is a bare 404 ("NotFound"). A missing bucket is a
  // configuration fault, not a missing file.
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || (e?.$metadata?.httpStatusCode === 404 && e?.name !== 'NoSuchBucket');
}

let sdkLoading: Promise<typeof import('@aws-sdk/client-s3')> | undefined;
/**
 * The AWS SDK, loaded on an S3 store's first use: loading it took ~150 ms of every process's start
 * (issue 30: restarts in about a second), and a process on the PostgreSQL store never needs it.
 */
const sdk = () => (sdkLoading ??= import('@aws-sdk/client-s3'));

/** Makes the S3 client for a store: checksums only where S3 requires them (see below). */
export async function makeS3Client(opts: Pick<S3BlobStoreOptions, 'endpoint' | 'region' | 'credentials' | 'forcePathStyle'>): Promise<S3Client> {
  const { S3Client } = await sdk();
  return new S3Client({
    region: opts.region ?? 'us-east-1',
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    ...(opts.credentials ? { credentials: opts.credentials } : {}),
    forcePathStyle: opts.forcePathStyle ?? false,
    // The SDK's default CRC32 checksums (and aws-chunked uploads) are refused by several
    // S3-compatible stores; S3 itself does not need them for a PUT of a known-length buffer.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    // An unreachable store fails the request in seconds (503) instead of holding it open.
    requestHandler: { connectionTimeout: 3000, requestTimeout: 15_000 },
  });
}

/**
 * Files as objects `<prefix><name>` in a bucket, with the same contract as pgBlobStore: a name
 * keeps its first content (put checks first: names are unique by construction, so the only
 * concurrent puts of one name are the migration's, with the same bytes), get/missing treat an
 * absent key as missing, and every other failure is a BlobStoreUnavailable (503), never a crash.
 */
export function s3BlobStore(opts: S3BlobStoreOptions): S3BlobStore {
  const prefix = normalizeBlobPrefix(opts.prefix ?? '');
  if (prefix === undefined) throw new Error(`s3BlobStore: unsafe key prefix ${JSON.stringify(opts.prefix)}`);
  // The client is made (and the SDK loaded) on the first request, not when the store is.
  let made: Promise<S3Client> | undefined;
  const client = () => (made ??= opts.client ? Promise.resolve(opts.client) : makeS3Client(opts));
  const Bucket = opts.bucket;
  const concurrency = Math.max(1, opts.concurrency ?? 8);

  const keyOf = (name: string) => `${prefix}${name}`;
  const unavailable = (err: unknown) => (err instanceof HttpProblem ? err : new BlobStoreUnavailable(err));

  async function exists(name: string): Promise<boolean> {
    try {
      const { HeadObjectCommand } = await sdk();
      await (await client()).send(new HeadObjectCommand({ Bucket, Key: keyOf(name) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw unavailable(err);
    }
  }

  return {
    bucket: Bucket,
    prefix,
    async put(name, contentType, data) {
      // Names come from our code, never from a client: an unsafe one is a bug, not bad input.
      if (!isSafeBlobName(name)) throw new Error(`s3BlobStore: unsafe blob name ${JSON.stringify(name)}`);
      if (await exists(name)) return;
      try {
        const { PutObjectCommand } = await sdk();
        await (await client()).send(new PutObjectCommand({ Bucket, Key: keyOf(name), Body: data, ContentType: contentType, ContentLength: data.length }));
      } catch (err) {
        throw unavailable(err);
      }
    },
    async get(name) {
      if (!isSafeBlobName(name)) return undefined;
      try {
        const { GetObjectCommand } = await sdk();
        const res = await (await client()).send(new GetObjectCommand({ Bucket, Key: keyOf(name) }));
        const bytes = res.Body ? await res.Body.transformToByteArray() : new Uint8Array();
        return {
          data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: res.ContentType ?? 'application/octet-stream',
          createdAt: res.LastModified ?? new Date(0),
        };
      } catch (err) {
        if (isNotFound(err)) return undefined;
        throw unavailable(err);
      }
    },
    async missing(names) {
      const result: boolean[] = new Array<boolean>(names.length).fill(true);
      let next = 0;
      const worker = async () => {
        while (next < names.length) {
          const i = next++;
          const name = names[i]!;
          result[i] = !isSafeBlobName(name) || !(await exists(name));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, names.length) }, worker));
      return names.filter((_, i) => result[i]);
    },
    close() {
      if (!opts.client) void made?.then((c) => c.destroy(), () => undefined);
    },
  };
}

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/**
 * The variables that choose a service's blob store; spread into the service's env schema and add
 * `.superRefine(refineBlobStoreEnv)` for the checks across variables.
 */
export const blobStoreEnv = {
  /** postgres (default: nothing more to run) or s3 (AWS S3 or an S3-compatible store). */
  BLOB_STORE: z.enum(['postgres', 's3'], { error: 'must be postgres or s3' }).default('postgres'),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().trim().min(1, { error: 'must not be empty' }).default('us-east-1'),
  /** Only for S3-compatible stores (MinIO, R2, ...); absent = AWS. */
  S3_ENDPOINT: z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol: /^https?$/, error: 'must be a URL such as http://127.0.0.1:9000' }).optional()),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false'], { error: 'must be true or false' }).default('false').transform((v) => v === 'true'),
  S3_PREFIX: z
    .string()
    .default('')
    .refine((p) => normalizeBlobPrefix(p) !== undefined, { error: 'must be path segments of letters, digits, . _ - separated by /' }),
  /** Both or neither; neither = the SDK's default credential chain (instance or pod role, profile). */
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
};

export type BlobStoreConfig = {
  BLOB_STORE: 'postgres' | 's3';
  S3_BUCKET?: string;
  S3_REGION: string;
  S3_ENDPOINT?: string;
  S3_FORCE_PATH_STYLE: boolean;
  S3_PREFIX: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
};

/** The checks across the blob store variables (each issue names the variable to fix). */
export function refineBlobStoreEnv(cfg: BlobStoreConfig, ctx: z.RefinementCtx): void {
  if (cfg.BLOB_STORE === 's3' && !cfg.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when BLOB_STORE=s3' });
  if (cfg.S3_ACCESS_KEY_ID && !cfg.S3_SECRET_ACCESS_KEY) {
    ctx.addIssue({ code: 'custom', path: ['S3_SECRET_ACCESS_KEY'], message: 'must be set with S3_ACCESS_KEY_ID (or leave both unset for the default AWS credential chain)' });
  }
  if (cfg.S3_SECRET_ACCESS_KEY && !cfg.S3_ACCESS_KEY_ID) {
    ctx.addIssue({ code: 'custom', path: ['S3_ACCESS_KEY_ID'], message: 'must be set with S3_SECRET_ACCESS_KEY (or leave both unset for the default AWS credential chain)' });
  }
}

export const BlobStoreEnv = z.object(blobStoreEnv).superRefine(refineBlobStoreEnv);

/** The store a configuration names: `postgres` is the fallback given (made only when chosen). */
export function blobStoreFromConfig(cfg: BlobStoreConfig, postgres: () => BlobStore): BlobStore {
  if (cfg.BLOB_STORE !== 's3') return postgres();
  return s3BlobStore({
    bucket: cfg.S3_BUCKET!,
    region: cfg.S3_REGION,
    endpoint: cfg.S3_ENDPOINT,
    prefix: cfg.S3_PREFIX,
    forcePathStyle: cfg.S3_FORCE_PATH_STYLE,
    credentials: cfg.S3_ACCESS_KEY_ID && cfg.S3_SECRET_ACCESS_KEY ? { accessKeyId: cfg.S3_ACCESS_KEY_ID, secretAccessKey: cfg.S3_SECRET_ACCESS_KEY } : undefined,
  });
}

/** Like blobStoreFromConfig, reading the environment; a bad combination throws a ConfigError. */
export function blobStoreFromEnv(env: NodeJS.ProcessEnv, postgres: () => BlobStore): BlobStore {
  return blobStoreFromConfig(parseConfig(BlobStoreEnv, env), postgres);
}

/**
 * Copies the rows of a PostgreSQL blobs table (pgBlobStore) into another store where missing
 * there: a page of names at a time and one file in memory at a time. The rows stay (a rollback to
 * BLOB_STORE=postgres finds them; dropping the table is a later, deliberate step). Idempotent;
 * run it under a lock (runExclusive) so that two replicas do not copy the same files. Returns how
 * many files were copied.
 */
export async function copyPgBlobs(em: EntityManager, to: BlobStore, opts: { table?: string; pageSize?: number } = {}): Promise<number> {
  const table = opts.table ?? 'blobs';
  const t = qualified(em, table);
  const from = pgBlobStore(em, table);
  const pageSize = opts.pageSize ?? 200;
  let after = '';
  let copied = 0;
  for (;;) {
    const rows = await em.fork().getConnection().execute<Array<{ name: string }>>(`select name from ${t} where name > ? order by name limit ?`, [after, pageSize]);
    if (rows.length === 0) break;
    // A name no object store could hold safely is not ours (ours are hex + extension): left alone.
    const names = rows.map((r) => r.name).filter(isSafeBlobName);
    for (const name of await to.missing(names)) {
      const blob = await from.get(name);
      if (!blob) continue;
      await to.put(name, blob.contentType, blob.data);
      copied += 1;
    }
    after = rows[rows.length - 1]!.name;
    if (rows.length < pageSize) break;
  }
  return copied;
}
