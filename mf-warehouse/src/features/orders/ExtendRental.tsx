import { useState } from 'react';
import { Button, DatePicker, Form } from 'antd';
import dayjs from 'dayjs';
import type { Order } from '@dme/contracts';
import { endedEarlyLine, manilaDate, sumCents, toCents, type Cents } from '@dme/contracts/browser';
import { ExtendRentalButton as Shared, Extensions as SharedExtensions, money, RentalChangeModal } from '@dme/ui';
import { dateText } from '../../lib/rentalStatus';
import { useEndRentalEarlyMutation, useExtendRentalMutation } from './api';

const DAY = 'YYYY-MM-DD';

/** Staff's 'Extend rental' (issue 25): a rental booked ahead or out with the customer, through /api/orders/:id/extend. */
export function ExtendRentalButton({ order }: { order: Order }) {
  const [extend, state] = useExtendRentalMutation();
  return <Shared order={order} extend={(days) => extend({ orderId: order.id, days }).unwrap()} busy={state.isLoading} formatDate={dateText} />;
}

/** The changes of the rental's days (extensions, an early end), dates as the warehouse writes them. */
export function Extensions({ order }: { order: Order }) {
  return <SharedExtensions order={order} formatDate={dateText} />;
}

/** Ours (issue 25): the texts of 'End early'; the server's own messages are shown as they come. */
export const END_EARLY_TEXTS = {
  button: 'End early',
  title: 'End rental early',
  day: 'Return day',
  help: 'The customer gives the units back on this day: every product due later is due then, and charged up to it.',
  ok: 'End early',
  required: 'Choose the return day.',
} as const;

/**
 * What ending a delivered rental on `returnOn` takes off its total, by the contracts' rule (terms
 * endedEarlyLine: a line due later is charged from delivery to that day), and the total after.
 * An estimate: the server re-prices and decides.
 */
export function earlyEndPreview(order: Pick<Order, 'products' | 'deliveredAt' | 'totalAmount'>, returnOn: string): { offCents: Cents; totalCents: Cents } {
  if (!order.deliveredAt) return { offCents: 0, totalCents: toCents(order.totalAmount) };
  const delivered = manilaDate(new Date(order.deliveredAt));
  const off = sumCents(
    order.products
      .filter((l) => l.noOfRentalDays !== null)
      .map((l) => endedEarlyLine({ unitCents: toCents(l.productAmount), quantity: l.quantity, noOfRentalDays: l.noOfRentalDays ?? 0 }, delivered, returnOn).extraCents),
  );
  return { offCents: -off, totalCents: toCents(order.totalAmount) + off };
}

/**
 * 'End early' (issue 25): staff end a delivered rental early, on a day of the window the server
 * gives (`order.earlyEnd`: from today to the day before its last due date). The dialog asks for
 * the return day (days outside the window greyed out), previews what comes off the total, and
 * sends it; the server's message on success, its reason in the dialog when it refuses.
 */
export function EndRentalEarlyButton({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  if (!order.earlyEnd) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="end-early">
        {END_EARLY_TEXTS.button}
      </Button>
      {open && <EndRentalEarlyDialog order={order} window={order.earlyEnd} onClose={() => setOpen(false)} />}
    </>
  );
}

function EndRentalEarlyDialog({ order, window, onClose }: { order: Order; window: { from: string; to: string }; onClose: () => void }) {
  const [form] = Form.useForm<{ returnOn: dayjs.Dayjs }>();
  const [end, state] = useEndRentalEarlyMutation();
  const watched = Form.useWatch('returnOn', form) as dayjs.Dayjs | undefined;
  const preview = watched ? earlyEndPreview(order, watched.format(DAY)) : null;
  return (
    <RentalChangeModal
      title={END_EARLY_TEXTS.title}
      okText={END_EARLY_TEXTS.ok}
      danger
      busy={state.isLoading}
      form={form}
      name="end-early"
      initialValues={{ returnOn: dayjs(window.from, DAY) }}
      send={({ returnOn }) => end({ orderId: order.id, returnOn: returnOn.format(DAY) }).unwrap()}
      onClose={onClose}
      preview={
        preview && (
          <>
            Takes <strong>{money(preview.offCents)}</strong> off · new total <strong>{money(preview.totalCents)}</strong>
          </>
        )
      }
    >
      <Form.Item label={END_EARLY_TEXTS.day} name="returnOn" extra={END_EARLY_TEXTS.help} rules={[{ required: true, message: END_EARLY_TEXTS.required }]}>
        <DatePicker format={DAY} style={{ width: '100%' }} allowClear={false} disabledDate={(d) => d.format(DAY) < window.from || d.format(DAY) > window.to} />
      </Form.Item>
    </RentalChangeModal>
  );
}
