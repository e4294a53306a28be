import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { User } from '@dme/contracts';
import App from './app';

const user = { id: 'u-1', username: 'demo', firstName: 'Demo', lastName: 'User', userType: 'CUSTOMER' } as User;

function open(path: string, as: User = user) {
  // Every list answers empty.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ items: [], total: 0 }), { status: 200, headers: { 'content-type': 'application/json' } })));
  render(
    <MemoryRouter initialEntries={[path]}>
      <App user={as} />
    </MemoryRouter>,
  );
}

describe('mf-shop ./app', () => {
  it('renders its home /dashboard with its title and an empty state', async () => {
    open('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Products' })).toBeInTheDocument();
    // Both grids, For Rental Items and For Sale Items, say so.
    expect(await screen.findAllByText('No items yet.')).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'For Rental Items' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'For Sale Items' })).toBeInTheDocument();
  });

  it("answers an unknown path with 'Page not found'", async () => {
    open('/dashboard/no/such/page');
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
  });
});
