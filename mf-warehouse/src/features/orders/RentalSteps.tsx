import { Alert, Button, Popconfirm, Space, Tag } from 'antd';
import {
  formatManilaDateTime,
  RENTAL_MESSAGES,
  REQUEST_NEXT,
  RETURN_STATUSES,
} from '@dme/contracts/browser';
import type { Order, OrderLine, OrderRequest, ReturnStatus } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { EmptyState, money, StatusTag, useFeedback, SectionTitle, ResponsiveTable } from '@dme/ui';
import { useReturnSerialMutation, useTransitionOrderMutation, useUpdateRequestMutation } from './api';
import { statusText } from '../../lib/rentalStatus';
import { fullPaymentPromptText, RETURN_MARK_COLORS, returnMark, returnProgress } from './format';

/**
 * The rental steps of staff (SPEC §4): DELIVERED → FOR_RETURN once a product is due, the returns
 * inspection in FOR_PICK_UP (each serial code OK, LOST or DAMAGED), FOR_PICK_UP → FOR_FULL_PAYMENT
 * once every code is marked, and the customer's fix or replace requests. Each success invalidates
 * the order, so it is fetched again.
 */

/** Ours: why 'For Return' is disabled while the rental is DELIVERED. */
export const FOR_RETURN_NOT_DUE = 'No product of this rental has reached its due date yet.';
/** Ours: why 'For Full Payment' is disabled while the returns are inspected. */
export const MARK_EVERY_SERIAL = (marked: number, total: number) =>
  `Mark every serial code OK, LOST or DAMAGED (${marked} of ${total} marked): 'For Full Payment' is enabled then.`;
export const FOR_RETURN_PROMPT = 'Mark this rental For Return?';
export const FULL_PAYMENT_PROMPT = 'Ask the customer for the full payment?';
export const NO_REQUESTS = 'No requests';

const can = (o: Order, to: Order['allowedTransitions'][number]) => o.allowedTransitions.includes(to);

/** 'For Return' (DELIVERED) and 'For Full Payment' (FOR_PICK_UP) buttons of a rental, each behind a confirmation. */
export function RentalStepButtons({ order }: { order: Order }) {
  const { notify, confirm } = useFeedback();
  const [transition, state] = useTransitionOrderMutation();
  if (order.type !== 'RENT') return null;

  const onForReturn = async () => {
    const ok = await confirm({
      title: FOR_RETURN_PROMPT,
      content: 'The rental period of a product has ended: a driver will pick the items up from the customer.',
      okText: 'Yes',
      cancelText: 'No',
    });
    if (!ok) return;
    try {
      await transition({ id: order.id, body: { to: 'FOR_RETURN' } }).unwrap();
      notify.success('Rental marked For Return.');
    } catch (err) {
      notify.error('For Return Error', errorMessage(err));
    }
  };

  const onFullPayment = async () => {
    const ok = await confirm({
      title: FULL_PAYMENT_PROMPT,
      content: fullPaymentPromptText(order.fullPaymentPreview ?? null),
      okText: 'Yes',
      cancelText: 'No',
    });
    if (!ok) return;
    try {
      await transition({ id: order.id, body: { to: 'FOR_FULL_PAYMENT' } }).unwrap();
      notify.success('Full payment requested.');
    } catch (err) {
      notify.error('For Full Payment Error', errorMessage(err));
    }
  };

  if (order.status === 'DELIVERED') {
    return (
      <Button
        type="primary"
        disabled={!can(order, 'FOR_RETURN')}
        loading={state.isLoading}
        onClick={() => void onForReturn()}
        aria-describedby={can(order, 'FOR_RETURN') ? undefined : 'for-return-hint'}
      >
        For Return
      </Button>
    );
  }
  if (order.status === 'FOR_PICK_UP') {
    return (
      <Button
        type="primary"
        disabled={!can(order, 'FOR_FULL_PAYMENT')}
        loading={state.isLoading}
        onClick={() => void onFullPayment()}
        aria-describedby={can(order, 'FOR_FULL_PAYMENT') ? undefined : 'full-payment-hint'}
      >
        For Full Payment
      </Button>
    );
  }
  return null;
}

/** Why a rental step is not possible yet. */
export function RentalStepHints({ order }: { order: Order }) {
  if (order.type !== 'RENT') return null;
  if (order.status === 'DELIVERED' && !can(order, 'FOR_RETURN')) {
    return <Alert id="for-return-hint" type="info" showIcon style={{ marginBottom: 16 }} title={FOR_RETURN_NOT_DUE} />;
  }
  if (order.status === 'FOR_PICK_UP' && !can(order, 'FOR_FULL_PAYMENT')) {
    const { marked, total } = returnProgress(order);
    return <Alert id="full-payment-hint" type="info" showIcon style={{ marginBottom: 16 }} title={MARK_EVERY_SERIAL(marked, total)} />;
  }
  return null;
}

type Serial = OrderLine['serialCodes'][number];

/** The bin a unit was packed from (SPEC §3 serial code entry), where the warehouse finds or puts it back. */
function BinText({ serial }: { serial: Serial }) {
  return serial.warehouseBin ? <span style={{ color: 'rgba(0,0,0,0.6)' }}>Bin {serial.warehouseBin.name}</span> : null;
}

/**
 * One serial code of a line with the bin it was packed from: RETURNED with its mark and return
 * time (updatedAt) once inspected; in a FOR_PICK_UP rental, OK / LOST / DAMAGED buttons until then.
 */
