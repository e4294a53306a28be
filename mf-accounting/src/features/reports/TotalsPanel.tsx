import { Descriptions, Statistic } from 'antd';
import type { ReportTotals } from '@dme/contracts';
import { money } from './format';

/** Labels of the overall figures and their parts (SPEC §9). */
export const TOTAL_LABELS = {
  overallSales: 'Overall Sales',
  overallInvoice: 'Overall Invoice',
  purchasedSales: 'Purchased Sales',
  rentalSales: 'Rental Sales',
  purchasedInvoice: 'Purchased Invoice',
  rentalUnpaidInvoice: 'Rental Unpaid Invoice',
  rentalPartialBalance: 'Rental Partial Balance',
} as const;

function Figure({ label, value, loading, hint }: { label: string; value: string | undefined; loading: boolean; hint: string }) {
  return (
    <div role="group" aria-label={label} style={{ minWidth: 220 }}>
      <Statistic title={label} value={value === undefined ? '—' : money(value)} loading={loading && value === undefined} />
      <div style={{ fontSize: 12, color: 'rgba(0,0,0,0.65)' }}>{hint}</div>
    </div>
  );
}

/** The period's overall sales and overall invoice, and what they are made of. */
export function TotalsPanel({ totals, loading }: { totals: ReportTotals | undefined; loading: boolean }) {
  const item = (key: keyof typeof TOTAL_LABELS) => ({ key, label: TOTAL_LABELS[key], children: totals ? money(totals[key]) : '—' });
  return (
    <section aria-label="Overall totals" style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: 16, marginBottom: 16 }}>
      <div style={{ display: 'flex', gap: 48, flexWrap: 'wrap', marginBottom: 16 }}>
        <Figure label={TOTAL_LABELS.overallSales} value={totals?.overallSales} loading={loading} hint="Purchased sales + rental sales" />
        <Figure label={TOTAL_LABELS.overallInvoice} value={totals?.overallInvoice} loading={loading} hint="Purchased invoice + rental unpaid invoice + rental partial balance" />
      </div>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        items={[item('purchasedSales'), item('rentalSales'), item('purchasedInvoice'), item('rentalUnpaidInvoice'), item('rentalPartialBalance')]}
      />
    </section>
  );
}
