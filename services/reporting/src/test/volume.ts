import { qualified, sql, type Db } from '@dme/platform';

/**
 * Fills the read models with a volume of orders straight in SQL (for benches and the large
 * export test): `orders` orders spread evenly over `days` Manila days from `firstDay`, half
 * purchases (two lines, paid in full when placed) and half rentals (two lines, first payment taken; every
 * third asked for its full payment with an extra charge, every ninth then paid), over 50 products.
 * Rental money (issue 29): every fifth rental took a ₱100.00 deposit (settled at its full payment's
 * request: ₱12.50 applied, ₱87.50 refunded a day later), every fourth one asked had ₱20.00 late fees
 * charged and ₱5.00 waived.
 */
export async function seedVolume(db: Db, opts: { orders: number; firstDay: string; days: number }): Promise<void> {
  const o = qualified(db, 'orders');
  const l = qualified(db, 'order_lines');
  const p = qualified(db, 'payments');
  const pr = qualified(db, 'products');
  await sql(
    db,
    `insert into ${pr} (id, brand, name, version)
     select md5('product' || i)::uuid, 'Brand ' || (i % 7), 'Product ' || i, 1 from generate_series(1, 50) i on conflict do nothing`,
  );
  await sql(
    db,
    `insert into ${o} (id, order_number, customer_id, customer_name, type, total_amount, partial_payment, placed_at, status, status_at,
            payment_status, first_paid_at, full_paid_at, full_asked_at, full_due_date, extra_charge,
            full_balance, deposit, late_fees, late_fees_waived, deposit_applied, deposit_refund)
     select md5('order' || i || $2)::uuid, 'ORD-V-' || lpad(i::text, 7, '0'), md5('customer' || (i % 5000))::uuid, 'Customer ' || (i % 5000),
            case when i % 2 = 0 then 'BUY' else 'RENT' end,
            case when i % 2 = 0 then 3 * ((i % 40) + 10.25) else 2 * ((i % 40) + 10.25) * 3 + ((i % 40) + 10.25) * 2 end,
            case when i % 2 = 0 then null else 2 * ((i % 40) + 10.25) + ((i % 40) + 10.25) end,
            t, 'PREPARING', t,
            case when i % 2 = 0 or i % 9 = 1 then 'PAID' when i % 3 = 1 then 'FOR_FULL_PAYMENT' else 'INITIAL_PAYMENT' end, t, case when i % 2 = 0 then t when i % 9 = 1 then t + interval '3 days' end,
            case when i % 2 = 1 and i % 3 = 1 then t + interval '2 days' end,
            case when i % 2 = 1 and i % 3 = 1 then ((t + interval '2 days') at time zone 'Asia/Manila')::date + 1 end,
            case when i % 2 = 1 and i % 3 = 1 then 12.50 end,
            case when i % 2 = 1 and i % 3 = 1 then 2 * ((i % 40) + 10.25) * 3 + ((i % 40) + 10.25) * 2 - (2 * ((i % 40) + 10.25) + ((i % 40) + 10.25)) + 12.50 end,
            case when i % 2 = 1 and i % 5 = 1 then 100 else 0 end,
            case when i % 2 = 1 and i % 3 = 1 and i % 4 = 1 then 20.00 end,
            case when i % 2 = 1 and i % 3 = 1 and i % 4 = 1 then 5.00 end,
            case when i % 2 = 1 and i % 3 = 1 and i % 5 = 1 then 12.50 end,
            case when i % 2 = 1 and i % 3 = 1 and i % 5 = 1 then 87.50 end
     from (select i, ($1::date::timestamp at time zone 'Asia/Manila') + (i::double precision / $3 * $4) * interval '1 day' as t
           from generate_series(1, $3::int) i) s`,
    [opts.firstDay, opts.firstDay, opts.orders, opts.days],
  );
  await sql(
    db,
    `insert into ${l} (order_id, line_no, product_id, variant_id, sub_variant_id, product_name, variant_name, sub_variant_name, quantity, no_of_rental_days, unit_price, line_total)
     select x.id, n, md5('product' || ((x.k * 7 + n) % 50 + 1))::uuid, null, null, 'Product ' || ((x.k * 7 + n) % 50 + 1), null, null,
            case when n = 1 then 2 else 1 end, case when x.type = 'RENT' then case when n = 1 then 3 else 2 end end, (x.k % 40) + 10.25,
            case when n = 1 then 2 else 1 end * ((x.k % 40) + 10.25) * coalesce(case when x.type = 'RENT' then case when n = 1 then 3 else 2 end end, 1)
     from (select id, type, substr(order_number, 7)::int as k from ${o} where order_number like 'ORD-V-%') x cross join generate_series(1, 2) n
     on conflict do nothing`,
  );
  await sql(
    db,
    `insert into ${p} (payment_id, type, order_id, order_number, order_type, amount, balance_after, status_after, invoice_number, receipt_number, confirmed_at, accommodated_by, version, deposit)
     select md5('payment' || o.id)::uuid, case when o.type = 'BUY' then 'FULL' else 'PARTIAL' end, o.id, o.order_number, o.type,
            coalesce(o.partial_payment, o.total_amount) + o.deposit, o.total_amount - coalesce(o.partial_payment, o.total_amount), 'PAID',
            'INV-' || o.order_number, 'OR-' || o.order_number, o.first_paid_at, md5('staff')::uuid, 2, o.deposit
     from ${o} o where o.order_number like 'ORD-V-%'
     union all
     select md5('payment' || o.id)::uuid, 'FULL', o.id, o.order_number, 'RENT', o.total_amount - o.partial_payment + coalesce(o.extra_charge, 0), 0, 'PAID',
            'INV-F-' || o.order_number, 'OR-F-' || o.order_number, o.full_paid_at, md5('staff')::uuid, 3, 0
     from ${o} o where o.order_number like 'ORD-V-%' and o.type = 'RENT' and o.full_paid_at is not null
     on conflict do nothing`,
  );
  const rf = qualified(db, 'refunds');
  await sql(
    db,
    `insert into ${rf} (refund_id, payment_id, order_id, order_number, number, kind, method, amount, refunded_at)
     select md5('refund' || o.id)::uuid, md5('payment' || o.id)::uuid, o.id, o.order_number, 'RF-V-' || substr(o.order_number, 7), 'DEPOSIT', 'BANK_TRANSFER',
            o.deposit_refund, o.full_asked_at + interval '1 day'
     from ${o} o where o.order_number like 'ORD-V-%' and o.deposit_refund > 0
     on conflict do nothing`,
  );
  for (const t of [o, l, p, pr, rf]) await sql(db, `analyze ${t}`);
}
