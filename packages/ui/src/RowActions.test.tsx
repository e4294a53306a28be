// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { FeedbackRoot } from './feedback';
import { deleteAction, RowActions, type RowAction } from './RowActions';

function setup(actions: RowAction[]) {
  render(
    <FeedbackRoot>
      <RowActions name="A-01 Mobility" actions={actions} />
      <button type="button">Elsewhere</button>
    </FeedbackRoot>,
  );
  return screen.getByRole('button', { name: 'More actions for A-01 Mobility' });
}

describe('RowActions (a row\'s "More actions" menu)', () => {
  it('opens a menu of its actions with focus on the first; arrows move, Escape closes it and gives focus back to the button', () => {
    const more = setup([
      { key: 'edit', label: 'Edit', onSelect: vi.fn() },
      { key: 'audit', label: 'Audit', onSelect: vi.fn() },
    ]);
    expect(more).toHaveAttribute('aria-haspopup', 'menu');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(more);
    const menu = screen.getByRole('menu', { name: 'Actions for A-01 Mobility' });
    expect(more).toHaveAttribute('aria-expanded', 'true');
    const [edit, audit] = screen.getAllByRole('menuitem');
    expect(edit).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(audit).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(edit).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'End' });
    expect(audit).toHaveFocus();
    fireEvent.keyDown(menu, { key: 'Escape' });
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(more).toHaveFocus();
  });

  it('an action without a question runs at once and closes the menu; a click outside closes it without running anything', () => {
    const edit = vi.fn();
    const more = setup([{ key: 'edit', label: 'Edit', onSelect: edit }]);
    fireEvent.click(more);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(edit).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    fireEvent.click(more);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Elsewhere' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(edit).toHaveBeenCalledTimes(1);
  });

  it('a scroll that leaves the button where it was (a dialog closing) keeps the menu; one that moves the button closes it', () => {
    const more = setup([{ key: 'edit', label: 'Edit', onSelect: vi.fn() }]);
    let top = 100;
    more.getBoundingClientRect = () => ({ top, bottom: top + 24, left: 10, right: 40, width: 30, height: 24, x: 10, y: top, toJSON: () => ({}) }) as DOMRect;
    fireEvent.click(more);
    fireEvent.scroll(window);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    top = 60;
    fireEvent.scroll(window);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('a refused Delete is disabled and says why; clicking it does nothing', () => {
    const remove = vi.fn();
    const more = setup([deleteAction('A-01 Mobility', 'It is removed.', remove, "Can't delete: this bin holds 3 units.")]);
    fireEvent.click(more);
    const item = screen.getByRole('menuitem', { name: /Delete/ });
    expect(item).toHaveAttribute('aria-disabled', 'true');
    expect(item).toHaveTextContent("Can't delete: this bin holds 3 units.");
    expect(item).not.toHaveClass('dme-menu-danger');
    fireEvent.click(item);
    expect(remove).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeInTheDocument();
  });

  it('Delete is red and asks first: Cancel keeps, Delete runs it', async () => {
    const remove = vi.fn();
    const more = setup([deleteAction('A-01 Mobility', 'It is removed.', remove)]);
    fireEvent.click(more);
    const item = screen.getByRole('menuitem', { name: 'Delete' });
    expect(item).toHaveClass('dme-menu-danger');
    fireEvent.click(item);
    expect((await screen.findAllByText('Delete A-01 Mobility?', undefined, { timeout: 5000 })).length).toBeGreaterThan(0);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(remove).not.toHaveBeenCalled();
    // The closed prompt may linger in the DOM while it fades: the new one is the last one.
    const before = screen.queryAllByRole('button', { name: 'Delete' }).length;
    fireEvent.click(more);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryAllByRole('button', { name: 'Delete' }).length).toBeGreaterThan(before), { timeout: 5000 });
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete' }).at(-1)!);
    await waitFor(() => expect(remove).toHaveBeenCalledTimes(1));
  });
});
