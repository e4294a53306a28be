import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, migrate, type Orm } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { entities, migrations } from '../app';
import { leaf, ledger, recount } from '@dme/testing/ledger';
import { countsFor } from '../modules/stock/counts';
import { release, reserve } from '../modules/reservations/reservation.service';
import { addStock } from '../modules/stock/stock.service';

/** 0004_stock_levels (and the later ones) on an installation that already has stock and reservations. */
let db: { url: string; drop: () => Promise<void> };
let orm: Orm;
beforeAll(async () => {
  db = await createTestDatabase('catalog');
  orm = await createOrm({ url: db.url, schema: 'catalog', entities, migrations, poolMax: 5 });
});
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

describe('migration 0004_stock_levels', () => {
  it('backfills one level per leaf from existing stock items and active reservations, merging lines of one order and leaf', async () => {
    const em = () => orm.em.fork();
    await em().execute('create schema if not exists catalog');
    await orm.getMigrator().up({ to: '0003_versions' });

    const bin = randomUUID();
    const chair = randomUUID();
    const cane = randomUUID();
    const std = randomUUID();
    const heavy = randomUUID();
    const s16 = randomUUID();
    const s18 = randomUUID();
    await em().execute(`insert into catalog.warehouse_bins (id, name, description) values (?, 'A', 'a')`, [bin]);
    await em().execute(
      `insert into catalog.products (id, name, brand, description, type, image, price, damage_charges) values
         (?, 'Chair', 'B', 'd', 'FOR_RENT', '/x.png', 15, 100), (?, 'Cane', 'B', 'd', 'FOR_RENT', '/x.png', 5, 10)`,
      [chair, cane],
    );
    await em().execute(`insert into catalog.variants (id, product_id, name, position, price, damage_charges) values (?, ?, 'Standard', 0, null, null), (?, ?, 'Heavy', 1, 20, 150)`, [std, chair, heavy, chair]);
    await em().execute(`insert into catalog.sub_variants (id, variant_id, name, position, price, damage_charges) values (?, ?, '16 in', 0, 15, 100), (?, ?, '18 in', 1, 16, 100)`, [s16, std, s18, std]);
    const batch = randomUUID();
    await em().execute(`insert into catalog.stock_batches (id, product_id, warehouse_bin_id, quantity) values (?, ?, ?, 1)`, [batch, chair, bin]);
    let serial = 0;
    const items = (product: string, variant: string | null, sub: string | null, statuses: string[]) =>
      em().execute(
        `insert into catalog.stock_items (id, serial_code, product_id, variant_id, sub_variant_id, warehouse_bin_id, batch_id, status, inventory_type)
         select gen_random_uuid(), 'OLD-' || (? + n), ?, ?, ?, ?, ?, s, 'IN' from unnest(?::text[]) with ordinality as t(s, n)`,
        [(serial += 100), product, variant, sub, bin, batch, `{${statuses.join(',')}}`],
      );
    await items(chair, std, s16, ['AVAILABLE', 'AVAILABLE', 'AVAILABLE', 'AVAILABLE', 'RENTED', 'DAMAGED']);
    await items(chair, std, s18, ['AVAILABLE', 'SOLD', 'LOST']);
    await items(chair, heavy, null, ['AVAILABLE', 'AVAILABLE', 'AVAILABLE']);
    await items(cane, null, null, ['AVAILABLE', 'AVAILABLE', 'SOLD', 'SOLD']);
    const twoLines = randomUUID();
    const confirmed = randomUUID();
    const gone = randomUUID();
    const held = (order: string, product: string, variant: string | null, sub: string | null, quantity: number, status: string) =>
      em().execute(
        `insert into catalog.reservations (id, order_id, product_id, variant_id, sub_variant_id, leaf_id, quantity, status, expires_at)
         values (gen_random_uuid(), ?, ?, ?, ?, ?, ?, ?, now() + interval '15 minutes')`,
        [order, product, variant, sub, sub ?? variant ?? product, quantity, status],
      );
    await held(twoLines, chair, std, s16, 1, 'HELD');
    await held(twoLines, chair, std, s16, 2, 'HELD');
    await held(twoLines, cane, null, null, 1, 'HELD');
    await held(confirmed, chair, heavy, null, 2, 'CONFIRMED');
    await held(gone, chair, heavy, null, 1, 'RELEASED');
    await held(gone, cane, null, null, 1, 'EXPIRED');
    const before = await recount(em(), [chair, cane]);

    expect(await migrate(orm, 'catalog', db.url)).toEqual(['0004_stock_levels', '0005_price_range', '0006_packing', '0007_uploads', '0008_bookings', '0009_booking_extensions', '0010_unit_lifecycle', '0011_maintenance', '0012_recalls', '0013_bin_audits', '0014_product_search', '0015_search_index_direct', '0016_rental_terms', '0017_bought_out', '0018_rate_limits', 'platform_0001_consumer_failures']);

    // 0005: the list's price range on each product row, over what a customer can pick.
    const ranges = await em().execute<Array<{ id: string; price_min: string; price_max: string }>>(`select id, price_min, price_max from catalog.products order by name`);
    expect(ranges).toEqual([
      { id: cane, price_min: '5.00', price_max: '5.00' },
      { id: chair, price_min: '15.00', price_max: '20.00' },
    ]);

    const levels = await ledger(em(), [chair, cane]);
    expect(levels).toEqual(before);
    expect(Object.fromEntries(levels)).toEqual({
      [s16]: leaf({ quantity: 6, available: 4, rented: 1, damaged: 1, lost: 0, sold: 0, reserved: 3 }),
      [s18]: leaf({ quantity: 3, available: 1, rented: 0, damaged: 0, lost: 1, sold: 1, reserved: 0 }),
      [heavy]: leaf({ quantity: 3, available: 3, rented: 0, damaged: 0, lost: 0, sold: 0, reserved: 2 }),
      [cane]: leaf({ quantity: 4, available: 2, rented: 0, damaged: 0, lost: 0, sold: 2, reserved: 1 }),
    });
    const merged = await em().execute<Array<{ leaf_id: string; quantity: number }>>(`select leaf_id, quantity from catalog.reservations where order_id = ? order by quantity`, [twoLines]);
    expect(merged).toEqual([{ leaf_id: cane, quantity: 1 }, { leaf_id: s16, quantity: 3 }]);
    const counts = await countsFor(em(), [chair, cane]);
    expect(counts.product(chair)).toEqual({
      quantity: 12, availableQuantity: 3, rentedQuantity: 1, damagedQuantity: 1, lostQuantity: 1, soldQuantity: 1,
      servicingQuantity: 0, repairQuantity: 0, heldQuantity: 0, retiredQuantity: 0,
    });
    // 0010: every unit there was starts its chain of custody as stocked, in its bin.
    const [stocked] = await em().execute<Array<{ units: number; entries: number }>>(
      `select (select count(*)::int from catalog.stock_items) as units,
              (select count(*)::int from catalog.custody_events c join catalog.stock_items i on i.id = c.stock_item_id and c.bin_id = i.warehouse_bin_id where c.kind = 'STOCKED') as entries`,
    );
    expect(stocked!.entries).toBe(stocked!.units);
    expect(counts.variant(std).availableQuantity).toBe(2);

    // The ledger keeps going from there: Add Stock, reserve and release move it.
    await addStock(em(), { productID: cane, warehouseBinID: bin, quantity: 2, productVariantID: null, productSubVariantID: null }, null);
    await expect(reserve(em(), { orderId: randomUUID(), orderType: 'RENT', lines: [{ ref: 0, productID: cane, productVariantID: null, productSubVariantID: null, quantity: 4 }] })).rejects.toMatchObject({ status: 409 });
    const dated = randomUUID();
    await reserve(em(), { orderId: dated, orderType: 'RENT', lines: [{ ref: 0, productID: cane, productVariantID: null, productSubVariantID: null, quantity: 3 }] });
    expect(await release(em(), twoLines)).toBe(2);
    expect(await ledger(em(), [chair, cane])).toEqual(await recount(em(), [chair, cane]));
    // Since 0008_bookings a rental holds its units by bookings (issue 25): `reserved` counts the
    // undated holds of older orders only, the one held above is given back.
    expect((await ledger(em(), [cane])).get(cane)).toMatchObject({ quantity: 6, available: 4, reserved: 0 });
    const [booked] = await em().execute<Array<{ n: number }>>(`select count(*)::int as n from catalog.bookings where order_id = ? and status = 'ACTIVE'`, [dated]);
    expect(booked!.n).toBe(3);
    expect((await countsFor(em(), [cane])).product(cane).availableQuantity).toBe(1);
  });
});
