import type { HandlersOf } from '@dme/platform';
import { em } from '../bins/bin.routes';
import { atRiskBookings, availabilityFor, calendarOf, createDowntime, removeDowntime } from './calendar.service';

type BookingHandlers = Pick<HandlersOf<'catalog'>, 'productsAvailability' | 'productsCalendar' | 'bookingsAtRisk' | 'downtimeCreate' | 'downtimeDelete'>;

/** Dated rentals (issue 25): availability over days, the staff calendar, downtime. `changed` runs after a downtime change (the shop's counts). */
export function bookingHandlers(changed: () => void): BookingHandlers {
  return {
    productsAvailability: (ctx, { params, query }) => availabilityFor(em(ctx), params.id, query),
    productsCalendar: (ctx, { params, query }) => calendarOf(em(ctx), params.id, query),
    bookingsAtRisk: (ctx) => atRiskBookings(em(ctx)),
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
