import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { User } from '@dme/contracts';
import App from './app';

const user = { id: 'u-1', username: 'demo', firstName: 'Demo', lastName: 'User', userType: 'ACCOUNTING_ADMIN' } as User;

function open(path: string, as: User = user) {
  // Every list answers empty.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [], total: 0 }), { status: 200, headers: { 'content-type': 'application/json' } })));
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={as} />
    </MemoryRouter>,
  );
}

describe('mf-accounting ./app', () => {
  it('renders its home /admin/payments with its title and an empty state', async () => {
    open('/admin/payments');
    expect(await screen.findByRole('heading', { name: 'Payments' })).toBeInTheDocument();
    expect(await screen.findByText('No pending payments.')).toBeInTheDocument();
  });

  it("answers an unknown path with 'Page not found'", async () => {
    open('/admin/payments/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });

  it('shows Reports to the superadmin only', async () => {
    open('/admin/reports');
    expect(await screen.findByText('Not available')).toBeInTheDocument();
    open('/admin/reports', { ...user, userType: 'SUPERADMIN' });
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
  });
});
