import { PageHeader, EmptyState } from '@dme/ui';

export function DashboardPage() {
  return (
    <section>
      <PageHeader title="Products" />
      <EmptyState description="No products to show yet." />
    </section>
  );
}
