import type { Order } from '@dme/contracts';
import { formatBusinessDate } from '@dme/contracts/browser';
import { ExtendRentalButton as Shared } from '@dme/ui';
import { useExtendRentalMutation } from './api';

export { Extensions, extensionPreview } from '@dme/ui';

/** The customer's 'Extend rental' (issue 25): their own ongoing rental, through /api/my/orders/:id/extend. */
export function ExtendRentalButton({ order }: { order: Order }) {
  const [extend, state] = useExtendRentalMutation();
  return <Shared order={order} extend={(days) => extend({ orderId: order.id, days }).unwrap()} busy={state.isLoading} formatDate={formatBusinessDate} />;
}
