import { EmptyState, LazyNotAvailable, PageHeader, useCurrentUser } from '@dme/ui';

/** Sales and invoice reports (SPEC §2: the superadmin's); the reports come with the reporting issue. */
export default function ReportsPage() {
  const user = useCurrentUser();
  if (user.userType !== 'SUPERADMIN') return <LazyNotAvailable />;
  return (
    <section>
      <PageHeader title="Reports" />
      <EmptyState description="No reports yet." />
    </section>
  );
}
