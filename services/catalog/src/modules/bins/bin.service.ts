import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CATALOG_MESSAGES, type Bin } from '@dme/contracts';
import { conflict, containsPattern, isForeignKeyViolation, isUniqueViolation, notFound, qualified, newId } from '@dme/platform';
import type { z } from 'zod';
import type { BinRequest as BinRequestSchema } from '@dme/contracts';
import { BinEntity, type BinRow } from './bin.entity';

type BinInput = z.output<typeof BinRequestSchema>;
const M = CATALOG_MESSAGES.bin;

export function toBin(row: BinRow, stockCount: number): Bin {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    stockCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function stockCounts(em: EntityManager, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<Array<{ id: string; n: number }>>(
    `select warehouse_bin_id as id, count(*)::int as n from ${qualified(em, 'stock_items')} where warehouse_bin_id = any(?::uuid[]) group by 1`,
    [`{${ids.join(',')}}`],
  );
  return new Map(rows.map((r) => [r.id, r.n]));
}

async function save(em: EntityManager): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(M.nameTaken);
    throw err;
  }
}

export async function createBin(em: EntityManager, input: BinInput): Promise<Bin> {
  const now = new Date();
  const bin = em.create(BinEntity, { id: newId(), name: input.name, description: input.description, createdAt: now, updatedAt: now });
  em.persist(bin);
  await save(em);
  return toBin(bin, 0);
}

export async function findBin(em: EntityManager, id: string): Promise<BinRow> {
  const bin = await em.findOne(BinEntity, { id });
  if (!bin) throw notFound('Warehouse bin not found.');
  return bin;
}

export async function getBin(em: EntityManager, id: string): Promise<Bin> {
  const bin = await findBin(em, id);
  return toBin(bin, (await stockCounts(em, [id])).get(id) ?? 0);
}

export async function updateBin(em: EntityManager, id: string, input: BinInput): Promise<Bin> {
  const bin = await findBin(em, id);
  em.assign(bin, { name: input.name, description: input.description, updatedAt: new Date() });
  await save(em);
  return toBin(bin, (await stockCounts(em, [id])).get(id) ?? 0);
}

/** An empty bin can be deleted; one that holds stock (now or in its history) cannot. */
export async function deleteBin(em: EntityManager, id: string): Promise<void> {
  try {
    await em.transactional(async (tem) => {
      // The row lock waits for an Add Stock into this bin that is running now (it holds a share lock).
      const bin = await tem.findOne(BinEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!bin) throw notFound('Warehouse bin not found.');
      const n = (await stockCounts(tem, [id])).get(id) ?? 0;
      if (n > 0) throw conflict(M.holdsStock);
      tem.remove(bin);
      await tem.flush();
    });
  } catch (err) {
    // Stock added in the meantime: the (deferred) foreign key keeps the bin, at commit.
    if (isForeignKeyViolation(err)) throw conflict(M.holdsStock);
    throw err;
  }
}

export async function listBins(em: EntityManager, f: { search?: string; limit: number; offset: number }): Promise<{ items: Bin[]; total: number }> {
  const where: Record<string, unknown> = {};
  if (f.search) where.name = { $ilike: containsPattern(f.search) };
  const [rows, total] = await em.findAndCount(BinEntity, where, { orderBy: { name: 'asc' }, limit: f.limit, offset: f.offset });
  const counts = await stockCounts(em, rows.map((r) => r.id));
  return { items: rows.map((r) => toBin(r, counts.get(r.id) ?? 0)), total };
}

