import type { MikroORM } from '@mikro-orm/postgresql';
import { AssignSerialsRequest, CheckSerialRequest, EndBookingsEarlyRequest, ExtendBookingsRequest, ReserveRequest, ReturnSerialRequest, RPC, StockAvailabilityRequest, UPLOAD_RPC, UploadsExistRequest } from '@dme/contracts';
import { addressLimit, blobStoreFromConfig, copyPgBlobs, createHttpApp, mountRoutes, namesOf, pgBlobStore, runExclusive, serveRpc, type BlobStore, type Logger, type NatsConnection } from '@dme/platform';
import { importUploadDir, missingUploads } from './modules/media/media.service';
import { release, reservationBatcher } from './modules/reservations/reservation.service';
import { assignSerials, checkSerial } from './modules/stock/packing.service';
import { returnSerial } from './modules/stock/returns.service';
import { availabilityOf } from './modules/stock/availability.service';
import { z } from 'zod';
import type { CatalogConfig } from './config';
import { mediaHandlers } from './modules/media/media.routes';
import { binHandlers } from './modules/bins/bin.routes';
import { productHandlers, type CardCache } from './modules/products/product.routes';
import { MicroCache } from './modules/products/card-cache';
import { stockHandlers } from './modules/stock/stock.routes';
import { bookingHandlers, type DatedCache } from './modules/bookings/booking.routes';
import { endBookingsEarly, extendBookings } from './modules/bookings/extend';
import { unitHandlers } from './modules/units/units.routes';
import { recallHandlers } from './modules/recalls/recalls.routes';
import { BinEntity } from './modules/bins/bin.entity';
import { ProductEntity, SubVariantEntity, VariantEntity } from './modules/products/product.entity';
import { StockBatchEntity, StockItemEntity } from './modules/stock/stock.entity';

export interface CatalogDeps {
  orm: MikroORM;
  config: CatalogConfig;
  logger: Logger;
  /** Called after a transaction that recorded events committed (kicks the outbox relay). */
  afterCommit?: () => void;
  /**
   * NATS, to keep the shop list's micro-cache in step across replicas: a write on one replica
   * clears the cache of every replica (core NATS, no stream). Without it the cache is this
   * process's alone.
   */
  nc?: NatsConnection;
  /** The subject of those clear messages (tests give each run its own). */
  cacheSubject?: string;
  /** The shop list's cache (tests pass one to look into it); made here when absent. */
  cards?: CardCache;
  /** Where uploads live; made from the configuration (catalogBlobStore) when absent. */
  blobs?: BlobStore;
}

/** The blob store the configuration names: the catalog's `blobs` table, or an S3 bucket (BLOB_STORE=s3). */
export function catalogBlobStore(orm: MikroORM, config: CatalogConfig): BlobStore {
  return blobStoreFromConfig(config, () => pgBlobStore(orm.em));
}

/**
 * At start: files stored before this configuration move into the configured store. With S3 the
 * rows of the `blobs` table are copied too; they stay in PostgreSQL (a way back to
 * BLOB_STORE=postgres; dropping them is a later, deliberate step). Copying skips what is already
 * there, and one replica at a time does it (advisory lock; a replica that finds it taken skips,
 * the other one copies everything). Undefined when another replica was at it.
 */
export async function moveUploadsIntoStore(opts: { orm: MikroORM; config: CatalogConfig; blobs: BlobStore }): Promise<{ fromDatabase: number; fromFolder: number } | undefined> {
  const run = await runExclusive(opts.orm.em, 'catalog:uploads-into-blob-store', async (em) => ({
    fromDatabase: opts.config.BLOB_STORE === 's3' ? await copyPgBlobs(em, opts.blobs) : 0,
    fromFolder: await importUploadDir(opts.blobs, opts.config.UPLOAD_DIR),
  }));
  return run.ran ? run.result : undefined;
}

/** Catalog replicas clear each other's shop list caches on this subject. */
export const CARD_CACHE_CLEAR_SUBJECT = 'cache.catalog.product-cards.clear';

