import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { ReportExport, ReportName, ReportResponse, ReportTotals, User } from '@dme/contracts';
import App from '../../app';
import { mockApi, on, problem, query, type Call } from '@dme/ui/testing';

const admin = { id: '00000000-0000-4000-8000-0000000000aa', username: 'super', firstName: 'Sam', lastName: 'Cruz', userType: 'SUPERADMIN' } as User;
const accountant = { ...admin, id: '00000000-0000-4000-8000-0000000000ac', userType: 'ACCOUNTING_ADMIN' } as User;

const totals: ReportTotals = {
  purchasedSales: '12500.50',
  rentalSales: '2430',
  overallSales: '14930.50',
  purchasedInvoice: '12500.50',
  rentalUnpaidInvoice: '680.00',
  rentalPartialBalance: '1620.00',
  overallInvoice: '14800.50',
};

const chart = {
  byDay: [
    { day: '2026-11-01', amount: '0.00' },
    { day: '2026-11-02', amount: '11250.50' },
    { day: '2026-11-03', amount: '1250.00' },
  ],
  top: [
    { name: 'Wheelchair Standard', amount: '11250.50' },
    { name: 'Hospital Bed Manual', amount: '1250.00' },
  ],
};

type Page = { rows: unknown[]; total?: number; sum?: string };

function answer(report: ReportName, c: Call, page: Page): { status: number; body: ReportResponse } {
  const q = query(c);
  return {
    status: 200,
    body: { report, from: q.from!, to: q.to!, rows: page.rows, total: page.total ?? page.rows.length, sum: page.sum ?? '0.00', totals, chart } as ReportResponse,
  };
}

const purchasedSales = {
  rows: [
    { brand: 'Drive', name: 'Wheelchair Standard', totalQuantity: 9, productAmount: '1250.05', totalSales: '11250.45' },
    { brand: 'Invacare', name: 'Hospital Bed Manual', totalQuantity: 1, productAmount: '1250', totalSales: '1250.05' },
  ],
  sum: '12500.50',
};
const rentalSales = {
  rows: [
    {
      brand: 'Invacare',
      name: 'Oxygen Concentrator',
      totalQuantity: 3,
      productAmount: '90.00',
      totalRentalDays: 27,
      totalAmount: '2430.00',
      totalPartialPayments: '810.00',
      totalBalance: '1620.00',
    },
  ],
  sum: '2430.00',
};

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

function open(path: string, as: User = admin) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App user={as} />
      <Where />
    </MemoryRouter>,
  );
}

const location = () => new URLSearchParams((screen.getByTestId('location').textContent ?? '').split('?')[1] ?? '');
const reportCalls = (calls: Call[], report?: ReportName) => calls.filter((c) => c.method === 'GET' && c.url.startsWith(`/api/reports/${report ?? ''}`));
const region = (name: string) => screen.getByRole('region', { name });

