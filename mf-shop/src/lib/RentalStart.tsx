import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import type { AvailabilityDay } from '@dme/contracts';
import { BOOKING_MESSAGES, formatBusinessDate, lastBookableStart, manilaDate } from '@dme/contracts/browser';
import { useAvailabilityQuery } from './catalogApi';

const DAY = 'YYYY-MM-DD';

/**
 * A rental level's days (issue 25), from today to the last bookable start: per day, how many units
 * are free for the whole rental of `days` days starting then (turnaround included, as the catalog
 * counts them). Skipped until a level is chosen.
 */
export function useRentalDays(a: { productId: string; variantId?: string | undefined; subId?: string | undefined; days: number; skip: boolean }) {
  const today = manilaDate();
  const q = useAvailabilityQuery(
    { id: a.productId, variantID: a.variantId, subVariantID: a.subId, from: today, to: lastBookableStart(today), quantity: 1, days: a.days },
    { skip: a.skip },
  );
  const byDate = new Map<string, AvailabilityDay>((q.data?.days ?? []).map((d) => [d.date, d]));
  return {
    loading: q.isFetching,
    error: q.error,
    /** Units that can be rented from `start` for the whole period; undefined until known. */
    freeFrom: (start: string) => (q.data ? (byDate.get(start)?.freeForRental ?? 0) : undefined),
    turnaroundDays: q.data?.turnaroundDays,
  };
}

/**
 * The start date of a rental: today up to BOOK_AHEAD_DAYS ahead; days on which `quantity` units
 * are not free for the whole rental are greyed out (and cannot be picked).
 */
export function RentalStartPicker(props: {
  id: string;
  value: string;
  onChange: (date: string) => void;
  freeFrom: (start: string) => number | undefined;
  quantity: number;
  /** The id of a text that explains the chosen period, where the page shows one. */
  helpId?: string;
}) {
  const today = manilaDate();
  const last = lastBookableStart(today);
  return (
    <DatePicker
      id={props.id}
      format={DAY}
      allowClear={false}
      value={dayjs(props.value, DAY)}
      placeholder={BOOKING_MESSAGES.startDate}
      disabledDate={(d) => {
        const date = d.format(DAY);
        if (date < today || date > last) return true;
        const free = props.freeFrom(date);
        return free !== undefined && free < props.quantity;
      }}
      onChange={(d) => d && props.onChange(d.format(DAY))}
      aria-describedby={props.helpId}
    />
  );
}

/** "Returns on …": what the customer is told about the chosen period. */
export function rentalWindowText(start: string, due: string): string {
  return `From ${formatBusinessDate(start)}, due back ${formatBusinessDate(due)}.`;
}
