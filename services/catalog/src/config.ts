import { resolve } from 'node:path';
import { z } from 'zod';
import { blobStoreEnv, portSchema, refineBlobStoreEnv, serviceEnv } from '@dme/platform';

export const CatalogEnv = z.object({
  ...serviceEnv,
  PORT: portSchema.default(4102),
  /** Where uploads live: BLOB_STORE=postgres (default) or s3 with S3_BUCKET, S3_ENDPOINT, ... (platform blobs-s3). */
  ...blobStoreEnv,
  /** The upload folder of an installation from before uploads moved into the blob store: its files are copied in at start. */
  UPLOAD_DIR: z.string().min(1).default('.data/uploads').transform((p) => resolve(p)),
  /** Largest image a signed-in user may upload. */
  UPLOAD_MAX_BYTES: z.coerce.number().int().min(1024).default(5 * 1024 * 1024),
  /** Largest image an anonymous visitor (registration) may upload. */
  UPLOAD_ANON_MAX_BYTES: z.coerce.number().int().min(1024).default(2 * 1024 * 1024),
  /**
   * Uploads one address may make in an hour without being signed in (registration); more get 429.
   * Counted in PostgreSQL (catalog.rate_limits), so every replica shares the count.
   */
  UPLOAD_ANON_MAX_PER_IP: z.coerce.number().int().min(1).default(60),
  /** How long the shop's product list answer is reused (ms); 0 turns the micro-cache off. */
  PRODUCT_LIST_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
}).superRefine(refineBlobStoreEnv);
export type CatalogConfig = z.output<typeof CatalogEnv>;