/** Every report answers with the given rows (none by default). */
function reports(pages: Partial<Record<ReportName, Page>> = {}) {
  return (c: Call) => {
    const m = /^\/api\/reports\/([a-z-]+)(\?|$)/.exec(c.url);
    if (c.method !== 'GET' || !m) return undefined;
    const report = m[1] as ReportName;
    return answer(report, c, pages[report] ?? { rows: [] });
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('reports screen', () => {
  it('asks for this month so far on the Manila calendar by default, and shows the totals, the charts and the rows in money', async () => {
    // 16:30 UTC on Nov 30 is already Dec 1 in Manila: the month so far is that one day.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-30T16:30:00.000Z'));
    const { calls } = mockApi(reports({ 'purchased-sales': purchasedSales }));
    open('/admin/reports');
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    expect(await screen.findByText('Wheelchair Standard', { selector: 'td' })).toBeInTheDocument();
    expect(query(reportCalls(calls)[0]!)).toEqual({ from: '2026-12-01', to: '2026-12-01', limit: '50', offset: '0' });
    expect(reportCalls(calls)[0]!.url.split('?')[0]).toBe('/api/reports/purchased-sales');
    expect(screen.getByLabelText('Report period')).toHaveValue('2026-12-01');
    expect(screen.getByLabelText('Report period end')).toHaveValue('2026-12-01');

    // One tab per report, the first selected.
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Purchased Sales',
      'Rental Sales',
      'Purchased Invoice',
      'Rental Unpaid Invoice',
      'Rental Partial Invoice',
      'Deposits Held',
      'Late Fees',
      'Refunds',
      'Receivables Ageing',
    ]);
    expect(screen.getByRole('tab', { name: 'Purchased Sales', selected: true })).toBeInTheDocument();

    // Overall figures and their parts.
    const overall = region('Overall totals');
    expect(within(within(overall).getByRole('group', { name: 'Overall Sales' })).getByText('$14,930.50')).toBeInTheDocument();
    expect(within(within(overall).getByRole('group', { name: 'Overall Invoice' })).getByText('$14,800.50')).toBeInTheDocument();
    for (const [label, value] of [
      ['Purchased Sales', '$12,500.50'],
      ['Rental Sales', '$2,430.00'],
      ['Purchased Invoice', '$12,500.50'],
      ['Rental Unpaid Invoice', '$680.00'],
      ['Rental Partial Balance', '$1,620.00'],
    ]) {
      const term = within(overall).getByText(label!);
      expect(term.closest('.ant-descriptions-item')).toHaveTextContent(`${label}${value}`);
    }

    // Columns of SPEC §3, money right-aligned, the report's sum for the whole period.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Brand', 'Name', 'Total Quantity', 'Product Amount', 'Total Sales']);
    const row = screen.getByText('Wheelchair Standard', { selector: 'td' }).closest('tr') as HTMLElement;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Drive', 'Wheelchair Standard', '9', '$1,250.05', '$11,250.45']);
    expect(within(row).getByText('$11,250.45').closest('td')).toHaveStyle({ textAlign: 'right' });
    expect(screen.getByTestId('report-sum')).toHaveTextContent('Purchased Sales for the period: $12,500.50');

    // Charts with a heading and a text summary as their accessible name.
    expect(screen.getByRole('heading', { name: 'Sales per day' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Sales per day, Nov 1, 2026 to Nov 3, 2026: $12,500.50 in all; highest $11,250.50 on Nov 2, 2026.' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Top products' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Top products: Wheelchair Standard $11,250.50; Hospital Bed Manual $1,250.00.' })).toBeInTheDocument();
  });

  it('fetches the report of the tab chosen, with its own columns, and keeps tab and range in the address', async () => {
    const { calls } = mockApi(
      reports({
        'purchased-sales': purchasedSales,
        'rental-sales': rentalSales,
        'rental-partial-invoice': {
          rows: [
            {
              invoiceNumber: 'INV-7',
              receiptNumber: 'OR-7',
              orderNumber: 'ORD-20261102-000007',
              customerName: 'Maria Santos',
              paidOn: '2026-11-02',
              orderTotal: '2430.00',
              partialPayment: '810.00',
              balance: '1620.00',
              paymentStatus: 'INITIAL_PAYMENT',
            },
          ],
          sum: '810.00',
        },
      }),
    );
    open('/admin/reports?from=2026-11-01&to=2026-11-24');
    expect(await screen.findByText('Wheelchair Standard', { selector: 'td' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Rental Sales' }));
    expect(await screen.findByText('Oxygen Concentrator')).toBeInTheDocument();
    expect(query(reportCalls(calls, 'rental-sales').at(-1)!)).toEqual({ from: '2026-11-01', to: '2026-11-24', limit: '50', offset: '0' });
    expect(Object.fromEntries(location())).toEqual({ report: 'rental-sales', from: '2026-11-01', to: '2026-11-24' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Brand',
      'Name',
      'Total Quantity',
      'Product Amount',
      'Total Rental Days',
      'Total Amount',
      'Total Partial Payments',
      'Total Balance',
    ]);
    const row = screen.getByText('Oxygen Concentrator').closest('tr') as HTMLElement;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Invacare', 'Oxygen Concentrator', '3', '$90.00', '27', '$2,430.00', '$810.00', '$1,620.00']);
    expect(screen.getByTestId('report-sum')).toHaveTextContent('Rental Sales for the period: $2,430.00');
    expect(screen.getByRole('heading', { name: 'Rental sales per day' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('tab', { name: 'Rental Partial Invoice' }));
    expect(await screen.findByText('INV-7')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Invoice Number',
      'Receipt Number',
      'Order Number',
      'Customer',
      'Paid On',
      'Order Total',
      'Partial Payment',
      'Balance',
      'Payment Status',
    ]);
    const invoice = screen.getByText('INV-7').closest('tr') as HTMLElement;
    expect(within(invoice).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'INV-7',
      'OR-7',
      'ORD-20261102-000007',
      'Maria Santos',
      'Nov 2, 2026',
      '$2,430.00',
      '$810.00',
      '$1,620.00',
      'INITIAL PAYMENT',
    ]);
    expect(reportCalls(calls, 'rental-partial-invoice')).toHaveLength(1);
  });

  it('receivables ageing (issue 29): says what it counts, each balance under its bucket of days past due', async () => {
    const zero = { current: '0.00', days1to30: '0.00', days31to60: '0.00', days61to90: '0.00', over90: '0.00' };
    mockApi(
      reports({
        'receivables-ageing': {
          rows: [
            { orderNumber: 'ORD-20260915-000003', customerName: 'Carla Diaz', askedOn: '2026-09-15', dueDate: '2026-09-16', daysOverdue: 69, ...zero, days61to90: '400.00', balance: '400.00' },
            { orderNumber: 'ORD-20261120-000009', customerName: 'Ana Cruz', askedOn: '2026-11-20', dueDate: '2026-11-21', daysOverdue: 3, ...zero, days1to30: '160.00', balance: '160.00' },
          ],
          sum: '560.00',
        },
      }),
    );
    open('/admin/reports?report=receivables-ageing&from=2026-11-01&to=2026-11-24');
    expect(await screen.findByText('Carla Diaz')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Receivables Ageing', selected: true })).toBeInTheDocument();
    expect(screen.getByTestId('report-note')).toHaveTextContent('Full payments asked for and still unpaid on the last day of the period, by days past their due date.');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Order Number',
      'Customer',
      'Asked On',
      'Due Date',
      'Days Overdue',
      'Current',
      '1–30 Days',
      '31–60 Days',
      '61–90 Days',
      'Over 90 Days',
      'Balance',
    ]);
    const row = screen.getByText('Carla Diaz').closest('tr') as HTMLElement;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'ORD-20260915-000003',
      'Carla Diaz',
      'Sep 15, 2026',
      'Sep 16, 2026',
      '69',
      '$0.00',
      '$0.00',
      '$0.00',
      '$400.00',
      '$0.00',
      '$400.00',
    ]);
    expect(screen.getByTestId('report-sum')).toHaveTextContent('Receivables Ageing for the period: $560.00');
  });

  it('opens on the tab, range and page named in the address (a reload keeps them) and pages with offset', async () => {
    const invoices = Array.from({ length: 50 }, (_, i) => ({
      invoiceNumber: `INV-${i + 51}`,
      receiptNumber: `OR-${i + 51}`,
      orderNumber: `ORD-20261005-${String(i + 51).padStart(6, '0')}`,
      customerName: 'Jose Cruz',
      paidOn: '2026-10-05',
      amount: '1234.5',
    }));
    const { calls } = mockApi(reports({ 'purchased-invoice': { rows: invoices, total: 120, sum: '148140.00' } }));
    open('/admin/reports?report=purchased-invoice&from=2026-10-01&to=2026-10-31&page=2');
    expect(await screen.findByText('INV-51')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Purchased Invoice', selected: true })).toBeInTheDocument();
    expect(query(reportCalls(calls, 'purchased-invoice')[0]!)).toEqual({ from: '2026-10-01', to: '2026-10-31', limit: '50', offset: '50' });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Invoice Number', 'Receipt Number', 'Order Number', 'Customer', 'Paid On', 'Amount']);
    expect(within(screen.getByText('INV-51').closest('tr') as HTMLElement).getByText('$1,234.50')).toBeInTheDocument();
    expect(screen.getByTestId('report-sum')).toHaveTextContent('Purchased Invoice for the period: $148,140.00');

    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(query(reportCalls(calls).at(-1)!)).toMatchObject({ offset: '100', limit: '50' }));
    expect(location().get('page')).toBe('3');
    fireEvent.click(screen.getByTitle('1'));
    await waitFor(() => expect(query(reportCalls(calls).at(-1)!)).toMatchObject({ offset: '0' }));
    expect(location().get('page')).toBeNull();
  });

  it('refetches for a range picked in the picker, back on the first page', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T04:00:00.000Z'));
    const { calls } = mockApi(reports({ 'purchased-sales': purchasedSales }));
    open('/admin/reports?page=2');
    await screen.findByText('Wheelchair Standard', { selector: 'td' });
    expect(query(reportCalls(calls)[0]!)).toMatchObject({ from: '2026-11-01', to: '2026-11-24', offset: '50' });
    fireEvent.mouseDown(screen.getByLabelText('Report period'));
    fireEvent.click(screen.getByLabelText('Report period'));
    fireEvent.click(await screen.findByText('Last month'));
    await waitFor(() => expect(query(reportCalls(calls).at(-1)!)).toEqual({ from: '2026-10-01', to: '2026-10-31', limit: '50', offset: '0' }));
    expect(Object.fromEntries(location())).toEqual({ report: 'purchased-sales', from: '2026-10-01', to: '2026-10-31' });
  });

  it("says when a period has no rows, and shows the server's message for a refused range", async () => {
    mockApi(
      on('GET', '/api/reports/purchased-sales', (c) =>
        query(c).from! > query(c).to! ? problem(400, 'The start date must not be after the end date.') : answer('purchased-sales', c, { rows: [] }),
      ),
    );
    const view = open('/admin/reports?from=2026-11-01&to=2026-11-24');
    expect(await screen.findByText('No rows in this period.')).toBeInTheDocument();
    expect(screen.getByTestId('report-sum')).toHaveTextContent('Purchased Sales for the period: $0.00');
    expect(screen.queryByRole('img', { name: /Sales per day/ })).toBeNull();
    view.unmount();

    open('/admin/reports?from=2026-11-24&to=2026-11-01');
    expect(await screen.findByText('The start date must not be after the end date.')).toBeInTheDocument();
    expect(screen.queryByText('No rows in this period.')).toBeNull();
  });

  it('shows an error with Retry when the report cannot be loaded', async () => {
    let fail = true;
    mockApi(on('GET', '/api/reports/purchased-sales', (c) => (fail ? problem(503, 'The reporting service is unavailable.') : answer('purchased-sales', c, purchasedSales))));
    open('/admin/reports?from=2026-11-01&to=2026-11-24');
    expect(await screen.findByText('The reporting service is unavailable.')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Wheelchair Standard', { selector: 'td' })).toBeInTheDocument();
  });

  it('is not available to anyone but the superadmin', async () => {
    const { calls } = mockApi(reports());
    open('/admin/reports', accountant);
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    expect(reportCalls(calls)).toHaveLength(0);
  });
});

describe('Excel export', () => {
  const id = '99999999-9999-4999-8999-999999999999';
  const job = (over: Partial<ReportExport> = {}): ReportExport => ({
    id,
    report: 'rental-sales',
    from: '2026-11-01',
    to: '2026-11-24',
    status: 'RUNNING',
    rowsWritten: 0,
    rowsTotal: 100,
    progress: 0,
    fileName: 'FOR_RENT_PRODUCT_REPORTS.xlsx',
    createdAt: '2026-11-24T04:00:00.000Z',
    ...over,
  });
  const polls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.url === `/api/report-exports/${id}`);
  const starts = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

  it('starts the job, shows its progress while it runs, then offers the file and downloads it once by itself', async () => {
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const states = [job({ rowsWritten: 40, progress: 40 }), job({ rowsWritten: 80, progress: 80 }), job({ status: 'DONE', rowsWritten: 100, progress: 100 })];
    const { calls } = mockApi(
      reports({ 'rental-sales': rentalSales }),
      on('POST', '/api/reports/rental-sales/exports', { status: 202, body: { export: job() } }),
      on('GET', `/api/report-exports/${id}`, () => ({ status: 200, body: { export: states.length > 1 ? states.shift()! : states[0]! } })),
    );
    open('/admin/reports?report=rental-sales&from=2026-11-01&to=2026-11-24');
    await screen.findByText('Oxygen Concentrator');
    fireEvent.click(screen.getByRole('button', { name: 'Export to Excel' }));

    const bar = await screen.findByRole('progressbar');
    await waitFor(() => expect(screen.getByText('40 of 100 rows written')).toBeInTheDocument());
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(bar).toHaveAccessibleName(/^Exporting Rental Sales/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Export to Excel' })).toBeDisabled());
    const link = await screen.findByRole('link', { name: 'Download FOR_RENT_PRODUCT_REPORTS.xlsx' }, { timeout: 5000 });
    expect(link).toHaveAttribute('href', `/api/report-exports/${id}/file`);
    expect(link).toHaveAttribute('download', 'FOR_RENT_PRODUCT_REPORTS.xlsx');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(starts(calls)).toHaveLength(1);
    expect(starts(calls)[0]!.body).toEqual({ from: '2026-11-01', to: '2026-11-24' });
    expect(polls(calls).length).toBeGreaterThanOrEqual(3);

    // Downloaded once by itself, from the file's address.
    await waitFor(() => expect(clicks).toHaveBeenCalledTimes(1));
    const auto = clicks.mock.contexts[0] as HTMLAnchorElement;
    expect(auto.getAttribute('href')).toBe(`/api/report-exports/${id}/file`);
    expect(auto.getAttribute('download')).toBe('FOR_RENT_PRODUCT_REPORTS.xlsx');

    // Done: polling has stopped.
    const seen = polls(calls).length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(polls(calls)).toHaveLength(seen);
    expect(clicks).toHaveBeenCalledTimes(1);
  });

  it('says when the export failed and starts it again on Retry', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    // Each start is a new job: the first fails, the second finishes.
    const again = '88888888-8888-4888-8888-888888888888';
    let started = 0;
    const { calls } = mockApi(
      reports({ 'rental-sales': rentalSales }),
      on('POST', '/api/reports/rental-sales/exports', () => ({ status: 202, body: { export: job({ id: started++ === 0 ? id : again }) } })),
      on('GET', `/api/report-exports/${id}`, { status: 200, body: { export: job({ status: 'FAILED', rowsWritten: 10, progress: 10 }) } }),
      on('GET', `/api/report-exports/${again}`, { status: 200, body: { export: job({ id: again, status: 'DONE', rowsWritten: 100, progress: 100 }) } }),
    );
    open('/admin/reports?report=rental-sales&from=2026-11-01&to=2026-11-24');
    await screen.findByText('Oxygen Concentrator');
    fireEvent.click(screen.getByRole('button', { name: 'Export to Excel' }));
    expect(await screen.findByText('The Excel export failed.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Download/ })).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Download FOR_RENT_PRODUCT_REPORTS.xlsx' })).toHaveAttribute('href', `/api/report-exports/${again}/file`);
    expect(screen.queryByText('The Excel export failed.')).toBeNull();
    expect(starts(calls)).toHaveLength(2);
  });

  it('stops asking for progress when the screen goes away', async () => {
    const { calls } = mockApi(
      reports({ 'rental-sales': rentalSales }),
      on('POST', '/api/reports/rental-sales/exports', { status: 202, body: { export: job() } }),
      on('GET', `/api/report-exports/${id}`, { status: 200, body: { export: job({ rowsWritten: 5, progress: 5 }) } }),
    );
    const view = open('/admin/reports?report=rental-sales&from=2026-11-01&to=2026-11-24');
    await screen.findByText('Oxygen Concentrator');
    fireEvent.click(screen.getByRole('button', { name: 'Export to Excel' }));
    await waitFor(() => expect(polls(calls).length).toBeGreaterThanOrEqual(2), { timeout: 3000 });
    view.unmount();
    const seen = polls(calls).length;
    await new Promise((r) => setTimeout(r, 1200));
    expect(polls(calls)).toHaveLength(seen);
  });
});
