import { PageHeader, EmptyState } from '@dme/ui';

export function ForDeliveryPage() {
  return (
    <section>
      <PageHeader title="For Delivery" />
      <EmptyState description="No orders out for delivery." />
    </section>
  );
}
