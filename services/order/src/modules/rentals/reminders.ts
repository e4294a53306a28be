import type { EntityManager } from '@mikro-orm/postgresql';
import { EVENTS, lineDueDate, reminderDayAt, rentalReminder, type OrderStatus, type RentalReminder } from '@dme/contracts';
import { eventEnvelope, outboxInsertFrom, PollingLoop, qualified, sql, type Logger } from '@dme/platform';
import { SOURCE } from '../../events';

/**
 * Rental reminders on a durable schedule (issue 24). Every replica runs the same round every
 * minute (and at start); what makes a reminder go out once is the database, not the clock: the
 * round writes `reminders (order_id, day)` and the reminder's event in one statement, and a second
 * replica's insert of the same row writes nothing. Missed while every replica was down: the first
 * round after start sends today's reminders (from 09:00 Manila) if they are still true; a day that
 * passed entirely is not sent late.
 *
 * What a rental gets on a day is the terms module's `rentalReminder` (due tomorrow, due today,
 * overdue, full payment due); the identity service turns the event into the e-mail.
 */
interface Candidate {
  id: string;
  order_number: string;
  customer_id: string;
  status: OrderStatus;
  delivered_at: Date | string | null;
  full_payment_due: string | null;
  days: number[];
}

/** Rentals that may need a reminder today and have had none yet today. */
function candidates(em: EntityManager, day: string): Promise<Candidate[]> {
  const t = (n: string) => qualified(em, n);
  return em.execute<Candidate[]>(
    `select o.id, o.order_number, o.customer_id, o.status, o.delivered_at, o.full_payment_due::text as full_payment_due,
            coalesce((select json_agg(l.no_of_rental_days) from ${t('order_lines')} l where l.order_id = o.id and l.no_of_rental_days is not null), '[]'::json) as days
       from ${t('orders')} o
      where o.type = 'RENT'
        and ((o.status in ('DELIVERED', 'FOR_RETURN') and o.delivered_at is not null) or (o.status = 'FOR_FULL_PAYMENT' and o.full_payment_due is not null))
        and not exists (select 1 from ${t('reminders')} r where r.order_id = o.id and r.day = ?::date)`,
    [day],
  );
}

/** Today's reminder of one rental, and the date it is about; null when nothing is due. */
export function reminderOf(c: Candidate, day: string): { kind: RentalReminder; dueDate: string } | null {
  const deliveredAt = c.delivered_at ? new Date(c.delivered_at) : null;
  const dueDates = deliveredAt ? c.days.map((d) => lineDueDate(deliveredAt, d)).sort() : [];
  const kind = rentalReminder(c.status, dueDates, c.full_payment_due, day);
  if (!kind) return null;
  if (kind === 'FULL_PAYMENT_DUE') return { kind, dueDate: c.full_payment_due! };
  // The earliest line the reminder is about: past due (overdue), today, or tomorrow.
  const dueDate = kind === 'OVERDUE' ? dueDates[0]! : dueDates.find((d) => d >= day)!;
  return { kind, dueDate };
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
      data: { orderId: c.id, orderNumber: c.order_number, customerId: c.customer_id, kind: due.kind, day, dueDate: due.dueDate },
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
