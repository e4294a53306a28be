/** Simple inline illustrations of the self-protection kit (drawn here: nothing is downloaded). */
const stroke = { fill: 'none', stroke: '#0b6e79', strokeWidth: 3, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function Gloves() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <path {...stroke} d="M20 58V30l-6-8c-2-3 2-6 5-3l5 6V10c0-4 5-4 5 0v14-18c0-4 5-4 5 0v18-15c0-4 5-4 5 0v17-11c0-4 5-4 5 0v25c0 10-5 18-12 18z" />
      <path {...stroke} d="M20 52h22" />
    </svg>
  );
}

export function Sphygmomanometer() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <circle {...stroke} cx="42" cy="22" r="14" />
      <path {...stroke} d="M42 22l6-6M8 40h20v16H8zM28 48c6 0 10-4 14-12M12 40c0-6 6-6 6-12" />
    </svg>
  );
}

export function DigitalStethoscope() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <path {...stroke} d="M16 6v16c0 8 6 14 14 14s14-6 14-14V6M30 36v10c0 6 5 10 11 10s11-4 11-10v-4" />
      <circle {...stroke} cx="52" cy="36" r="6" />
      <rect {...stroke} x="24" y="44" width="12" height="8" rx="2" />
    </svg>
  );
}

export function Thermometer() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <path {...stroke} d="M26 40V12a6 6 0 0 1 12 0v28a10 10 0 1 1-12 0z" />
      <path {...stroke} d="M32 24v22M42 16h6M42 24h6M42 32h6" />
    </svg>
  );
}

export function NonContactThermometer() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <path {...stroke} d="M8 20h36a8 8 0 0 1 0 16H30l-4 20h-10l4-20H8z" />
      <path {...stroke} d="M52 22c4 3 4 9 0 12M57 18c7 5 7 15 0 20" />
    </svg>
  );
}

export function GlassMask() {
  return (
    <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
      <path {...stroke} d="M8 24c0-8 10-12 24-12s24 4 24 12v8c0 10-10 18-24 18S8 42 8 32z" />
      <path {...stroke} d="M18 24c4-3 24-3 28 0M4 24h4M56 24h4" />
    </svg>
  );
}
