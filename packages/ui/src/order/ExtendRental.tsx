import { useState, type ReactNode } from 'react';
import { Alert, Button, Form, InputNumber, Modal, type FormInstance } from 'antd';
import { ResponsiveTable } from '../ResponsiveTable';
import { addDays, extendedLine, formatManilaDateTime, MAX_RENTAL_DAYS, sumCents, toCents, type Cents } from '@dme/contracts/browser';
import type { Order } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '../feedback';
import { money } from '../money';
import { SectionTitle } from '../SectionTitle';
import { days as daysText } from './OrderLinesTable';

/** Ours (issue 25): the texts of the extension dialog; the server's own messages are shown as they come. */
export const EXTEND_TEXTS = {
  button: 'Extend rental',
  title: 'Extend rental',
  days: 'Extra days',
  ok: 'Extend',
  daysRange: `Enter a number of days from 1 to ${MAX_RENTAL_DAYS}.`,
  estimate: 'An estimate: the server confirms the price and the due date.',
} as const;

const BY_LABELS: Record<Order['extensions'][number]['by'], string> = { CUSTOMER: 'Customer', STAFF: 'Staff' };

/**
 * What `days` more add to a rental, by the contracts' price rule (terms extendedLine: same unit
 * price and quantity, more days), and the latest new due date of its lines (due date, or booked
 * start + days before delivery, moved by `days`). An estimate: the server re-prices and decides.
 */
export function extensionPreview(order: Pick<Order, 'products'>, days: number): { extraCents: Cents; dueDate: string | null } {
  const lines = order.products.filter((l) => l.noOfRentalDays !== null);
  const extraCents = sumCents(lines.map((l) => extendedLine({ unitCents: toCents(l.productAmount), quantity: l.quantity, noOfRentalDays: l.noOfRentalDays ?? 0 }, days).extraCents));
  const dues = lines.flatMap((l) => {
    const due = l.dueDate ?? (l.startDate ? addDays(l.startDate, l.noOfRentalDays ?? 0) : null);
    return due ? [addDays(due, days)] : [];
  });
  const dueDate = dues.length ? dues.reduce((a, b) => (b > a ? b : a)) : null;
  return { extraCents, dueDate };
}

const validDays = (d: unknown): d is number => typeof d === 'number' && Number.isInteger(d) && d >= 1 && d <= MAX_RENTAL_DAYS;

/** How an app sends an extension (its own route: the customer's or staff's) and writes a day. */
export interface ExtendRentalProps {
  order: Order;
  /** Sends `days` more; resolves with the server's message, rejects with its problem. */
  extend: (days: number) => Promise<{ message: string }>;
  busy: boolean;
  formatDate: (date: string) => string;
}

/**
 * 'Extend rental' (issue 25): shown while the order says the caller may extend it now (the
 * customer their ongoing rental, staff one booked ahead or out). The dialog asks for the extra
 * days, previews what they add and the new due date, and sends them; the server's message is
 * shown on success, its reason (and until when it could go) in the dialog when it refuses, the
 * dialog staying open.
 */
