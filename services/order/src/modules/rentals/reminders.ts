import type { EntityManager } from '@mikro-orm/postgresql';
import { billingCycles, centsToString, CYCLE_DAYS, cycleDue, cycleLines, EVENTS, lineDueDate, manilaDate, reminderDayAt, rentalReminder, toCents, type Billing, type OrderStatus, type RentalReminder } from '@dme/contracts';
import { eventEnvelope, outboxInsertFrom, PollingLoop, qualified, sql, type Logger } from '@dme/platform';
import { SOURCE } from '../../events';
import { cyclesPaidColumns, lastCyclePaidSql } from '../orders/cycles-paid';

/**
 * Rental reminders on a durable schedule (issue 24). Every replica runs the same round every
 * minute (and at start); what makes a reminder go out once is the database, not the clock: the
 * round writes `reminders (order_id, day)` and the reminder's event in one statement, and a second
 * replica's insert of the same row writes nothing. Missed while every replica was down: the first
 * round after start sends today's reminders (from 09:00 Manila) if they are still true; a day that
 * passed entirely is not sent late.
 *
 * What a rental gets on a day is the terms module's `rentalReminder` (due tomorrow, due today,
 * overdue, full payment due, a billing cycle due); the identity service turns the event into the e-mail.
 */
interface Candidate {
  id: string;
  order_number: string;
  customer_id: string;
  status: OrderStatus;
  delivered_at: Date | string | null;
  full_payment_due: string | null;
  days: number[];
  /** Issue 29: how its rent is billed, and for cycles its lines and what the first and cycle payments took. */
  billing: Billing;
  partial_payment: string | null;
  cycle_rent_paid: string;
  last_cycle_paid: number;
  cycle_lines: Array<{ noOfRentalDays: number | null; unitPrice: string; quantity: number }> | null;
}

/**
 * Rentals that may need a reminder today and have had none yet today. Which do is `rentalReminder`'s
 * to say; this only leaves out those it cannot pick, read by the rentals' due index (issue 30: the
 * round read every rental out, each minute — 19,000 at a busy shop's year end): one out gets a
 * reminder only if a line is due by tomorrow (its kept due date, the earliest line's, by then) or,
 * billed by cycles, the cycle after the last one paid is due by then (a cycle is due on its first
 * day, contracts `billingCycles`: the delivered day plus 30 days per cycle before it; the oldest
 * unpaid cycle `cycleDue` picks is that one or a later one); one asked for its full payment only
 * from its due date.
 */
export function candidates(em: EntityManager, day: string): Promise<Candidate[]> {
  const t = (n: string) => qualified(em, n);
  return em.execute<Candidate[]>(
    `select o.id, o.order_number, o.customer_id, o.status, o.delivered_at, o.full_payment_due::text as full_payment_due,
            coalesce((select json_agg(l.no_of_rental_days) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null), '[]'::json) as days,
            o.billing, o.partial_payment::text as partial_payment, ${cyclesPaidColumns(em)},
            case when o.billing = 'CYCLES' then (select json_agg(json_build_object('noOfRentalDays', l.no_of_rental_days, 'unitPrice', l.unit_price::text, 'quantity', l.quantity))
                                                   from ${t('order_lines')} l where l.order_id = o.id) end as cycle_lines
       from ${t('orders')} o
      where o.type = 'RENT'
        and ((o.status in ('DELIVERED', 'FOR_RETURN') and o.delivered_at is not null
              and (o.due_on <= ?::date + 1
                   or (o.billing = 'CYCLES' and (o.delivered_at at time zone 'Asia/Manila')::date + ${CYCLE_DAYS} * ${lastCyclePaidSql(em)} <= ?::date)))
             or (o.status = 'FOR_FULL_PAYMENT' and o.full_payment_due <= ?::date))
        and not exists (select 1 from ${t('reminders')} r where r.order_id = o.id and r.day = ?::date)`,
    [day, day, day, day],
  );
}

