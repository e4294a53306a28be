import { PageHeader, EmptyState } from '@dme/ui';

export function PaymentsPage() {
  return (
    <section>
      <PageHeader title="Payments" />
      <EmptyState description="No payments yet." />
    </section>
  );
}
