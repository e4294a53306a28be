import { z } from 'zod';

export const UploadResponse = z.object({
  imagePath: z.string(),
  contentType: z.enum(['image/jpeg', 'image/png']),
  size: z.number().int(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export const UploadNameParams = z.object({ name: z.string().regex(/^[A-Za-z0-9._-]+$/) });
