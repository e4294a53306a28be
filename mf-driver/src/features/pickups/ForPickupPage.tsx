import { EmptyState, PageHeader } from '@dme/ui';

/** The driver's pickups (orders in FOR_PICK_UP); the list and the QR scan come with the driver issue. */
export function ForPickupPage() {
  return (
    <section>
      <PageHeader title="For Pickup" />
      <EmptyState description="No orders for pickup." />
    </section>
  );
}