export function SerialCodeCell({ order, line, serial }: { order: Order; line: OrderLine; serial: Serial }) {
  const mark = returnMark(serial);
  if (mark) {
    return (
      <Space size={4} wrap data-testid={`serial-${serial.serialCode}`}>
        <Tag>{serial.serialCode}</Tag>
        <Tag color="purple">RETURNED</Tag>
        <Tag color={RETURN_MARK_COLORS[mark]}>{mark}</Tag>
        {serial.updatedAt && <span>{formatManilaDateTime(serial.updatedAt)}</span>}
        <BinText serial={serial} />
      </Space>
    );
  }
  if (order.type === 'RENT' && order.status === 'FOR_PICK_UP') return <ReturnButtons order={order} line={line} serial={serial} />;
  return (
    <Space size={4} wrap>
      <Tag data-testid={`serial-${serial.serialCode}`}>
        {serial.serialCode}
        {serial.status ? ` · ${statusText(serial.status)}` : ''}
      </Tag>
      <BinText serial={serial} />
    </Space>
  );
}

function ReturnButtons({ order, line, serial }: { order: Order; line: OrderLine; serial: Serial }) {
  const { serialCode, warehouseBin } = serial;
  const { notify } = useFeedback();
  const [markReturn, state] = useReturnSerialMutation();
  const onMark = async (status: ReturnStatus) => {
    try {
      await markReturn({ id: order.id, serialCode, status }).unwrap();
      notify.success(`${serialCode} marked ${status}.`);
    } catch (err) {
      notify.error('Return Error', errorMessage(err));
    }
  };
  return (
    <Space size={4} wrap data-testid={`serial-${serialCode}`}>
      <Tag>{serialCode}</Tag>
      <BinText serial={serial} />
      {RETURN_STATUSES.map((status) => (
        <Popconfirm
          key={status}
          title={`Mark ${serialCode} as ${status}?`}
          description={
            status === 'OK'
              ? `It goes back to the available stock${warehouseBin ? ` (bin ${warehouseBin.name})` : ''}.`
              : `Its damage or lost fee (${money(line.productDamageCharges)}) is added to the full payment.`
          }
          okText="Yes"
          cancelText="No"
          okButtonProps={status === 'OK' ? undefined : { danger: true }}
          onConfirm={() => onMark(status)}
        >
          <Button size="small" danger={status !== 'OK'} disabled={state.isLoading} aria-label={`Mark ${serialCode} as ${status}`}>
            {status}
          </Button>
        </Popconfirm>
      ))}
    </Space>
  );
}

const REQUEST_ACTION_LABEL = { ON_PROGRESS: RENTAL_MESSAGES.markOnProgress, DONE: RENTAL_MESSAGES.markDone } as const;

function RequestAction({ order, request }: { order: Order; request: OrderRequest }) {
  const { notify } = useFeedback();
  const [update, state] = useUpdateRequestMutation();
  const next = REQUEST_NEXT[request.status];
  if (!next) return <span style={{ color: 'rgba(0,0,0,0.6)' }}>—</span>;
  const label = REQUEST_ACTION_LABEL[next];
  const onUpdate = async () => {
    try {
      await update({ id: order.id, requestId: request.id, body: { status: next } }).unwrap();
      notify.success(`Request marked ${next === 'DONE' ? 'Done' : 'On Progress'}.`);
    } catch (err) {
      notify.error('Update Request Error', errorMessage(err));
    }
  };
  return (
    // One Popconfirm per step (keyed), so the next step's prompt starts closed and fresh.
    <Popconfirm key={next} title={`${label}?`} description={`This ${request.type} request cannot be moved back.`} okText="Yes" cancelText="No" onConfirm={() => onUpdate()}>
      <Button size="small" type={next === 'DONE' ? 'primary' : 'default'} disabled={state.isLoading}>
        {label}
      </Button>
    </Popconfirm>
  );
}

const requestLineName = (p: OrderRequest['products'][number]) => [p.productName, p.variantName, p.subVariantName].filter(Boolean).join(' / ');

/** The rental's fix or replace requests (SPEC §2, §4), with Mark as On Progress, then Mark as Done. */
export function RequestsSection({ order }: { order: Order }) {
  return (
    <section aria-label="Requests" style={{ marginTop: 24 }}>
      <SectionTitle>Requests</SectionTitle>
      <ResponsiveTable<OrderRequest>
        rowKey="id"
        pagination={false}
        dataSource={order.requests}
        scroll={{ x: true }}
        locale={{ emptyText: <EmptyState description={NO_REQUESTS} /> }}
        columns={[
          { title: 'Type', dataIndex: 'type', render: (t: string) => <Tag>{t}</Tag> },
          {
            title: 'Products',
            key: 'products',
            render: (_: unknown, r: OrderRequest) => (
              <Space orientation="vertical" size={2}>
                {r.products.map((p) => (
                  <span key={p.lineID}>{requestLineName(p)}</span>
                ))}
              </Space>
            ),
          },
          { title: 'Note', dataIndex: 'userNote', render: (n: string) => n || '—' },
          { title: 'Date', dataIndex: 'createdAt', render: (d: string) => formatManilaDateTime(d) },
          { title: 'Status', dataIndex: 'status', render: (s: string) => <StatusTag kind="request" status={s} /> },
          { title: 'Actions', key: 'actions', render: (_: unknown, r: OrderRequest) => <RequestAction order={order} request={r} /> },
        ]}
      />
    </section>
  );
}
