import { useState } from 'react';
import { Alert, Button, DatePicker, Form, Modal } from 'antd';
import dayjs from 'dayjs';
import type { UnitResponse } from '@dme/contracts';
import { manilaDate } from '@dme/contracts/browser';
import { errorMessage } from '@dme/api-client';
import { useFeedback } from '@dme/ui';
import { useScheduleServiceMutation } from './api';

const DAY = 'YYYY-MM-DD';

/**
 * "Schedule service" (issue 26): a unit's preventive maintenance put on the calendar, a maintenance
 * downtime for the day chosen (its due day by default, today if that has passed), so no rental is
 * booked on it; the calendar's own rule refuses a day the unit is booked.
 */
export function ScheduleServiceButton({ unit }: { unit: UnitResponse['unit'] }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ day: dayjs.Dayjs }>();
  const [schedule, state] = useScheduleServiceMutation();
  const { notify } = useFeedback();
  const [error, setError] = useState<string>();
  const today = manilaDate();
  const first = unit.service?.dueOn && unit.service.dueOn > today ? unit.service.dueOn : today;

  const submit = async ({ day }: { day: dayjs.Dayjs }) => {
    setError(undefined);
    const date = day.format(DAY);
    try {
      await schedule({ code: unit.serialCode, stockItemID: unit.id, productID: unit.productID, from: date, to: date, reason: 'MAINTENANCE', note: 'Preventive maintenance' }).unwrap();
      notify.success(`Service of ${unit.serialCode} on the calendar for ${date}.`);
      setOpen(false);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <>
      <Button onClick={() => setOpen(true)}>Schedule service</Button>
      {open && (
        <Modal
          title={`Schedule the service of ${unit.serialCode}`}
          open
          onCancel={() => setOpen(false)}
          okText="Schedule"
          confirmLoading={state.isLoading}
          onOk={() => void form.validateFields().then(submit).catch(() => undefined)}
          destroyOnHidden
        >
          <Form form={form} layout="vertical" name="schedule-service" initialValues={{ day: dayjs(first, DAY) }} onValuesChange={() => setError(undefined)}>
            <Form.Item label="Day" name="day" rules={[{ required: true, message: 'Choose the day.' }]} extra="The unit is blocked for maintenance that day on the calendar.">
              <DatePicker format={DAY} allowClear={false} style={{ width: '100%' }} disabledDate={(d) => d.format(DAY) < today} />
            </Form.Item>
          </Form>
          {error && <Alert type="error" showIcon title={error} />}
        </Modal>
      )}
    </>
  );
}