/** The oldest cycle not paid yet of a rental billed by cycles, due by `day` (issue 29, rental-money `cycleDue`), with what it takes. */
function cycleDueOf(c: Candidate, deliveredAt: Date | null, day: string) {
  if (c.billing !== 'CYCLES' || !deliveredAt || !c.cycle_lines) return null;
  const cycles = billingCycles(manilaDate(deliveredAt), cycleLines(c.cycle_lines));
  return cycleDue(cycles, { lastCycle: c.last_cycle_paid, rentPaidCents: toCents(c.partial_payment ?? '0') + toCents(c.cycle_rent_paid), today: day });
}

/** Today's reminder of one rental, and the date it is about (a cycle's, with its figures); null when nothing is due. */
export function reminderOf(c: Candidate, day: string): { kind: RentalReminder; dueDate: string; cycle: { n: number; from: string; to: string; amount: string } | null } | null {
  const deliveredAt = c.delivered_at ? new Date(c.delivered_at) : null;
  const dueDates = deliveredAt ? c.days.map((d) => lineDueDate(deliveredAt, d)).sort() : [];
  const cycle = cycleDueOf(c, deliveredAt, day);
  const kind = rentalReminder(c.status, dueDates, c.full_payment_due, day, cycle?.cycle.dueOn ?? null);
  if (!kind) return null;
  if (kind === 'CYCLE_DUE') return { kind, dueDate: cycle!.cycle.dueOn, cycle: { n: cycle!.cycle.n, from: cycle!.cycle.from, to: cycle!.cycle.to, amount: centsToString(cycle!.cents) } };
  if (kind === 'FULL_PAYMENT_DUE') return { kind, dueDate: c.full_payment_due!, cycle: null };
  // The earliest line the reminder is about: past due (overdue), today, or tomorrow.
  const dueDate = kind === 'OVERDUE' ? dueDates[0]! : dueDates.find((d) => d >= day)!;
  return { kind, dueDate, cycle: null };
}

/** One round: writes the day's due reminders (row + event, once); answers how many it wrote. */
export async function writeDueReminders(em: EntityManager, now: Date = new Date(), from?: string): Promise<number> {
  const day = reminderDayAt(now, from);
  if (!day) return 0;
  let written = 0;
  for (const c of await candidates(em, day)) {
    const due = reminderOf(c, day);
    if (!due) continue;
    const event = eventEnvelope(SOURCE, {
      type: EVENTS.rental.reminderDue,
      aggregateId: c.id,
      data: { orderId: c.id, orderNumber: c.order_number, customerId: c.customer_id, kind: due.kind, day, dueDate: due.dueDate, cycle: due.cycle },
    });
    const rows = await sql<{ id: string }>(
      em,
      `with won as (insert into ${qualified(em, 'reminders')} (order_id, kind, day) values ($1, $2, $3::date) on conflict do nothing returning order_id)
       ${outboxInsertFrom(em, 'select $4::uuid, $5, $6::jsonb from won')} returning id`,
      [c.id, due.kind, day, event.id, event.type, JSON.stringify(event)],
    );
    written += rows.length;
  }
  return written;
}

/** The schedule: a round at start and every `everyMs`; `afterWrite` kicks the outbox relay. */
export function startReminderSchedule(opts: { em: EntityManager; logger: Logger; afterWrite?: () => void; everyMs?: number; from?: string; now?: () => Date }): PollingLoop {
  const loop = new PollingLoop(
    async () => {
      const written = await writeDueReminders(opts.em.fork(), opts.now?.() ?? new Date(), opts.from);
      if (written) {
        opts.logger.info({ written }, 'reminders: due reminders written');
        opts.afterWrite?.();
      }
      return 0; // never "more to do at once": the next round is a minute away
    },
    { intervalMs: opts.everyMs ?? 60_000, batchSize: 1, logger: opts.logger, failure: 'reminders: a round failed, will retry' },
  );
  loop.start();
  return loop;
}
