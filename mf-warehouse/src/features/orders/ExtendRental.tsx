import type { Order } from '@dme/contracts';
import { ExtendRentalButton as Shared } from '@dme/ui';
import { dateText } from '../../lib/rentalStatus';
import { useExtendRentalMutation } from './api';

export { Extensions } from '@dme/ui';

/** Staff's 'Extend rental' (issue 25): a rental booked ahead or out with the customer, through /api/orders/:id/extend. */
export function ExtendRentalButton({ order }: { order: Order }) {
  const [extend, state] = useExtendRentalMutation();
  return <Shared order={order} extend={(days) => extend({ orderId: order.id, days }).unwrap()} busy={state.isLoading} formatDate={dateText} />;
}
