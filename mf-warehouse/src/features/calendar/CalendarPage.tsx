import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Button, DatePicker, Form, Input, Modal, Segmented, Select, Space, Tag } from 'antd';
import dayjs from 'dayjs';
import type { CalendarResponse, DowntimeReason, UnitBooking } from '@dme/contracts';
import { addDays, BOOKING_MESSAGES, DOWNTIME_REASONS, formatBusinessDate, isIsoDate, manilaDate } from '@dme/contracts/browser';
import { errorMessage } from '@dme/api-client';
import { EmptyState, LazyErrorState, Loading, PageHeader, ResponsiveTable, useFeedback } from '@dme/ui';
import { useCreateDowntimeMutation, useProductCalendarQuery, useRemoveDowntimeMutation, useRentalProductsQuery } from './api';
import { KINDS, type Picked } from './Timeline';
import { AtRiskPanel } from './AtRiskPanel';

const Timeline = lazy(() => import('./Timeline'));
const DAY = 'YYYY-MM-DD';
const VIEWS = { week: 7, month: 30 } as const;
type View = keyof typeof VIEWS;
const REASON_LABELS: Record<DowntimeReason, string> = { MAINTENANCE: 'Maintenance', REPAIR: 'Repair', MISSING: 'Missing' };

/** The item colours of the timeline, and its rows a readable height. */
const TIMELINE_CSS = `
.cal-booking { background: ${KINDS.booking.color}; border-color: ${KINDS.booking.color}; color: #fff; }
.cal-overdue { background: ${KINDS.overdue.color}; border-color: ${KINDS.overdue.color}; color: #fff; }
.cal-turnaround { background: ${KINDS.turnaround.color}; border-color: ${KINDS.turnaround.color}; }
.cal-downtime { background: ${KINDS.downtime.color}; border-color: ${KINDS.downtime.color}; color: #fff; }
.vis-item.vis-range { cursor: pointer; }
`;

interface DowntimeValues {
  unit: string;
  from: dayjs.Dayjs;
  to: dayjs.Dayjs;
  reason: DowntimeReason;
  note?: string;
}

/** A booking as the table under the grid lists it (the same facts, readable by everyone). */
interface Row extends UnitBooking {
  serialCode: string;
}

/**
 * The staff calendar (issue 25; SUPERADMIN and warehouse roles): a rental product's units, one
 * row each, over a week or a month, with bookings, turnaround, downtime and overdue days. Click a
 * booking to open its order, a downtime to remove it; "Add downtime" blocks a unit or all units.
 * Above them, the bookings at risk of every product (a unit still out past its due date).
 * Product, first day and view are in the address (?product=…&from=…&view=week).
 */
