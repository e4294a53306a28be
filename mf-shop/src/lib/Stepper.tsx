import { useId } from 'react';

const btn = { width: 32, height: 32, borderRadius: 8, border: '1px solid #d9d9d9', background: '#fff', cursor: 'pointer', fontSize: 16 } as const;

/** A − / number / + stepper; the caller decides what a value above the limit means. */
export function Stepper({ label, value, onChange, min = 1 }: { label: string; value: number; onChange: (n: number) => void; min?: number }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} style={{ display: 'block', fontWeight: 500, marginBottom: 4 }}>
        {label}
      </label>
      <div style={{ display: 'flex', gap: 6, alignItems: 'center' }}>
        <button type="button" style={btn} aria-label={`Decrease ${label.toLowerCase()}`} onClick={() => onChange(Math.max(min, value - 1))} disabled={value <= min}>
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          value={value}
          onChange={(e) => {
            const n = Number.parseInt(e.target.value.replace(/\D/g, '') || '0', 10);
            onChange(Math.max(min, n));
          }}
          style={{ width: 64, height: 32, textAlign: 'center', border: '1px solid #d9d9d9', borderRadius: 8 }}
        />
        <button type="button" style={btn} aria-label={`Increase ${label.toLowerCase()}`} onClick={() => onChange(value + 1)}>
          +
        </button>
      </div>
    </div>
  );
}
