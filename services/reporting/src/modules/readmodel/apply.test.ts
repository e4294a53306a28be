import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type EventEnvelope } from '@dme/contracts';
import { createOrm, migrate, type Orm } from '@dme/platform';
import { createTestDatabase } from '@dme/testing';
import { entities, migrations } from '../../app';
import { tableRows } from '../../test/harness';
import { paymentIdOf, scriptedHistory } from '../../test/scenario';
import { applyReportingEvents } from './apply';

/**
 * The read model's facts are written one statement per kind and batch (issue 30: fewer statements
 * per order): a whole history applied as one batch must leave exactly the tables that applying
 * its events one at a time leaves, also with an order placed twice (two events) in the batch.
 */
let drop: () => Promise<void>;
const orms: Orm[] = [];
beforeAll(async () => {
  const db = await createTestDatabase('reporting_apply');
  drop = db.drop;
  for (const schema of ['reporting', 'reporting_one']) {
    const orm = await createOrm({ url: db.url, schema, entities, migrations, poolMax: 2 });
    await migrate(orm, schema, db.url);
    orms.push(orm);
  }
});
afterAll(async () => {
  for (const orm of orms) await orm.close();
  await drop?.();
});

const TABLES: Array<[string, string]> = [
  ['orders', 'id'],
  ['order_lines', 'order_id, line_no'],
  ['order_status_events', 'event_id'],
  ['payments', 'payment_id, type, cycle'],
  ['refunds', 'refund_id'],
];

describe('the read model applied in batches', () => {
  it('one batch of a whole history (an order placed twice, a refund) leaves the same rows as its events applied one at a time', async () => {
    const { events, orders } = scriptedHistory();
    const placedB1 = events.find((e) => e.type === EVENTS.order.placed && e.aggregateId === orders.B1.orderId)!;
    // The same order placed again by another event (other figures, one line more): the first one holds.
    const again: EventEnvelope = {
      ...placedB1,
      id: randomUUID(),
      data: { ...orders.B1, totalAmount: '999.00', lines: [...orders.B1.lines, { ...orders.B1.lines[0]!, quantity: 9 }] },
    };
    const refund: EventEnvelope = {
      ...placedB1,
      id: randomUUID(),
      type: EVENTS.payment.refundRecorded,
      data: {
        refundId: randomUUID(), paymentId: paymentIdOf(orders.R1), orderId: orders.R1.orderId, orderNumber: orders.R1.orderNumber, customerId: orders.R1.customerId,
        orderType: 'RENT', number: 'RF-000001', kind: 'DEPOSIT', method: 'CASH', amount: '20.00', status: 'PAID', refundedAt: '2026-03-02T03:00:00.000Z',
      },
    };
    const at = events.indexOf(placedB1) + 1;
    const all = [...events.slice(0, at), again, ...events.slice(at), refund];
    const [batched, oneByOne] = orms as [Orm, Orm];
    await batched.em.fork().transactional((tem) => applyReportingEvents(tem, all));
    for (const e of all) await oneByOne.em.fork().transactional((tem) => applyReportingEvents(tem, [e]));
    for (const [table, key] of TABLES) {
      const rows = await tableRows(batched, 'reporting', table, 'true', key);
      expect(rows.length, `${table} has rows`).toBeGreaterThan(0);
      expect(rows, table).toEqual(await tableRows(oneByOne, 'reporting_one', table, 'true', key));
    }
    const [b1] = await tableRows(batched, 'reporting', 'orders', 'id = $1', 'id', [orders.B1.orderId]);
    expect(b1).toContain('175.98');
    expect(await tableRows(batched, 'reporting', 'order_lines', 'order_id = $1', 'line_no', [orders.B1.orderId])).toHaveLength(orders.B1.lines.length);
  });

  it('an order whose derived columns are already right is not written again (no new row version, no report day marked)', async () => {
    const { events } = scriptedHistory();
    const [orm] = orms as [Orm, Orm];
    await orm.em.fork().transactional((tem) => applyReportingEvents(tem, events));
    const versions = () =>
      orm.em.fork().getConnection().execute<Array<{ id: string; v: string }>>(`select id, xmin::text as v from reporting.orders order by id`);
    const before = await versions();
    const rows = await tableRows(orm, 'reporting', 'orders', 'true', 'id');
    await orm.em.fork().getConnection().execute(`delete from reporting.report_dirty_days`, [], 'run');
    // The same events again (a consumer's inbox would skip them; here the facts are skipped by
    // their keys): every order is refreshed, and none has anything new.
    await orm.em.fork().transactional((tem) => applyReportingEvents(tem, events));
    expect(await versions()).toEqual(before);
    expect(await tableRows(orm, 'reporting', 'orders', 'true', 'id')).toEqual(rows);
    expect(await tableRows(orm, 'reporting', 'report_dirty_days', 'true', 'day')).toEqual([]);
  });
});
