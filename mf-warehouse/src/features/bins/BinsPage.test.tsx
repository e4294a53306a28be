import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Bin, User } from '@dme/contracts';
import { mockApi, on } from '@dme/ui/testing';
import App from '../../app';

const staff = { id: '00000000-0000-4000-8000-0000000000a1', username: 'wendy', firstName: 'Wendy', lastName: 'Ramos', userType: 'WAREHOUSE_STAFF' } as User;
const bin = (id: string, name: string, stockCount: number): Bin => ({ id, name, description: `${name} shelf`, stockCount, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' });
const full = bin('11111111-1111-4111-8111-111111111111', 'A-01 Mobility', 3);
const empty = bin('22222222-2222-4222-8222-222222222222', 'Z-99 Spare', 0);

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const row = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

describe('warehouse bins: Delete in the row menu (issue 27)', () => {
  it('says before the click why a bin holding stock cannot be deleted, and deletes an empty one behind its confirm', async () => {
    let items = [full, empty];
    const { calls } = mockApi(
      on('GET', '/api/warehouse-bins', () => ({ status: 200, body: { items, total: items.length } })),
      on('DELETE', `/api/warehouse-bins/${empty.id}`, () => {
        items = items.filter((b) => b.id !== empty.id);
        return { status: 204 };
      }),
    );
    render(
      <MemoryRouter initialEntries={['/admin/warehouse-bins']}>
        <App user={staff} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('A-01 Mobility')).toBeInTheDocument();
    // No red Delete on the rows: it is in each row's own "More actions" menu.
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(row('A-01 Mobility').querySelector('.ant-btn-dangerous')).toBeNull();

    // The bin with stock: Delete is disabled and says why, before any click on it.
    fireEvent.click(screen.getByRole('button', { name: 'More actions for A-01 Mobility' }));
    const refused = await screen.findByRole('menuitem', { name: /Delete/ });
    expect(refused).toHaveAttribute('aria-disabled', 'true');
    expect(refused).toHaveTextContent("Can't delete: this bin holds 3 units.");
    fireEvent.click(refused);
    expect(screen.queryByText('Delete A-01 Mobility?')).toBeNull();

    // The empty bin: Delete asks first, then removes it.
    fireEvent.click(screen.getByRole('button', { name: 'More actions for Z-99 Spare' }));
    const items2 = await screen.findAllByRole('menuitem', { name: 'Delete' });
    fireEvent.click(items2.at(-1)!);
    expect((await screen.findAllByText('Delete Z-99 Spare?', undefined, { timeout: 5000 })).length).toBeGreaterThan(0);
    fireEvent.click((await screen.findAllByRole('button', { name: 'Delete' })).at(-1)!);
    await waitFor(() => expect(screen.queryByText('Z-99 Spare')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual([`/api/warehouse-bins/${empty.id}`]);
  });
});
