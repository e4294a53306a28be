import { useState, type CSSProperties } from 'react';
import { Alert, Button, Modal, Space } from 'antd';
import { DRIVER_DAY_MESSAGES, DRIVER_WAITING_STATUSES, manilaDate } from '@dme/contracts/browser';
import type { Order } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useAssignableDriversQuery, useAssignOrderMutation } from './api';
import { dayText } from './format';

/**
 * Staff assign an order to a driver and a day (issue 28): the order waits for a driver in TO_SHIP
 * (to deliver) and FOR_RETURN (to collect); staff may plan it for one driver and a day from today
 * on (Manila), or put it back to any driver. The server decides and says why it refuses.
 */

/** The texts of assigning (the server's own refusals come from DRIVER_DAY_MESSAGES). */
export const ASSIGN_TEXTS = {
  line: 'Driver',
  button: 'Assign driver',
  title: 'Assign driver',
  driver: 'Driver',
  day: 'Day',
  anyDriver: 'Any driver',
  anyDriverHelp: 'Any driver may take it, on any day.',
  loading: 'Loading drivers…',
  loadError: 'The drivers could not be loaded',
  assigned: 'Assigned.',
} as const;

/** "Jun Dela Cruz, Sat 28 Nov 2026", "Jun Dela Cruz" (taken without a plan) or "Any driver". */
export function assignmentText(assignment: Order['assignment']): string {
  if (!assignment) return ASSIGN_TEXTS.anyDriver;
  return assignment.day ? `${assignment.driverName}, ${dayText(assignment.day)}` : assignment.driverName;
}

/**
 * The order's "Driver" line: while it waits for a driver, who it is planned for (or any driver)
 * and 'Assign driver'; later, read-only, the driver who has it (e.g. OUT_FOR_DELIVERY); nothing
 * when no driver was ever given.
 */
export function DriverAssignment({ order, style }: { order: Order; style?: CSSProperties }) {
  const [open, setOpen] = useState(false);
  const assignable = DRIVER_WAITING_STATUSES.includes(order.status);
  if (!assignable && !order.assignment) return null;
  return (
    <div style={style}>
      <Space size={8} wrap>
        <span data-testid="driver-line">
          <strong>{ASSIGN_TEXTS.line}:</strong> {assignmentText(order.assignment)}
        </span>
        {assignable && (
          <Button size="small" onClick={() => setOpen(true)}>
            {ASSIGN_TEXTS.button}
          </Button>
        )}
      </Space>
      {assignable && open && <AssignDriverDialog order={order} onClose={() => setOpen(false)} />}
    </div>
  );
}

/** The value of the driver select meaning "any driver" (driverId null). */
const ANY = '';

function AssignDriverDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const { notify } = useFeedback();
  const drivers = useAssignableDriversQuery();
  const [assign, state] = useAssignOrderMutation();
  const today = manilaDate();
  const [driverId, setDriverId] = useState(order.assignment?.driverId ?? ANY);
  // A day planned before today cannot be kept: the server takes days from today on.
  const planned = order.assignment?.day;
  const [day, setDay] = useState(planned && planned >= today ? planned : today);
  const [error, setError] = useState<string>();

  const items = drivers.data?.items ?? [];
  // The driver it is planned for, listed even when no longer among the active drivers.
  const current = order.assignment && !items.some((d) => d.id === order.assignment?.driverId) ? [{ id: order.assignment.driverId, name: order.assignment.driverName }] : [];
  const ready = drivers.data !== undefined;
  const loading = !ready && (drivers.isFetching || drivers.error === undefined);
  const failed = !ready && !loading;
  const any = driverId === ANY;

  const onSave = async () => {
    setError(undefined);
    if (!any && !day) {
      setError(DRIVER_DAY_MESSAGES.dayInvalid);
      return;
    }
    try {
      // Back to any driver: no day (the server keeps none).
      const res = await assign({ id: order.id, driverId: any ? null : driverId, day: any ? null : day }).unwrap();
      notify.success(res.message ?? ASSIGN_TEXTS.assigned);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Modal
      open
      title={ASSIGN_TEXTS.title}
      onCancel={onClose}
      okText="Save"
      cancelText="Cancel"
      // Disabled while sending, not antd's loading icon (see RentalChangeModal).
      okButtonProps={{ disabled: !ready || state.isLoading }}
      onOk={() => void onSave()}
      destroyOnHidden
    >
      <div style={{ display: 'grid', gap: 12 }}>
        <div style={{ display: 'grid', gap: 4 }}>
          <label htmlFor="assign-driver">{ASSIGN_TEXTS.driver}</label>
          <select
            id="assign-driver"
            value={driverId}
            disabled={!ready}
            aria-busy={loading}
            onChange={(e) => {
              setDriverId(e.target.value);
              setError(undefined);
            }}
            style={{ padding: '4px 8px', minHeight: 32 }}
          >
            {loading ? (
              <option value={driverId}>{ASSIGN_TEXTS.loading}</option>
            ) : (
              <>
                <option value={ANY}>{ASSIGN_TEXTS.anyDriver}</option>
                {[...current, ...items].map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </>
            )}
          </select>
          {loading && <span role="status">{ASSIGN_TEXTS.loading}</span>}
        </div>
        {failed && (
          <Alert
            type="error"
            showIcon
            title={ASSIGN_TEXTS.loadError}
            description={errorMessage(drivers.error)}
            action={
              <Button size="small" onClick={() => void drivers.refetch()}>
                Retry
              </Button>
            }
          />
        )}
        <div style={{ display: 'grid', gap: 4 }}>
          <label htmlFor="assign-day">{ASSIGN_TEXTS.day}</label>
          <input
            id="assign-day"
            type="date"
            min={today}
            value={day}
            disabled={any}
            aria-describedby={any ? 'assign-day-help' : undefined}
            onChange={(e) => {
              setDay(e.target.value);
              setError(undefined);
            }}
            style={{ padding: '4px 8px', minHeight: 32 }}
          />
          {any && (
            <span id="assign-day-help" style={{ color: 'rgba(0,0,0,0.6)', fontSize: 12 }}>
              {ASSIGN_TEXTS.anyDriverHelp}
            </span>
          )}
        </div>
        {error && <Alert type="error" showIcon data-testid="assign-error" title={error} />}
      </div>
    </Modal>
  );
}
