// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { pagesToShow, ResponsiveTable } from './ResponsiveTable';

interface Row {
  id: string;
  name: string;
  price: number;
  owner?: { name: string };
}
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: `r${i + 1}`, name: `Item ${i + 1}`, price: (i + 1) * 100, owner: { name: `Owner ${i + 1}` } }));
const columns = [
  { title: 'Name', dataIndex: 'name' },
  { title: 'Owner', dataIndex: ['owner', 'name'] },
  { title: 'Price', key: 'price', align: 'right' as const, render: (_: unknown, r: Row) => `$${r.price / 100}` },
  { title: 'Action', key: 'action', render: (_: unknown, r: Row) => <button type="button">Open {r.name}</button> },
];
const bodyRows = () => within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row');

describe('ResponsiveTable', () => {
  it('draws a header and a row per record: values by dataIndex (paths too) or render; each cell labelled for its phone card, actions unlabelled', () => {
    render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(2)} pagination={false} aria-label="Items" />);
    expect(screen.getByRole('table', { name: 'Items' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Owner', 'Price', 'Action']);
    const [first] = bodyRows();
    const cells = within(first!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['Item 1', 'Owner 1', '$1', 'Open Item 1']);
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['Name', 'Owner', 'Price', '']);
    expect(cells[2]).toHaveStyle({ textAlign: 'right' });
    expect(first).toHaveAttribute('data-row-key', 'r1');
  });

  it('shows the empty text when there are no rows, and not while loading (busy, with a status for screen readers)', () => {
    const { rerender } = render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={[]} loading pagination={false} locale={{ emptyText: 'Nothing here.' }} />);
    expect(screen.queryByText('Nothing here.')).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();
    expect(document.querySelector('.dme-table')).toHaveAttribute('aria-busy', 'true');
    rerender(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={[]} loading={false} pagination={false} locale={{ emptyText: 'Nothing here.' }} />);
    expect(screen.getByText('Nothing here.')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(document.querySelector('.dme-table')).not.toHaveAttribute('aria-busy');
  });

  it("a server's page: the rows as given, the pager from total, a page click asks for that page", () => {
    const onChange = vi.fn();
    render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(20)} pagination={{ current: 1, pageSize: 20, total: 45, onChange, showTotal: (n, [a, b]) => `${a}–${b} of ${n}` }} />);
    expect(bodyRows()).toHaveLength(20);
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    fireEvent.click(screen.getByTitle('3'));
    expect(onChange).toHaveBeenCalledWith(3, 20);
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(onChange).toHaveBeenLastCalledWith(2, 20);
    expect(screen.queryByRole('button', { name: 'Page 4' })).not.toBeInTheDocument();
  });

  it('more rows than a page are paged here, ten a page unless told', () => {
    render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(23)} />);
    expect(bodyRows()).toHaveLength(10);
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(bodyRows().map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Item 21', 'Item 22', 'Item 23']);
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('rows paged here that become fewer show their last page, not an empty one', () => {
    const { rerender } = render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(23)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    rerender(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(12)} />);
    expect(bodyRows().map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['Item 11', 'Item 12']);
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('no pager when pagination is off, or on a single page with hideOnSinglePage', () => {
    const { rerender } = render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(3)} pagination={false} />);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
    rerender(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(3)} pagination={{ pageSize: 20, total: 3, hideOnSinglePage: true }} />);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).not.toBeInTheDocument();
    rerender(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(3)} pagination={{ pageSize: 20, total: 3 }} />);
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeInTheDocument();
  });

  it('expandable rows: a button on the rows that can expand opens and closes the row under it', () => {
    render(
      <ResponsiveTable<Row>
        rowKey="id"
        columns={columns}
        dataSource={rows(2)}
        pagination={false}
        expandable={{ rowExpandable: (r) => r.id === 'r1', expandedRowRender: (r) => <p>Details of {r.name}</p> }}
      />,
    );
    expect(screen.getAllByRole('button', { name: 'Expand row' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Expand row' }));
    expect(screen.getByText('Details of Item 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Collapse row' })).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse row' }));
    expect(screen.queryByText('Details of Item 1')).not.toBeInTheDocument();
  });

  it("a row's handlers (onRow) and a summary row across every column", () => {
    const onClick = vi.fn();
    render(<ResponsiveTable<Row> rowKey="id" columns={columns} dataSource={rows(2)} pagination={false} onRow={(r) => ({ onClick: () => onClick(r.id) })} summary={<strong>Total $3</strong>} />);
    fireEvent.click(within(bodyRows()[1]!).getByText('Item 2'));
    expect(onClick).toHaveBeenCalledWith('r2');
    const total = screen.getByText('Total $3').closest('td')!;
    expect(total).toHaveAttribute('colspan', '4');
  });
});

describe('pagesToShow', () => {
  it('the first, the last and two either side of the current page, gaps as null', () => {
    expect(pagesToShow(1, 1)).toEqual([1]);
    expect(pagesToShow(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(pagesToShow(1, 10)).toEqual([1, 2, 3, null, 10]);
    expect(pagesToShow(5, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, null, 10]);
    expect(pagesToShow(6, 12)).toEqual([1, null, 4, 5, 6, 7, 8, null, 12]);
    expect(pagesToShow(12, 12)).toEqual([1, null, 10, 11, 12]);
  });
});
