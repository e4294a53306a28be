import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { NeedsMe } from './NeedsMe';
import { mockApi, on, renderWithShell } from '../test/utils';

const links = () => screen.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);

describe('"Needs you now" on a staff member\'s first screen (issue 27)', () => {
  it("accounting: each tab's count of the payments list, each opening that tab", async () => {
    const { calls } = mockApi(
      on('GET', '/api/payments', { status: 200, body: { items: [], total: 0, counts: { PENDING: 0, INITIAL_PAYMENT: 2, FOR_FULL_PAYMENT: 1, PAID: 9, CANCELLED: 0, REFUND_DUE: 1 }, refundsDue: 3 } }),
      on('GET', '/api/reconciliation/runs', { status: 200, body: { items: [], mismatches: 2 } }),
    );
    renderWithShell(<NeedsMe userType="ACCOUNTING_ADMIN" />, '/admin/payments');
    expect(await screen.findByRole('heading', { name: 'Needs you now' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '2 partly paid rentals' })).toBeInTheDocument();
    expect(links()).toEqual([
      ['0 payments pending', '/admin/payments?status=PENDING'],
      ['2 partly paid rentals', '/admin/payments?status=INITIAL_PAYMENT'],
      ['1 full payment due', '/admin/payments?status=FOR_FULL_PAYMENT'],
      // Issue 29: every refund to pay back (a deposit's rest on a rental returned, a cancelled order's payment), not only REFUND_DUE payments.
      ['3 refunds to pay back', '/admin/payments?status=REFUNDS'],
      // Issue 29: what the newest daily reconciliation found.
      ['2 reconciliation mismatches', '/admin/reconciliation'],
    ]);
    expect(screen.getByRole('link', { name: '2 reconciliation mismatches' })).toHaveAttribute('data-attention', 'true');
    expect(screen.getByRole('link', { name: '3 refunds to pay back' })).toHaveAttribute('data-attention', 'true');
    // One read for the four payment counts, one for the reconciliation's.
    expect(calls.filter((c) => c.url.startsWith('/api/payments')).map((c) => c.url)).toEqual(['/api/payments?status=PENDING&limit=1']);
    expect(calls.filter((c) => c.url.startsWith('/api/reconciliation')).map((c) => c.url)).toEqual(['/api/reconciliation/runs']);
  });

  it('the warehouse: orders, rentals, units and bookings at risk; a list that fails says so and the others still count', async () => {
    mockApi(
      on('GET', '/api/orders', (c) => ({ status: 200, body: { items: [], total: 0, counts: c.url.includes('type=RENT') ? { PENDING: 4, PREPARING: 1 } : { PENDING: 2 } } })),
      on('GET', '/api/ongoing-rentals', { status: 200, body: { items: [], total: 0, counts: { ONGOING: 5, DUE_DATE: 2, FOR_RETURN: 3, PICKED_UP: 0 } } }),
      on('GET', '/api/units', { status: 503, body: { type: 'about:blank', title: 'Unavailable', status: 503, detail: 'The catalog is not answering.' } }),
      on('GET', '/api/bookings/at-risk', { status: 200, body: { items: [{}] } }),
    );
    renderWithShell(<NeedsMe userType="WAREHOUSE_STAFF" />, '/admin/warehouse-bins');
    expect(await screen.findByRole('link', { name: '4 rental orders to confirm' })).toHaveAttribute('href', '/admin/orders/rentals?status=PENDING');
    expect(links()).toEqual([
      ['4 rental orders to confirm', '/admin/orders/rentals?status=PENDING'],
      ['2 purchase orders to confirm', '/admin/orders/purchased?status=PENDING'],
      ['1 rental order to pack', '/admin/orders/rentals?status=PREPARING'],
      ['0 purchase orders to pack', '/admin/orders/purchased?status=PREPARING'],
      ['3 rentals to take back', '/admin/ongoing-rentals?tab=FOR_RETURN'],
      ['— units to clean (could not be counted)', '/admin/units?column=TO_CLEAN'],
      ['— units to inspect (could not be counted)', '/admin/units?column=TO_INSPECT'],
      ['1 booking at risk', '/admin/calendar'],
    ]);
  });

  it('shows only on the role\'s home, and never to a customer', async () => {
    mockApi();
    const { unmount } = renderWithShell(<NeedsMe userType="ACCOUNTING_ADMIN" />, '/admin/payments/123');
    expect(screen.queryByRole('heading', { name: 'Needs you now' })).toBeNull();
    unmount();
    renderWithShell(<NeedsMe userType="CUSTOMER" />, '/dashboard');
    expect(screen.queryByRole('heading', { name: 'Needs you now' })).toBeNull();
  });
});
