import { Alert, Button, Modal } from 'antd';
import { Link, useNavigate } from 'react-router-dom';
import { RENTAL_MESSAGES } from '@dme/contracts/browser';
import type { DriverScanPurpose } from '@dme/contracts';
import { Scanner } from '@dme/ui';
import { handoverPath, PURPOSE, SCAN_INPUT_LABEL } from './purpose';
import { useOrderScan } from './useOrderScan';

/**
 * The driver's order scan (SPEC §4): the camera (rear one preferred) or a typed order number. Each
 * read goes to the server, which moves the order on (out for delivery, delivered, taken for
 * pick-up) or says why not; the dialog stays open for the next order. At the customer's door the
 * server asks for the hand-over instead (issue 28): the dialog closes on the hand-over screen.
 */
export default function ScanDialog({ purpose, onClose }: { purpose: DriverScanPurpose; onClose: () => void }) {
  const texts = PURPOSE[purpose];
  const navigate = useNavigate();
  const { read, answer, checking } = useOrderScan(purpose, (leg, order) => {
    onClose();
    navigate(handoverPath(leg, order.id));
  });

  return (
    <Modal
      open
      // Full width on a phone (issue 28): the camera's picture as large as the screen allows.
      width={{ xs: '100%', sm: 520 }}
      title="Scan Order"
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <p style={{ marginTop: 0 }}>
        {RENTAL_MESSAGES.scanWhat} {texts.scanHelp}
      </p>
      <Scanner onRead={(text) => void read(text)} inputLabel={SCAN_INPUT_LABEL} placeholder="Scan the QR or type the order number, then press Enter" />
      <div data-testid="scan-answer" aria-live="polite" style={{ minHeight: 48, marginTop: 12 }}>
        {checking ? (
          <div role="status">Checking the order…</div>
        ) : (
          answer && (
            <Alert
              key={answer.text}
              type={answer.ok ? (answer.order ? 'success' : 'info') : 'error'}
              showIcon
              title={answer.text}
              action={
                answer.ok && answer.order ? (
                  <Link to={`${texts.base}/${answer.order.id}`} onClick={onClose}>
                    View order
                  </Link>
                ) : undefined
              }
            />
          )
        )}
      </div>
    </Modal>
  );
}
