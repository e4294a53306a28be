import { useEffect, useState } from 'react';
import { Button, InputNumber, Select, Space } from 'antd';
import type { ProductCard } from '@dme/contracts';
import { centsToString, lineTotalCents, manilaDate, ORDER_MESSAGES, toCents } from '@dme/contracts/browser';
import { RentalStartPicker, useRentalDays } from '../../lib/RentalStart';
import { money, PageHeader, ResponsiveTable } from '@dme/ui';
import { useProductCardPagesInfiniteQuery, useProductQuery } from '../../lib/catalogApi';
import { AddressDialog } from '../../lib/checkout/AddressDialog';
import { chooseLeaf } from '../../lib/leaf';
import { useCheckout } from '../../lib/checkout/useCheckout';

interface Line {
  key: number;
  productID?: string;
  /** The chosen product's name (brand), shown while a search lists other products. */
  productLabel?: string;
  variantID?: string;
  subVariantID?: string;
  quantity: number;
  days: number;
  /** A rental line's first day (issue 25; today unless chosen). */
  start: string;
  /** A rental line: units free for its whole period from `start` (the catalog's answer). */
  datedAvailable?: number | undefined;
  /** Known once the product is loaded: unit price and availability of the chosen level. */
  price?: string;
  available?: number;
  complete: boolean;
}

/** One editable line; its product's variants come from the product itself. */
function useLineProduct(line: Line, update: (patch: Partial<Line>) => void) {
  const q = useProductQuery(line.productID ?? '', { skip: !line.productID });
  const product = line.productID ? q.data?.product : undefined;
  const c = product ? chooseLeaf(product, line.variantID, line.subVariantID) : undefined;
  const leaf = { complete: c?.complete ?? false, price: c?.price ?? undefined, available: c?.available };
  useEffect(() => {
    if (leaf.complete !== line.complete || leaf.price !== line.price || leaf.available !== line.available) {
      update({ complete: leaf.complete, price: leaf.price, available: leaf.available });
    }
  }, [leaf.complete, leaf.price, leaf.available, line.complete, line.price, line.available, update]);
  return product;
}

function VariantCell({ line, update }: { line: Line; update: (patch: Partial<Line>) => void }) {
  const product = useLineProduct(line, update);
  const variant = product?.variants.find((v) => v.id === line.variantID);
  if (!product || product.variants.length === 0) return <span>—</span>;
  return (
    <Space direction="vertical" size={4}>
      <Select
        aria-label="Variant"
        placeholder="Variant"
        style={{ width: 160 }}
        value={line.variantID}
        onChange={(v) => update({ variantID: v, subVariantID: undefined })}
        options={product.variants.map((v) => ({ value: v.id, label: v.name }))}
      />
      {variant && variant.subVariants.length > 0 && (
        <Select
          aria-label="Sub-variant"
          placeholder="Sub-variant"
          style={{ width: 160 }}
          value={line.subVariantID}
          onChange={(v) => update({ subVariantID: v })}
          options={variant.subVariants.map((s) => ({ value: s.id, label: s.name }))}
        />
      )}
    </Space>
  );
}

/** A rental line's start date: days on which its quantity is not free for the whole rental are greyed out. */
function StartCell({ line, index, update }: { line: Line; index: number; update: (patch: Partial<Line>) => void }) {
  const rental = useRentalDays({ productId: line.productID ?? '', variantId: line.variantID, subId: line.subVariantID, days: line.days, skip: !line.productID || !line.complete });
  const free = line.complete ? rental.freeFrom(line.start) : undefined;
  useEffect(() => {
    if (free !== line.datedAvailable) update({ datedAvailable: free });
  }, [free, line.datedAvailable, update]);
  if (!line.complete) return <span>—</span>;
  return (
    <>
      <label htmlFor={`start-${line.key}`} style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        Start date of line {index + 1}
      </label>
      <RentalStartPicker id={`start-${line.key}`} value={line.start} quantity={line.quantity} freeFrom={rental.freeFrom} onChange={(d) => update({ start: d })} />
    </>
  );
}

/** How long the product search waits after the last keystroke before asking the server. */
const SEARCH_DEBOUNCE_MS = 300;