export default function CalendarPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { notify, confirm } = useFeedback();
  const params = new URLSearchParams(location.search);
  const productId = params.get('product') ?? '';
  const askedFrom = params.get('from') ?? '';
  const from = isIsoDate(askedFrom) ? askedFrom : manilaDate();
  const view: View = params.get('view') === 'month' ? 'month' : 'week';
  const to = addDays(from, VIEWS[view] - 1);
  const go = (next: { product?: string; from?: string; view?: View }) => {
    const p = new URLSearchParams();
    const product = next.product ?? productId;
    if (product) p.set('product', product);
    p.set('from', next.from ?? from);
    p.set('view', next.view ?? view);
    navigate({ search: `?${p.toString()}` });
  };

  const [search, setSearch] = useState('');
  const products = useRentalProductsQuery(search);
  const cal = useProductCalendarQuery({ id: productId, from, to }, { skip: !productId });
  const [adding, setAdding] = useState(false);

  const openOrder = (orderID: string) => navigate(`/admin/orders/rentals/${orderID}`);
  const onPick = async (p: Picked) => {
    if (p.kind === 'RENTAL') {
      openOrder(p.orderID);
      return;
    }
    if (await confirm({ title: BOOKING_MESSAGES.downtimeRemoveConfirm, okText: 'Remove', cancelText: 'Keep', danger: true })) await removeOne(p.id);
  };
  const [remove] = useRemoveDowntimeMutation();
  const removeOne = async (id: string) => {
    try {
      await remove({ id, productID: productId }).unwrap();
      notify.success(BOOKING_MESSAGES.downtimeRemoved);
    } catch (err) {
      notify.error('Remove Downtime Error', errorMessage(err));
    }
  };

  const rows: Row[] = (cal.data?.units ?? []).flatMap((u) => u.bookings.map((b) => ({ ...b, serialCode: u.serialCode })));
  return (
    <section>
      <style>{TIMELINE_CSS}</style>
      <PageHeader
        title="Calendar"
        extra={
          <Select
            aria-label="Product"
            showSearch
            filterOption={false}
            onSearch={setSearch}
            placeholder="Choose a rental product"
            style={{ width: 280 }}
            loading={products.isFetching}
            value={productId || undefined}
            onChange={(v: string) => go({ product: v })}
            options={(products.data?.items ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        }
      />
      <AtRiskPanel onOpen={openOrder} />
      <Space wrap style={{ marginBottom: 12 }}>
        <Button onClick={() => go({ from: addDays(from, -VIEWS[view]) })}>Previous</Button>
        <Button onClick={() => go({ from: manilaDate() })}>Today</Button>
        <Button onClick={() => go({ from: addDays(from, VIEWS[view]) })}>Next</Button>
        <Segmented<View> aria-label="View" value={view} onChange={(v) => go({ view: v })} options={[{ label: 'Week', value: 'week' }, { label: 'Month', value: 'month' }]} />
        <strong>
          {formatBusinessDate(from)} – {formatBusinessDate(to)}
        </strong>
        {productId && (
          <Button type="primary" onClick={() => setAdding(true)} disabled={!cal.data}>
            Add downtime
          </Button>
        )}
      </Space>
      <div aria-label="Legend" role="list" style={{ display: 'flex', gap: 12, marginBottom: 12, flexWrap: 'wrap' }}>
        {Object.values(KINDS).map((k) => (
          <span role="listitem" key={k.label} style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            <span aria-hidden style={{ width: 14, height: 14, background: k.color, borderRadius: 2, display: 'inline-block' }} />
            {k.label}
          </span>
        ))}
      </div>
      {!productId ? (
        <EmptyState description="Choose a rental product to see its units." />
      ) : cal.error ? (
        <LazyErrorState title="The calendar could not be loaded" message={errorMessage(cal.error)} onRetry={() => void cal.refetch()} />
      ) : !cal.data ? (
        <Loading />
      ) : cal.data.units.length === 0 ? (
        <EmptyState description="This product has no units to rent yet." />
      ) : (
        <>
          <Suspense fallback={<Loading />}>
            <Timeline data={cal.data} onPick={(p) => void onPick(p)} />
          </Suspense>
          <BookingsTable rows={rows} onOpen={openOrder} onRemove={(id) => void onPick({ kind: 'DOWNTIME', id })} />
        </>
      )}
      {cal.data && <DowntimeModal open={adding} onClose={() => setAdding(false)} calendar={cal.data} />}
    </section>
  );
}

/** The grid's bookings as a table: what a screen reader (and a keyboard) uses. */
function BookingsTable({ rows, onOpen, onRemove }: { rows: Row[]; onOpen: (orderID: string) => void; onRemove: (id: string) => void }) {
  return (
    <ResponsiveTable<Row>
      style={{ marginTop: 16 }}
      rowKey="id"
      size="small"
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: <EmptyState description="No bookings or downtime in these days." /> }}
      columns={[
        { title: 'Unit', dataIndex: 'serialCode' },
        {
          title: 'What',
          key: 'what',
          render: (_: unknown, r: Row) =>
            r.kind === 'DOWNTIME' ? <Tag>{REASON_LABELS[r.reason ?? 'MAINTENANCE']}</Tag> : r.overdue ? <Tag color="red">Overdue</Tag> : <Tag color="blue">Booked</Tag>,
        },
        { title: 'Order', key: 'order', render: (_: unknown, r: Row) => (r.kind === 'RENTAL' ? [r.orderNumber, r.customerName].filter(Boolean).join(' · ') || 'Order' : r.note || '—') },
        { title: 'From', dataIndex: 'start', render: (d: string) => formatBusinessDate(d) },
        { title: 'Due / last day', key: 'due', render: (_: unknown, r: Row) => formatBusinessDate(r.kind === 'RENTAL' ? r.due : addDays(r.end, -1)) },
        { title: 'Free again', dataIndex: 'end', render: (d: string) => formatBusinessDate(d) },
        {
          title: 'Action',
          key: 'action',
          render: (_: unknown, r: Row) =>
            r.kind === 'RENTAL' ? (
              <Button size="small" onClick={() => onOpen(r.orderID!)}>
                Open {r.orderNumber ?? 'order'}
              </Button>
            ) : (
              <Button size="small" danger onClick={() => onRemove(r.id)}>
                Remove
              </Button>
            ),
        },
      ]}
    />
  );
}

/** Block a unit, or all units of the product, for days with a reason. */
function DowntimeModal({ open, onClose, calendar }: { open: boolean; onClose: () => void; calendar: CalendarResponse }) {
  const [form] = Form.useForm<DowntimeValues>();
  const { notify } = useFeedback();
  const [create, state] = useCreateDowntimeMutation();
  const submit = async () => {
    const v = await form.validateFields();
    try {
      const res = await create({
        ...(v.unit === 'ALL' ? { productID: calendar.productID } : { stockItemID: v.unit, productID: calendar.productID }),
        from: v.from.format(DAY),
        to: v.to.format(DAY),
        reason: v.reason,
        note: v.note ?? '',
      }).unwrap();
      notify.success(res.message);
      form.resetFields();
      onClose();
    } catch (err) {
      notify.error('Downtime Error', errorMessage(err));
    }
  };
  return (
    <Modal title="Add downtime" open={open} okText="Block" onOk={() => void submit().catch(() => undefined)} confirmLoading={state.isLoading} onCancel={onClose} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ unit: 'ALL', reason: 'MAINTENANCE' }}>
        <Form.Item name="unit" label="Unit" rules={[{ required: true, message: BOOKING_MESSAGES.downtimeWhat }]}>
          <Select options={[{ value: 'ALL', label: 'All units' }, ...calendar.units.map((u) => ({ value: u.stockItemID, label: `${u.serialCode}${u.level ? ` · ${u.level}` : ''}` }))]} />
        </Form.Item>
        <Form.Item name="from" label="First day" rules={[{ required: true, message: 'Choose the first day.' }]}>
          <DatePicker format={DAY} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="to"
          label="Last day"
          dependencies={['from']}
          rules={[
            { required: true, message: 'Choose the last day.' },
            ({ getFieldValue }) => ({
              validator: (_: unknown, v?: dayjs.Dayjs) => {
                const first = getFieldValue('from') as dayjs.Dayjs | undefined;
                return !v || !first || !v.isBefore(first, 'day') ? Promise.resolve() : Promise.reject(new Error(BOOKING_MESSAGES.downtimeRange));
              },
            }),
          ]}
        >
          <DatePicker format={DAY} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label="Reason" rules={[{ required: true }]}>
          <Select options={DOWNTIME_REASONS.map((r) => ({ value: r, label: REASON_LABELS[r] }))} />
        </Form.Item>
        <Form.Item name="note" label="Note">
          <Input maxLength={300} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
