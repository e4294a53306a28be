import { useState, type CSSProperties } from 'react';
import { Alert, Button, Modal, Tag } from 'antd';
import type { OrderLine } from '@dme/contracts';
import { Scanner } from '@dme/ui';
import { lineDone } from './packing';
import type { Packing } from './usePacking';
import { lineName } from './format';

/**
 * Scanning the items of one order line (SPEC §5 Scanning): the camera or a typed code; each code
 * is checked and saved on the server at once, then listed with its bin (removable). OK is enabled
 * only at the line's quantity. Closing it (×, Esc), reloading or leaving the page keeps the scans:
 * they are the order's, kept on the server until it is packed (issue 22).
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
  const onRemove = async (code: string) => {
    const r = await packing.remove(line.id, code);
    setAnswer(r && !r.ok ? { ok: false, text: r.message } : { ok: true, text: `${code} removed.` });
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
      {packing.loadError ? (
        <PackingLoadError packing={packing} />
      ) : packing.loading ? (
        <p role="status">Loading the scanned codes…</p>
      ) : codes.length === 0 ? (
        <p style={{ color: 'rgba(0,0,0,0.6)' }}>Nothing scanned yet.</p>
      ) : (
        <ul aria-label="Scanned serial codes" style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 4 }}>
          {codes.map((c) => (
            <li key={c} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Tag color="green">{c}</Tag>
              {packing.bins[c] && <span style={{ color: 'rgba(0,0,0,0.6)' }}>Bin {packing.bins[c]}</span>}
              <Button size="small" type="link" danger aria-label={`Remove ${c}`} disabled={packing.checking} onClick={() => void onRemove(c)}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Modal>
  );
}

/** The saved scans could not be loaded: the server's message and a Retry. */
export function PackingLoadError({ packing, style }: { packing: Pick<Packing, 'loadError' | 'reload'>; style?: CSSProperties }) {
  return (
    <Alert
      type="error"
      showIcon
      style={style}
      title="The scanned codes could not be loaded"
      description={packing.loadError}
      action={
        <Button size="small" onClick={packing.reload}>
          Retry
        </Button>
      }
    />
  );
}
