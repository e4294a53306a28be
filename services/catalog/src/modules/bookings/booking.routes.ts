import type { HandlersOf } from '@dme/platform';
import { em } from '../bins/bin.routes';
import { atRiskBookings, myAtRiskNotices } from './at-risk.service';
import { availabilityBatch, availabilityFor } from './availability';
import { calendarOf } from './calendar.service';
import { createDowntime, removeDowntime } from './downtime.service';

type BookingHandlers = Pick<HandlersOf<'catalog'>, 'productsAvailability' | 'availabilityBatch' | 'myBookingNotices' | 'productsCalendar' | 'bookingsAtRisk' | 'downtimeCreate' | 'downtimeDelete'>;

/** Dated rentals (issue 25): availability over days, the staff calendar, downtime. `changed` runs after a downtime change (the shop's counts). */
export function bookingHandlers(changed: () => void): BookingHandlers {
  return {
    productsAvailability: (ctx, { params, query }) => availabilityFor(em(ctx), params.id, query),
    availabilityBatch: (ctx, { query }) => availabilityBatch(em(ctx), query),
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
