import { z } from 'zod';

export const UploadResponse = z.object({
  imagePath: z.string(),
  contentType: z.enum(['image/jpeg', 'image/png']),
  size: z.number().int(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

/** The file name part of an upload path (see UPLOAD_PATH_PATTERN): 32 hex digits, .png or .jpg. */
export const UploadNameParams = z.object({ name: z.string().regex(/^[0-9a-f]{32}\.(png|jpg)$/) });

/**
 * An uploaded image path as the catalog hands it out: /api/uploads/<32 hex>.png|jpg. Services that
 * store such a path ask the catalog whether it names an upload that exists (NATS request/reply).
 */
export const UPLOAD_PATH_PATTERN = /^\/api\/uploads\/[0-9a-f]{32}\.(png|jpg)$/;
export const UPLOAD_RPC = { exist: 'rpc.catalog.uploads-exist' } as const;
export const UploadsExistRequest = z.object({ paths: z.array(z.string().max(300)).min(1).max(20) });
export const UploadsExistReply = z.object({ missing: z.array(z.string()) });
export type UploadsExistReply = z.infer<typeof UploadsExistReply>;
