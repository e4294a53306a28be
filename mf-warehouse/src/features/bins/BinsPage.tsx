import { PageHeader, EmptyState } from '@dme/ui';

export function BinsPage() {
  return (
    <section>
      <PageHeader title="Warehouse Bins" />
      <EmptyState description="No warehouse bins yet." />
    </section>
  );
}
