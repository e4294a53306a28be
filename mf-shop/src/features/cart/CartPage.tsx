import { Link } from 'react-router-dom';
import { Button, Image, Popconfirm, Space, Tag } from 'antd';
import { manilaDate, ORDER_MESSAGES } from '@dme/contracts/browser';
import type { CartItem, CartType } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { days, EmptyState, LazyErrorState, money, PageHeader, useFeedback, ResponsiveTable } from '@dme/ui';
import { useCartQuery, useRemoveFromCartMutation, useUpdateCartItemMutation } from './api';
import { RentalStartPicker, useRentalDays } from '../../lib/RentalStart';
import { AddressDialog } from '../../lib/checkout/AddressDialog';
import { useCheckout } from '../../lib/checkout/useCheckout';

/**
 * A rental line's start date, changed in the cart (issue 25): days on which its quantity is not free
 * for the whole rental are greyed out; the server checks the new days like adding and refuses with
 * the spec's max-stock message (shown as an error) when they were taken meanwhile.
 */
function StartCell({ item }: { item: CartItem }) {
  const { notify } = useFeedback();
  const [update] = useUpdateCartItemMutation();
  const rental = useRentalDays({
    productId: item.productID,
    variantId: item.productVariantID ?? undefined,
    subId: item.productSubVariantID ?? undefined,
    days: item.noOfRentalDays ?? 1,
    skip: !item.available,
  });
  const id = `start-${item.id}`;
  const change = async (startDate: string) => {
    try {
      await update({ id: item.id, type: 'RENT', quantity: item.quantity, startDate }).unwrap();
    } catch (err) {
      notify.error('Cart Error', errorMessage(err));
    }
  };
  return (
    <>
      <label htmlFor={id} style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        Start date of {item.name}
      </label>
      <RentalStartPicker id={id} value={item.startDate ?? manilaDate()} quantity={item.quantity} freeFrom={rental.freeFrom} onChange={(d) => void change(d)} />
    </>
  );
}

function CartTable({ type }: { type: CartType }) {
  const rent = type === 'RENT';
  const { notify } = useFeedback();
  const q = useCartQuery(type);
  const [remove] = useRemoveFromCartMutation();
  const checkout = useCheckout(type);
  const items = q.data?.items ?? [];
  const blocked = items.some((i) => !i.available);
  const title = rent ? 'To Rent Products' : 'To Purchase Products';

  return (
    <section aria-label={title} style={{ marginBottom: 32 }}>
      <h2 style={{ fontSize: 18, margin: '1.33em 0' }}>{title}</h2>
      {q.error ? (
        <LazyErrorState message={errorMessage(q.error)} onRetry={q.refetch} />
      ) : (
        <ResponsiveTable<CartItem>
          rowKey="id"
          loading={q.isLoading}
          dataSource={items}
          pagination={false}
          scroll={{ x: true }}
          locale={{ emptyText: <EmptyState description={rent ? 'No items to rent yet.' : 'No items to buy yet.'} /> }}
          columns={[
            { title: 'Image', dataIndex: 'image', render: (src: string, i: CartItem) => <Image src={src} alt={i.name} width={56} preview={false} /> },
            { title: 'Brand', dataIndex: 'brand' },
            {
              title: 'Name',
              key: 'name',
              render: (_: unknown, i: CartItem) => (
                <Space wrap size={4}>
                  <Link to={`/product-description/${i.productID}`}>{i.name}</Link>
                  {i.variant && <Tag>{i.variant.name}</Tag>}
                  {i.subVariant && <Tag>{i.subVariant.name}</Tag>}
                  {!i.available && <Tag color="red">No longer available</Tag>}
                </Space>
              ),
            },
            { title: 'Quantity', dataIndex: 'quantity', align: 'right' },
            ...(rent
              ? [
                  { title: 'Start Date', key: 'startDate', render: (_: unknown, i: CartItem) => <StartCell item={i} /> },
                  { title: 'Rental Duration', dataIndex: 'noOfRentalDays', render: (d: number) => days(d) },
                ]
              : []),
            { title: rent ? 'Price / day' : 'Price', dataIndex: 'price', align: 'right' as const, render: (v: string) => money(v) },
            { title: 'Total', dataIndex: 'lineTotal', align: 'right' as const, render: (v: string) => money(v) },
            {
              title: 'Remove',
              key: 'remove',
              render: (_: unknown, i: CartItem) => (
                <Popconfirm
                  title={ORDER_MESSAGES.removeConfirm}
                  okText="Yes"
                  cancelText="No"
                  destroyOnHidden
                  onConfirm={async () => {
                    try {
                      await remove({ id: i.id, type }).unwrap();
                    } catch (err) {
                      notify.error('Remove Error', errorMessage(err));
                    }
                  }}
                >
                  <Button danger size="small">
                    Remove
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      )}
      <div style={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 16, marginTop: 12 }}>
        {blocked && <span style={{ color: '#cf1322' }}>Remove the items that are no longer available to continue.</span>}
        <span style={{ fontSize: 16 }}>
          Total: <strong data-testid={`${type}-total`}>{money(q.data?.total ?? '0')}</strong>
        </span>
        <Button type="primary" size="large" disabled={items.length === 0 || blocked} onClick={() => checkout.setOpen(true)}>
          {rent ? 'Rent Now' : 'Buy Now'}
        </Button>
      </div>
      <AddressDialog
        open={checkout.open}
        cart={type}
        loading={checkout.placing}
        onCancel={() => checkout.setOpen(false)}
        onConfirm={(address) => void checkout.submit({ cartItemIDs: items.map((i) => i.id) }, address)}
      />
    </section>
  );
}

export default function CartPage() {
  return (
    <div>
      <PageHeader title="Cart" />
      <CartTable type="RENT" />
      <CartTable type="BUY" />
    </div>
  );
}
