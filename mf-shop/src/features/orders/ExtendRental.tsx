import type { Order } from '@dme/contracts';
import { formatBusinessDate } from '@dme/contracts/browser';
import { ExtendRentalButton as Shared, Extensions as SharedExtensions } from '@dme/ui';
import { useExtendRentalMutation } from './api';

export { extensionPreview } from '@dme/ui';

/** The changes of the rental's days (extensions, an early end), dates as the shop writes them. */
export function Extensions({ order }: { order: Order }) {
  return <SharedExtensions order={order} formatDate={formatBusinessDate} />;
}

/** The customer's 'Extend rental' (issue 25): their own ongoing rental, through /api/my/orders/:id/extend. */
export function ExtendRentalButton({ order }: { order: Order }) {
  const [extend, state] = useExtendRentalMutation();
  return <Shared order={order} extend={(days) => extend({ orderId: order.id, days }).unwrap()} busy={state.isLoading} formatDate={formatBusinessDate} />;
}
