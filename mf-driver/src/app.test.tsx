import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { User } from '@dme/contracts';
import App from './app';

const user = { id: 'u-1', username: 'demo', firstName: 'Demo', lastName: 'User', userType: 'DRIVER' } as User;

function open(path: string, as: User = user) {
  // Every list answers empty.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [], total: 0 }), { status: 200, headers: { 'content-type': 'application/json' } })));
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={as} />
    </MemoryRouter>,
  );
}

describe('mf-driver ./app', () => {
  it('renders its home /admin/for-delivery with its title and an empty state', async () => {
    open('/admin/for-delivery');
    expect(await screen.findByRole('heading', { name: 'For Delivery' })).toBeInTheDocument();
    expect(await screen.findByText('No orders out for delivery.')).toBeInTheDocument();
  });

  it("answers an unknown path with 'Page not found'", async () => {
    open('/admin/for-delivery/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });

  it('has the For Pickup screen of its menu', async () => {
    open('/admin/for-pickup');
    expect(await screen.findByRole('heading', { name: 'For Pickup' })).toBeInTheDocument();
    // The heading is drawn before the list's answer: the empty state is waited for.
    expect(await screen.findByText('No orders for pickup.')).toBeInTheDocument();
  });
});
