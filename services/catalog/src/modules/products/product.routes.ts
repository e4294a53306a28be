import { CATALOG_MESSAGES } from '@dme/contracts';
import { badRequest, type BlobStore, type HandlersOf } from '@dme/platform';
import { MESSAGES } from '@dme/contracts';
import { missingUploads } from '../media/media.service';
import { em } from '../bins/bin.routes';
import { createProduct, deleteProduct, getProduct } from './product.service';
import { updateProduct } from './product-edit';
import { listProductCards, listProducts } from './product-list';
import type { MicroCache } from './card-cache';

/** The shop list's micro-cache of one catalog process (see createApp: cleared on every replica by a catalog write). */
export type CardCache = MicroCache<Awaited<ReturnType<typeof listProductCards>>>;

type ProductHandlers = Pick<
  HandlersOf<'catalog'>,
  'productsList' | 'productsGet' | 'productsCreate' | 'productsUpdate' | 'productsDelete' | 'adminProductsList' | 'adminProductsGet'
>;

/** The product's image must name an upload stored here. */
async function assertImageStored(blobs: BlobStore, image: string): Promise<void> {
  if ((await missingUploads(blobs, [image])).length) {
    throw badRequest(MESSAGES.upload.notFound, [{ field: 'image', message: MESSAGES.upload.notFound }]);
  }
}

/** `changed` runs after every committed catalog write (clears the list caches, kicks the outbox relay). */
export function productHandlers(blobs: BlobStore, cardCache: CardCache, changed: () => void): ProductHandlers {
  const filter = (q: { type?: 'FOR_RENT' | 'FOR_SALE'; search?: string; limit: number; offset: number }) => ({
    ...(q.type ? { type: q.type } : {}),
    ...(q.search ? { search: q.search } : {}),
    limit: q.limit,
    offset: q.offset,
  });
  return {
    productsList: (ctx, { query }) => {
      const f = {
        ...filter(query),
        ...(query.minPrice !== undefined ? { minPrice: query.minPrice } : {}),
        ...(query.maxPrice !== undefined ? { maxPrice: query.maxPrice } : {}),
        ...(query.available ? { available: true } : {}),
      };
      return cardCache.get(JSON.stringify(f), () => listProductCards(em(ctx), f));
    },
    productsGet: async (ctx, { params }) => ({ product: await getProduct(em(ctx), params.id, { includeArchived: false }) }),
    adminProductsList: (ctx, { query }) => listProducts(em(ctx), { ...filter(query), includeArchived: query.includeArchived }),
    adminProductsGet: async (ctx, { params }) => ({ product: await getProduct(em(ctx), params.id, { includeArchived: true }) }),
    async productsCreate(ctx, { body }) {
      await assertImageStored(blobs, body.image);
      const product = await createProduct(em(ctx), body);
      changed();
      return { product };
    },
    async productsUpdate(ctx, { params, body }) {
      await assertImageStored(blobs, body.image);
      const product = await updateProduct(em(ctx), params.id, body);
      changed();
      return { product };
    },
    async productsDelete(ctx, { params }) {
      const result = await deleteProduct(em(ctx), params.id);
      changed();
      return { result, message: result === 'archived' ? CATALOG_MESSAGES.product.archived : CATALOG_MESSAGES.product.deleted };
    },
  };
}
