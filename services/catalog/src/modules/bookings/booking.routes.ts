import type { HandlersOf } from '@dme/platform';
import { manilaDate, type AvailabilityBatchResponse } from '@dme/contracts';
import type { MicroCache } from '../products/card-cache';
import { em } from '../bins/bin.routes';
import { atRiskBookings, myAtRiskNotices } from './at-risk.service';
import { availabilityBatch, availabilityFor } from './availability';
import { calendarOf } from './calendar.service';
import { createDowntime, removeDowntime } from './downtime.service';

type BookingHandlers = Pick<HandlersOf<'catalog'>, 'productsAvailability' | 'availabilityBatch' | 'myBookingNotices' | 'productsCalendar' | 'bookingsAtRisk' | 'downtimeCreate' | 'downtimeDelete'>;

/** The shop grid's availability answers, a second at most (app.ts clears it on every catalog write). */
export type DatedCache = MicroCache<AvailabilityBatchResponse>;

/**
 * Dated rentals (issue 25): availability over days, the staff calendar, downtime. `changed` runs
 * after a downtime change (the shop's counts). The grid's answer for a page of cards may be up to
 * a second old, as the product list's is: add to cart and checkout check the days live.
 */
export function bookingHandlers(changed: () => void, dated: DatedCache): BookingHandlers {
  return {
    productsAvailability: (ctx, { params, query }) => availabilityFor(em(ctx), params.id, query),
    availabilityBatch: (ctx, { query }) => dated.get(`${manilaDate()}|${JSON.stringify(query)}`, () => availabilityBatch(em(ctx), query)),
    productsCalendar: (ctx, { params, query }) => calendarOf(em(ctx), params.id, query),
    bookingsAtRisk: (ctx) => atRiskBookings(em(ctx)),
    myBookingNotices: (ctx, { principal }) => myAtRiskNotices(em(ctx), principal.userId),
    async downtimeCreate(ctx, { body }) {
      const result = await createDowntime(em(ctx), body);
      changed();
      return result;
    },
    async downtimeDelete(ctx, { params }) {
      await removeDowntime(em(ctx), params.id);
      changed();
    },
  };
}
