import type { BlobStore, HandlersOf } from '@dme/platform';
import type { CatalogConfig } from '../../config';
import { openImage, readOneImage, storeImage } from './media.service';

export function mediaHandlers(config: CatalogConfig, blobs: BlobStore): Pick<HandlersOf<'catalog'>, 'uploadsCreate' | 'uploadsGet'> {
  return {
    async uploadsCreate(ctx, { principal }) {
      // Registration needs an image before the account exists: anonymous uploads are allowed but small.
      const max = principal ? config.UPLOAD_MAX_BYTES : config.UPLOAD_ANON_MAX_BYTES;
      const data = await readOneImage(ctx.req, max);
      return storeImage(blobs, data);
    },
    async uploadsGet(ctx, { params }) {
      const img = await openImage(blobs, params.name);
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      ctx.set('Content-Length', String(img.size));
      ctx.set('Last-Modified', img.mtime.toUTCString());
      ctx.type = img.type;
      ctx.body = img.data;
    },
  };
}
