import { Alert, Form, Input, Modal, Spin } from 'antd';
import type { CartType, OrderQuoteRequest, QuoteLine } from '@dme/contracts';
import { ADDRESS_MAX, ORDER_MESSAGES, ZIPCODE_MIN } from '@dme/contracts/browser';
import { errorMessage } from '@dme/api-client';
import { days, money, useCurrentUser } from '@dme/ui';
import { useCheckoutCartQuery, useOrderQuoteQuery } from './api';

export interface AddressValues {
  deliveryAddress: string;
  deliveryCity: string;
  deliveryState: string;
  deliveryZipcode: string;
  note?: string;
}

const M = ORDER_MESSAGES;

type SummaryLine = Pick<QuoteLine, 'name' | 'variant' | 'subVariant' | 'quantity' | 'noOfRentalDays' | 'lineTotal' | 'available'>;

/**
 * What Confirm Order places (issue 27): each item with its quantity (and rental days) and the
 * server's total, read from the cart the order is made of or quoted for a bulk order's lines;
 * nothing is priced here.
 */
function OrderSummary({ q, rent }: { q: { data?: { items: SummaryLine[]; total: string }; error?: unknown }; rent: boolean }) {
  if (q.error) return <Alert type="error" showIcon title="The order could not be loaded." description={errorMessage(q.error)} style={{ marginBottom: 16 }} />;
  if (!q.data) return <Spin style={{ display: 'block', margin: '8px 0 16px' }} />;
  return (
    <section aria-label="Your order" style={{ marginBottom: 16 }}>
      <h2 style={{ fontSize: 16, margin: '0 0 8px' }}>Your order</h2>
      <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {q.data.items.map((i, n) => (
          <li key={n} style={{ display: 'flex', justifyContent: 'space-between', gap: 12, padding: '4px 0', borderBottom: '1px solid rgba(5,5,5,0.06)' }}>
            <span>
              {[i.name, i.variant?.name, i.subVariant?.name].filter(Boolean).join(' / ')}
              <span style={{ color: 'rgba(0,0,0,0.65)' }}>
                {' '}
                × {i.quantity}
                {rent && i.noOfRentalDays ? `, ${days(i.noOfRentalDays)}` : ''}
              </span>
              {!i.available && <span style={{ color: '#cf1322' }}> (not available)</span>}
            </span>
            <span>{money(i.lineTotal)}</span>
          </li>
        ))}
      </ul>
      <p style={{ display: 'flex', justifyContent: 'space-between', margin: '8px 0 0', fontSize: 16 }}>
        <span>Total</span>
        <strong data-testid="confirm-total">{money(q.data.total)}</strong>
      </p>
    </section>
  );
}

function CartSummary({ type }: { type: CartType }) {
  return <OrderSummary q={useCheckoutCartQuery(type)} rent={type === 'RENT'} />;
}

function QuoteSummary({ order }: { order: OrderQuoteRequest }) {
  return <OrderSummary q={useOrderQuoteQuery(order)} rent={order.type === 'RENT'} />;
}

/**
 * 'Review Address' (SPEC §2, §5): prefilled from the profile, every rule and message of the spec;
 * when it places a cart (`cart`) or a bulk order (`quote`), it shows first what is being
 * confirmed, priced by the server (issue 27).
 */
export function AddressDialog({
  open,
  onCancel,
  onConfirm,
  loading,
  cart,
  quote,
}: {
  open: boolean;
  /** The cart this checkout places: its items, quantities and the server's total are shown. */
  cart?: CartType;
  /** The bulk order this checkout places: its lines as the server prices them are shown. */
  quote?: OrderQuoteRequest;
  onCancel: () => void;
  onConfirm: (v: AddressValues) => void;
  loading: boolean;
}) {
  const user = useCurrentUser();
  const [form] = Form.useForm<AddressValues>();
  return (
    <Modal
      title="Review Address"
      open={open}
      onCancel={onCancel}
      okText="Confirm Order"
      confirmLoading={loading}
      onOk={() => void form.validateFields().then(onConfirm).catch(() => undefined)}
      destroyOnHidden
    >
      {open && cart && <CartSummary type={cart} />}
      {open && quote && <QuoteSummary order={quote} />}
      <Form
        form={form}
        layout="vertical"
        name="address"
        initialValues={{ deliveryAddress: user.address, deliveryCity: user.city, deliveryState: user.state, deliveryZipcode: user.zipcode, note: '' }}
      >
        <Form.Item label="Address" name="deliveryAddress" rules={[{ required: true, whitespace: true, message: M.address }, { max: ADDRESS_MAX, message: M.addressMax }]}>
          <Input autoComplete="street-address" />
        </Form.Item>
        <Form.Item label="City" name="deliveryCity" rules={[{ required: true, whitespace: true, message: M.city }]}>
          <Input autoComplete="address-level2" />
        </Form.Item>
        <Form.Item label="State" name="deliveryState" rules={[{ required: true, whitespace: true, message: M.state }]}>
          <Input autoComplete="address-level1" />
        </Form.Item>
        <Form.Item label="Zipcode" name="deliveryZipcode" rules={[{ required: true, whitespace: true, message: M.zipcode }, { min: ZIPCODE_MIN, message: M.zipcodeMin }]}>
          <Input autoComplete="postal-code" />
        </Form.Item>
        <Form.Item label="Note" name="note">
          <Input.TextArea rows={2} maxLength={500} placeholder="Optional: landmarks, delivery time" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