/** The catalog service's HTTP app (no listen: tests use it directly). */
export function createApp(deps: CatalogDeps) {
  const app = createHttpApp({ name: 'catalog', logger: deps.logger });
  const afterCommit = deps.afterCommit ?? (() => undefined);
  const cards: CardCache = deps.cards ?? new MicroCache();
  cards.setTtl(deps.config.PRODUCT_LIST_CACHE_MS);
  // With the deployment's NATS prefix: another deployment's writes do not clear this one's cache.
  const subject = deps.nc ? namesOf(deps.nc).core(deps.cacheSubject ?? CARD_CACHE_CLEAR_SUBJECT) : '';
  // Every replica (this one too) hears a write and clears its list cache. A list read that began
  // before the write committed may still fill the cache with the older list: at most one TTL old.
  // The grid's availability for a day (issue 25) is cached the same way: a page of cards asked by
  // every visitor browsing that day shares one statement a second.
  const dated: DatedCache = new MicroCache();
  dated.setTtl(deps.config.PRODUCT_LIST_CACHE_MS);
  deps.nc?.subscribe(subject, {
    callback: () => {
      cards.clear();
      dated.clear();
    },
  });
  const blobs = deps.blobs ?? catalogBlobStore(deps.orm, deps.config);
  const changed = () => {
    cards.clear();
    dated.clear();
    if (deps.nc && !deps.nc.isClosed()) deps.nc.publish(subject);
    afterCommit();
  };
  app.use(async (ctx, next) => {
    ctx.state.em = deps.orm.em.fork();
    await next();
  });
  const api = mountRoutes(
    'catalog',
    { ...mediaHandlers(deps.config, blobs), ...binHandlers(), ...productHandlers(blobs, cards, changed), ...stockHandlers(changed), ...bookingHandlers(changed, dated), ...unitHandlers(changed), ...recallHandlers(changed) },
    deps.config.INTERNAL_TOKEN,
    // Anonymous uploads (registration's image), per address, shared by every replica (migration 0018).
    { limits: { upload: addressLimit(deps.orm.em, { name: 'upload', max: deps.config.UPLOAD_ANON_MAX_PER_IP, windowSeconds: 3600, anonymousOnly: true }) } },
  );
  app.use(api.routes()).use(api.allowedMethods());
  return app;
}

export const entities = [BinEntity, ProductEntity, VariantEntity, SubVariantEntity, StockBatchEntity, StockItemEntity];
export { migrations } from './migrations/0001_catalog';
export { CatalogEnv } from './config';
export { reserve, reserveOrders, release, confirm, expireHeld } from './modules/reservations/reservation.service';
export { assignSerials, checkSerial } from './modules/stock/packing.service';
export { returnSerial } from './modules/stock/returns.service';
export { startOrderConsumer } from './consumers/orders';
export { importUploadDir } from './modules/media/media.service';

/** Answers other services asking whether image paths name uploads that exist (NATS request/reply). */
export function serveUploadsExist(opts: { nc: NatsConnection; logger: Logger; blobs: BlobStore; subject?: string }) {
  const { blobs } = opts;
  return serveRpc({
    nc: opts.nc,
    subject: opts.subject ?? UPLOAD_RPC.exist,
    queue: 'catalog',
    schema: UploadsExistRequest,
    logger: opts.logger,
    handle: async ({ paths }) => ({ missing: await missingUploads(blobs, paths) }),
  });
}

/**
 * The stock commands other services wait for (NATS request/reply, DESIGN §2): reserve at checkout
 * (taken in batches, see reservationBatcher), release, check a scan and assign serials at packing
 * (which consumes the order's reservation), and what is still available of a leaf (add to cart).
 * Replicas share them through a queue group.
 */
export function serveReservations(opts: {
  nc: NatsConnection;
  orm: MikroORM;
  logger: Logger;
  subjects?: { reserve: string; release: string; assignSerials?: string; checkSerial?: string; returnSerial?: string; availability?: string; extendBookings?: string; endBookingsEarly?: string };
}) {
  const subjects = { ...RPC, ...opts.subjects };
  const reserve = reservationBatcher(opts.orm.em);
  return [
    serveRpc({ nc: opts.nc, subject: subjects.reserve, queue: 'catalog', schema: ReserveRequest, logger: opts.logger, handle: reserve }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.release,
      queue: 'catalog',
      schema: z.object({ orderId: z.string().uuid() }),
      logger: opts.logger,
      handle: async ({ orderId }) => ({ released: await release(opts.orm.em.fork(), orderId) }),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.assignSerials,
      queue: 'catalog',
      schema: AssignSerialsRequest,
      logger: opts.logger,
      handle: (input) => assignSerials(opts.orm.em.fork(), input),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.checkSerial,
      queue: 'catalog',
      schema: CheckSerialRequest,
      logger: opts.logger,
      handle: (input) => checkSerial(opts.orm.em.fork(), input),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.returnSerial,
      queue: 'catalog',
      schema: ReturnSerialRequest,
      logger: opts.logger,
      handle: (input) => returnSerial(opts.orm.em.fork(), input),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.extendBookings,
      queue: 'catalog',
      schema: ExtendBookingsRequest,
      logger: opts.logger,
      handle: (input) => extendBookings(opts.orm.em.fork(), input),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.endBookingsEarly,
      queue: 'catalog',
      schema: EndBookingsEarlyRequest,
      logger: opts.logger,
      handle: (input) => endBookingsEarly(opts.orm.em.fork(), input),
    }),
    serveRpc({
      nc: opts.nc,
      subject: subjects.availability,
      queue: 'catalog',
      schema: StockAvailabilityRequest,
      logger: opts.logger,
      handle: (input) => availabilityOf(opts.orm.em.fork(), input),
    }),
  ];
}
