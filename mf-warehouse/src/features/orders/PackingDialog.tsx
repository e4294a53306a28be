import { useState } from 'react';
import { Alert, Button, Modal, Tag } from 'antd';
import type { OrderLine } from '@dme/contracts';
import { Scanner } from '@dme/ui';
import { lineDone } from './packing';
import type { Packing } from './usePacking';
import { lineName } from './format';

/**
 * Scanning the items of one order line (SPEC §5 Scanning): the camera or a typed code; each code
 * is checked and added to the line's list (removable). OK is enabled only at the line's quantity.
 * Closing it (×, Esc) keeps the scans: they belong to the page, not to the dialog.
 */
export function PackingDialog({ line, packing, onClose }: { line: OrderLine; packing: Packing; onClose: () => void }) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string }>();
  const codes = packing.scans[line.id] ?? [];
  const done = lineDone(line, packing.scans);
  const name = lineName(line);

  const onRead = async (text: string) => {
    const r = await packing.scan(line, text);
    setAnswer(r.ok ? { ok: true, text: `${r.serialCode} added.` } : { ok: false, text: r.message });
  };

  return (
    <Modal
      open
      title={`Scan ${name}`}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" disabled={!done} onClick={onClose}>
          OK
        </Button>
      }
    >
      <p data-testid="scan-count">
        Scanned {codes.length} of {line.quantity}
      </p>
      <Scanner onRead={(text) => void onRead(text)} inputLabel="Serial code" placeholder="Scan the label or type the serial code, then press Enter" />
      <div data-testid="scan-answer" style={{ minHeight: 48, marginTop: 12 }}>
        {packing.checking ? (
          <div role="status">Checking the code…</div>
        ) : (
          answer && <Alert key={answer.text} type={answer.ok ? 'success' : 'error'} showIcon title={answer.text} />
        )}
      </div>
      <h5 style={{ margin: '12px 0 8px', fontSize: 14 }}>Scanned serial codes</h5>
      {codes.length === 0 ? (
        <p style={{ color: 'rgba(0,0,0,0.6)' }}>Nothing scanned yet.</p>
      ) : (
        <ul aria-label="Scanned serial codes" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 4 }}>
          {codes.map((c) => (
            <li key={c} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Tag color="green">{c}</Tag>
              <Button size="small" type="link" danger aria-label={`Remove ${c}`} onClick={() => packing.remove(line.id, c)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}