const cardLabel = (p: ProductCard) => `${p.name} (${p.brand})`;

/**
 * A line's product: searched on the server (name or brand) as the customer types, 100 at a time
 * with "Load more" past that, so any product of the type can be found (the catalogue can hold
 * more than the API's page of 100).
 */
function ProductPicker({ line, index, rent, onPick }: { line: Line; index: number; rent: boolean; onPick: (p: ProductCard) => void }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setSearch(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [typed]);
  const pages = useProductCardPagesInfiniteQuery({ type: rent ? 'FOR_RENT' : 'FOR_SALE', ...(search ? { search } : {}) });
  const found = pages.data?.pages.flatMap((p) => p.items) ?? [];
  const total = pages.data?.pages.at(-1)?.total ?? 0;
  const options: Array<{ value: string; label: string; disabled: boolean; card?: ProductCard }> = found.map((p) => ({ value: p.id, label: cardLabel(p), disabled: !p.inStock, card: p }));
  // The chosen product keeps its name while a search lists others.
  if (line.productID && line.productLabel && !found.some((p) => p.id === line.productID)) options.unshift({ value: line.productID, label: line.productLabel, disabled: false });
  const busy = pages.isFetching || typed.trim() !== search;
  return (
    <Select
      aria-label={`Product of line ${index + 1}`}
      showSearch
      filterOption={false}
      searchValue={typed}
      onSearch={setTyped}
      placeholder={rent ? 'For Rental Items' : 'For Sale Items'}
      style={{ width: 240 }}
      loading={busy}
      notFoundContent={busy ? 'Searching…' : search ? 'No products match.' : 'No products yet.'}
      value={line.productID}
      onChange={(_v, option) => {
        const card = (option as { card?: ProductCard } | undefined)?.card;
        if (card) onPick(card);
        setTyped('');
      }}
      options={options}
      popupRender={(menu) => (
        <>
          {menu}
          {pages.hasNextPage && (
            <div style={{ padding: '4px 8px', display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
              <span style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>
                {found.length} of {total}: type to narrow
              </span>
              <Button size="small" loading={pages.isFetchingNextPage} onMouseDown={(e) => e.preventDefault()} onClick={() => void pages.fetchNextPage()}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
    />
  );
}

let nextKey = 1;
const emptyLine = (): Line => ({ key: nextKey++, quantity: 1, days: 1, start: manilaDate(), complete: false });

/**
 * Each bulk page keeps its own draft while the app is open: lines chosen for a rental never show
 * up on the purchase page, and coming back to a page finds its lines as they were left.
 */
const drafts: Partial<Record<'RENT' | 'BUY', Line[]>> = {};

/** Bulk rental or purchase order, entered line by line with live totals (SPEC §2). */
export default function BulkOrderPage({ type }: { type: 'RENT' | 'BUY' }) {
  const rent = type === 'RENT';
  const [lines, setLines] = useState<Line[]>(() => drafts[type] ?? [emptyLine()]);
  useEffect(() => {
    drafts[type] = lines;
  }, [type, lines]);
  const checkout = useCheckout(type);
  const update = (key: number) => (patch: Partial<Line>) => setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const availableOf = (l: Line) => (rent ? (l.datedAvailable ?? l.available) : l.available);
  const over = (l: Line) => availableOf(l) !== undefined && l.quantity > availableOf(l)!;
  const lineCents = (l: Line) => (l.complete && l.price ? lineTotalCents({ unitCents: toCents(l.price), quantity: l.quantity, noOfRentalDays: rent ? l.days : null }) : 0);
  const total = lines.reduce((a, l) => a + lineCents(l), 0);
  const ready = lines.length > 0 && lines.every((l) => l.complete && !over(l));
  // The lines as the order sends them, and as the confirmation has them priced by the server.
  const orderLines = lines.map((l) => ({
    productID: l.productID!,
    productVariantID: l.variantID ?? null,
    productSubVariantID: l.subVariantID ?? null,
    quantity: l.quantity,
    ...(rent ? { noOfRentalDays: l.days, startDate: l.start } : {}),
  }));
  // Why Place Order is disabled (issue 27): the first line that is not ready, said next to the button.
  const notReady = lines.map((l, i) => {
    const n = lines.length > 1 ? ` on line ${i + 1}` : '';
    if (!l.productID) return `Choose a product${n}.`;
    if (!l.complete) return `Choose a variant${n}.`;
    if (over(l)) return `Lower the quantity${n}: only ${availableOf(l)} available.`;
    return undefined;
  }).find(Boolean);

  return (
    <div>
      <PageHeader title={rent ? 'Create Bulk Rental Order' : 'Create Bulk Purchased Order'} />
      <ResponsiveTable<Line>
        rowKey="key"
        dataSource={lines}
        pagination={false}
        scroll={{ x: true }}
        columns={[
          {
            title: 'Product',
            key: 'product',
            render: (_: unknown, l: Line) => (
              <ProductPicker
                line={l}
                index={lines.indexOf(l)}
                rent={rent}
                onPick={(p) =>
                  update(l.key)({ productID: p.id, productLabel: cardLabel(p), variantID: undefined, subVariantID: undefined, complete: false, price: undefined, available: undefined, datedAvailable: undefined })
                }
              />
            ),
          },
          { title: 'Variant', key: 'variant', render: (_: unknown, l: Line) => <VariantCell line={l} update={update(l.key)} /> },
          {
            title: 'Quantity',
            key: 'quantity',
            render: (_: unknown, l: Line) => (
              <div>
                <InputNumber aria-label="Quantity" min={1} precision={0} value={l.quantity} onChange={(v) => update(l.key)({ quantity: Math.max(1, Number(v ?? 1)) })} />
                {availableOf(l) !== undefined && <div style={{ color: 'rgba(0,0,0,0.45)', fontSize: 12 }}>{availableOf(l)} available</div>}
                {over(l) && (
                  <div role="alert" style={{ color: '#cf1322', fontSize: 12, maxWidth: 240 }}>
                    {ORDER_MESSAGES.maxStock}
                  </div>
                )}
              </div>
            ),
          },
          ...(rent
            ? [{
                title: 'Rental days',
                key: 'days',
                render: (_: unknown, l: Line) => (
                  <InputNumber aria-label="Rental days" min={1} precision={0} value={l.days} onChange={(v) => update(l.key)({ days: Math.max(1, Number(v ?? 1)) })} />
                ),
              }, {
                title: 'Start date',
                key: 'start',
                render: (_: unknown, l: Line) => <StartCell line={l} index={lines.indexOf(l)} update={update(l.key)} />,
              }]
            : []),
          { title: rent ? 'Price / day' : 'Price', key: 'price', align: 'right' as const, render: (_: unknown, l: Line) => (l.price ? money(l.price) : '—') },
          { title: 'Total', key: 'total', align: 'right' as const, render: (_: unknown, l: Line) => (l.complete ? money(centsToString(lineCents(l))) : '—') },
          {
            title: 'Action',
            key: 'remove',
            render: (_: unknown, l: Line) => (
              <Button danger size="small" disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}>
                Remove
              </Button>
            ),
          },
        ]}
      />
      <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginTop: 12, gap: 16, flexWrap: 'wrap' }}>
        <Button onClick={() => setLines((ls) => [...ls, emptyLine()])}>Add line</Button>
        <Space size={16}>
          <span style={{ fontSize: 16 }}>
            Total: <strong data-testid="bulk-total">{money(centsToString(total))}</strong>
          </span>
          {!ready && notReady && (
            <span id="place-order-why" style={{ color: 'rgba(0,0,0,0.65)' }}>
              {notReady}
            </span>
          )}
          <Button type="primary" size="large" disabled={!ready} aria-describedby={!ready && notReady ? 'place-order-why' : undefined} onClick={() => checkout.setOpen(true)}>
            Place Order
          </Button>
        </Space>
      </div>
      <AddressDialog
        open={checkout.open}
        quote={{ type: rent ? 'RENT' : 'BUY', lines: orderLines }}
        loading={checkout.placing}
        onCancel={() => checkout.setOpen(false)}
        onConfirm={(address) =>
          void checkout
            .submit(
            { typeOfOrder: 'BULK', lines: orderLines },
            address,
          )
            .then((placed) => {
              if (placed) delete drafts[type];
            })
        }
      />
    </div>
  );
}