export function ExtendRentalButton(props: ExtendRentalProps) {
  const [open, setOpen] = useState(false);
  if (!props.order.extendable) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="extend-rental">
        {EXTEND_TEXTS.button}
      </Button>
      {open && <ExtendRentalDialog {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

/** What a dialog that changes a rental's days needs: its words, its form and fields, what it sends, and its preview. */
export interface RentalChangeModalProps<V> {
  title: string;
  okText: string;
  danger?: boolean;
  busy: boolean;
  form: FormInstance<V>;
  /** The form's name, and the prefix of the preview's and the error's test ids. */
  name: string;
  initialValues: Partial<V>;
  /** Sends the values; resolves with the server's message, rejects with its problem. */
  send: (values: V) => Promise<{ message: string }>;
  onClose: () => void;
  /** What the change would do (an estimate from the terms rule), or null while the values are not valid. */
  preview: ReactNode;
  children: ReactNode;
}

/**
 * A dialog that changes a rental's days (issue 25: an extension, an early end): its fields, a
 * preview marked as an estimate, the server's message as a toast on success (the dialog closes),
 * its reason in the dialog when it refuses (the dialog stays open, cleared on the next edit).
 */
export function RentalChangeModal<V>(props: RentalChangeModalProps<V>) {
  const { notify } = useFeedback();
  const [error, setError] = useState<string>();
  const submit = async (values: V) => {
    setError(undefined);
    try {
      const res = await props.send(values);
      notify.success(res.message);
      props.onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Modal
      title={props.title}
      open
      onCancel={props.onClose}
      okText={props.okText}
      // Disabled while sending, not antd's loading icon: rc-motion can leave that icon behind after
      // a quick refusal on a busy device (the leave's start and end in one frame, no transition,
      // no end event), naming the button "loading Extend" from then on (CI met it).
      okButtonProps={{ danger: props.danger ?? false, disabled: props.busy }}
      onOk={() => void props.form.validateFields().then(submit).catch(() => undefined)}
      destroyOnHidden
    >
      <Form form={props.form} layout="vertical" name={props.name} initialValues={props.initialValues} onValuesChange={() => setError(undefined)}>
        {props.children}
      </Form>
      {props.preview && (
        <div data-testid={`${props.name}-preview`} style={{ marginBottom: 12 }}>
          <div>{props.preview}</div>
          <div style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }}>{EXTEND_TEXTS.estimate}</div>
        </div>
      )}
      {error && <Alert type="error" showIcon data-testid={`${props.name}-error`} title={error} />}
    </Modal>
  );
}

function ExtendRentalDialog({ order, extend, busy, formatDate, onClose }: ExtendRentalProps & { onClose: () => void }) {
  const [form] = Form.useForm<{ days: number }>();
  const watched = Form.useWatch('days', form) as unknown;
  const preview = validDays(watched) ? extensionPreview(order, watched) : null;
  return (
    <RentalChangeModal
      title={EXTEND_TEXTS.title}
      okText={EXTEND_TEXTS.ok}
      busy={busy}
      form={form}
      name="extend"
      initialValues={{ days: 1 }}
      send={({ days }) => extend(days)}
      onClose={onClose}
      preview={
        preview && (
          <>
            Adds <strong>{money(preview.extraCents)}</strong>
            {preview.dueDate && (
              <>
                {' '}
                · due back on <strong>{formatDate(preview.dueDate)}</strong>
              </>
            )}
          </>
        )
      }
    >
      <Form.Item label={EXTEND_TEXTS.days} name="days" rules={[{ required: true, type: 'integer', min: 1, max: MAX_RENTAL_DAYS, message: EXTEND_TEXTS.daysRange }]}>
        <InputNumber min={1} max={MAX_RENTAL_DAYS} precision={0} step={1} style={{ width: '100%' }} />
      </Form.Item>
    </RentalChangeModal>
  );
}

type Change = Order['extensions'][number];

/** What a change of the rental's days was: more days, or ended early on its return day. */
const changeText = (x: Change, formatDate: (d: string) => string) => (x.kind === 'END_EARLY' ? `Ended early: back on ${formatDate(x.returnOn ?? '')}` : 'Extended');

/**
 * The changes of the rental's days so far (issue 25): extensions and an early end, how many days
 * (fewer below zero), what they did to the total, by whom and when.
 */
export function Extensions({ order, formatDate = (d) => d }: { order: Order; formatDate?: (date: string) => string }) {
  // Older servers leave the list out.
  const extensions = order.extensions ?? [];
  if (extensions.length === 0) return null;
  return (
    <section aria-label="Extensions" style={{ marginTop: 24 }}>
      <SectionTitle>Extensions</SectionTitle>
      <ResponsiveTable
        rowKey={(e) => `${e.createdAt}-${e.kind}-${e.days}-${e.by}`}
        size="small"
        pagination={false}
        dataSource={extensions}
        scroll={{ x: true }}
        columns={[
          { title: 'Change', key: 'change', render: (_: unknown, x: Change) => changeText(x, formatDate) },
          { title: 'Days', dataIndex: 'days', render: (d: number) => daysText(d) },
          { title: 'Amount', dataIndex: 'amount', align: 'right' as const, render: (a: string) => money(a) },
          { title: 'By', dataIndex: 'by', render: (b: Order['extensions'][number]['by']) => BY_LABELS[b] },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
        ]}
      />
    </section>
  );
}
