import type { ReactNode } from 'react';
import { Image, Space, Tag, type TableProps } from 'antd';
import { ResponsiveTable } from '../ResponsiveTable';
import { money } from '../money';

export type LineColumn<T> = NonNullable<TableProps<T>['columns']>[number];

/** "1 day", "3 days". */
export const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;

export interface OrderLinesTableProps<T extends { quantity: number }> {
  lines: readonly T[];
  rowKey: TableProps<T>['rowKey'];
  rent: boolean;
  /** The line's product name, and its variant and sub-variant names (each shown as a tag). */
  name: (line: T) => { product: string; variant?: string | null; subVariant?: string | null };
  nameTitle?: string;
  /** The Image column: the line's picture. */
  image?: (line: T) => string;
  /** The rental days column (rentals only). */
  rentalDays?: { title: string; render: (line: T) => ReactNode; align?: 'right' };
  /** The Price (Price / day for rentals) and Total columns: wire money strings. */
  prices?: { unit: (line: T) => string; total: (line: T) => string };
  /** Columns between the rental days and the prices. */
  beforePrices?: LineColumn<T>[];
  /** Columns after the last one. */
  after?: LineColumn<T>[];
  size?: TableProps<T>['size'];
  emptyText?: ReactNode;
}

/**
 * The products of an order: (image,) name with its variant tags, quantity, (rental days,)
 * price and total, and the columns a screen adds (due date, serial codes).
 */
export function OrderLinesTable<T extends { quantity: number }>(p: OrderLinesTableProps<T>) {
  const columns: LineColumn<T>[] = [
    ...(p.image ? [{ title: 'Image', key: 'image', render: (_: unknown, l: T) => <Image src={p.image!(l)} alt={p.name(l).product} width={48} preview={false} /> }] : []),
    {
      title: p.nameTitle ?? 'Name',
      key: 'name',
      render: (_: unknown, l: T) => {
        const n = p.name(l);
        return (
          <Space wrap size={4}>
            {n.product}
            {n.variant && <Tag>{n.variant}</Tag>}
            {n.subVariant && <Tag>{n.subVariant}</Tag>}
          </Space>
        );
      },
    },
    { title: 'Quantity', dataIndex: 'quantity', align: 'right' },
    ...(p.rent && p.rentalDays ? [{ title: p.rentalDays.title, key: 'rentalDays', align: p.rentalDays.align, render: (_: unknown, l: T) => p.rentalDays!.render(l) }] : []),
    ...(p.beforePrices ?? []),
    ...(p.prices
      ? [
          { title: p.rent ? 'Price / day' : 'Price', key: 'price', align: 'right' as const, render: (_: unknown, l: T) => money(p.prices!.unit(l)) },
          { title: 'Total', key: 'total', align: 'right' as const, render: (_: unknown, l: T) => money(p.prices!.total(l)) },
        ]
      : []),
    ...(p.after ?? []),
  ];
  return (
    <ResponsiveTable<T>
      rowKey={p.rowKey}
      size={p.size}
      pagination={false}
      dataSource={p.lines as T[]}
      scroll={{ x: true }}
      locale={p.emptyText === undefined ? undefined : { emptyText: p.emptyText }}
      columns={columns}
    />
  );
}
