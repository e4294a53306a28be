import { useState, type CSSProperties } from 'react';
import { Button } from 'antd';
import { orderHasQr } from '@dme/contracts/browser';
import type { Order } from '@dme/contracts';
import { SectionTitle } from '../SectionTitle';
import { useFeedback } from '../feedback';
import { downloadFile } from './qr';

export const QR_FILE_NAME = 'QR_Code.png';

export interface QrBlockProps {
  order: Pick<Order, 'id' | 'orderNumber' | 'status'>;
  /** Where the order's QR image is served (the customer's and the staff's routes differ). */
  src: string;
  /**
   * 'link': Download QR is a plain download link; 'fetch': it fetches the image with the session
   * and tells the person when that fails (SPEC §8: a QR failure is logged).
   */
  download: 'link' | 'fetch';
  /** A light frame around the image. */
  framed?: boolean;
  /** Space between the image and the button, in pixels. */
  gap?: number;
}

const FRAME: CSSProperties = { border: '1px solid #f0f0f0', borderRadius: 8 };

function FetchDownload({ src }: { src: string }) {
  const { notify } = useFeedback();
  const [saving, setSaving] = useState(false);
  const download = async () => {
    setSaving(true);
    try {
      await downloadFile(src, QR_FILE_NAME);
    } catch (err) {
      // SPEC §8: a QR failure is logged; the person is told too, so the click does not seem lost.
      console.error('Order QR download failed', err);
      notify.toastError('The QR code could not be downloaded. Please try again.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <Button onClick={() => void download()} loading={saving}>
      Download QR
    </Button>
  );
}

/**
 * The order's QR (payload orderID and orderNumber) and a Download QR button saving QR_Code.png,
 * shown from TO_SHIP on (nothing before, nor for a cancelled order).
 */
export function QrBlock({ order, src, download, framed = false, gap = 8 }: QrBlockProps) {
  if (!orderHasQr(order.status)) return null;
  return (
    <section aria-label="QR Code">
      <SectionTitle>QR Code</SectionTitle>
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap }}>
        <img src={src} alt={`QR code of order ${order.orderNumber}`} width={160} height={160} style={framed ? FRAME : undefined} />
        {download === 'fetch' ? (
          <FetchDownload src={src} />
        ) : (
          <Button href={src} download={QR_FILE_NAME}>
            Download QR
          </Button>
        )}
      </div>
    </section>
  );
}
