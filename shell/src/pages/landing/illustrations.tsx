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

/* The hero: a home-care scene (oxygen concentrator, wheelchair, walker and a delivered box), drawn inline. */
const INK = '#163c43';
const HERO_TEAL = '#0b6e79';
const line = { stroke: INK, strokeWidth: 3, strokeLinejoin: 'round', strokeLinecap: 'round' } as const;

/** A frame bar or hose: a dark outline under a coloured core, so joints merge cleanly. */
function Tube({ d, color, width = 6 }: { d: string; color: string; width?: number }) {
  return (
    <>
      <path d={d} fill="none" stroke={INK} strokeWidth={width + 6} strokeLinecap="round" strokeLinejoin="round" />
      <path d={d} fill="none" stroke={color} strokeWidth={width} strokeLinecap="round" strokeLinejoin="round" />
    </>
  );
}

function Wheel({ cx, cy, r, spokes = 0 }: { cx: number; cy: number; r: number; spokes?: number }) {
  const rim = r * 0.72;
  return (
    <>
      <circle cx={cx} cy={cy} r={r} fill="#33434a" {...line} />
      <circle cx={cx} cy={cy} r={rim} fill="#dde5e8" stroke={INK} strokeWidth={2} />
      {Array.from({ length: spokes }, (_, i) => {
        const a = (Math.PI * i) / spokes;
        const dx = Math.cos(a) * rim;
        const dy = Math.sin(a) * rim;
        return <line key={i} x1={cx - dx} y1={cy - dy} x2={cx + dx} y2={cy + dy} stroke="#7d8f97" strokeWidth={1.6} />;
      })}
      <circle cx={cx} cy={cy} r={Math.max(2.5, r * 0.14)} fill="#7d8f97" stroke={INK} strokeWidth={2} />
    </>
  );
}

export function HeroIllustration() {
  return (
    <svg
      role="img"
      aria-label="Home-care equipment delivered to your door: an oxygen concentrator, a wheelchair, a walker and a parcel"
      viewBox="0 0 480 360"
      width="480"
      height="360"
      style={{ display: 'block', width: '100%', height: 'auto', maxWidth: 480 }}
    >
      {/* backdrop: a soft disc, a window, a care badge and the floor */}
      <circle cx="250" cy="176" r="158" fill="#ffffff" opacity="0.13" />
      <g opacity="0.35" fill="none" stroke="#ffffff" strokeWidth="4">
        <rect x="64" y="44" width="112" height="92" rx="10" />
        <path d="M120 44v92M64 90h112" />
      </g>
      <circle cx="414" cy="78" r="30" fill="#ffffff" {...line} />
      <path d="M414 62v32M398 78h32" stroke={HERO_TEAL} strokeWidth="9" strokeLinecap="round" />
      <ellipse cx="248" cy="316" rx="220" ry="12" fill="#053c43" opacity="0.28" />

      {/* oxygen concentrator with its tubing */}
      <path d="M108 214c30 4 34 44 14 58" fill="none" stroke={INK} strokeWidth="6" strokeLinecap="round" />
      <path d="M108 214c30 4 34 44 14 58" fill="none" stroke="#cde9f4" strokeWidth="3" strokeLinecap="round" />
      <Wheel cx={52} cy={304} r={7} />
      <Wheel cx={96} cy={304} r={7} />
      <rect x="58" y="154" width="20" height="12" rx="6" fill="none" stroke={INK} strokeWidth="4" />
      <rect x="36" y="166" width="76" height="134" rx="14" fill="#ffffff" {...line} />
      <path d="M36 188v-8c0-8 6-14 14-14h48c8 0 14 6 14 14v8z" fill={HERO_TEAL} {...line} />
      <rect x="46" y="198" width="32" height="18" rx="3" fill="#16343b" stroke={INK} strokeWidth="2" />
      <path d="M51 207h8M63 207h10" stroke="#7ff0e0" strokeWidth="3" strokeLinecap="round" />
      <rect x="88" y="196" width="12" height="36" rx="6" fill="#cde9f4" stroke={INK} strokeWidth="2.5" />
      <circle cx="94" cy="220" r="3.5" fill="#e7826a" />
      <circle cx="54" cy="230" r="5" fill="#2f98a3" stroke={INK} strokeWidth="2" />
      <rect x="46" y="250" width="56" height="38" rx="6" fill="#f4f7f8" stroke={INK} strokeWidth="2" />
      <path d="M54 260h40M54 269h40M54 278h40" stroke="#7d8f97" strokeWidth="2.5" strokeLinecap="round" />

      {/* wheelchair, facing left */}
      <g transform="translate(76 55) scale(1.3)">
        <Tube d="M168 56 L152 56 L146 122" color="#b9c6cc" />
        <path d="M138 62 L152 62 L147 118 L132 118 Z" fill={HERO_TEAL} {...line} />
        <Wheel cx={128} cy={150} r={46} spokes={6} />
        <circle cx="128" cy="150" r="38" fill="none" stroke="#7d8f97" strokeWidth="2.5" />
        <Tube d="M146 122 L82 122 L78 178" color="#b9c6cc" />
        <Tube d="M88 124 L66 166" color="#b9c6cc" />
        <rect x="50" y="163" width="26" height="7" rx="3" fill="#7d8f97" {...line} />
        <rect x="80" y="110" width="68" height="13" rx="5" fill={HERO_TEAL} {...line} />
        <Tube d="M90 112 L90 94 L140 94 L140 112" color="#b9c6cc" width={5} />
        <rect x="92" y="87" width="46" height="9" rx="4.5" fill="#33434a" {...line} />
        <Tube d="M78 176 L74 184" color="#b9c6cc" width={4} />
        <Wheel cx={72} cy={186} r={12} />
      </g>

      {/* walker */}
      <g transform="translate(246 141) scale(0.9)">
        <Tube d="M112 56 L104 176 M112 56 L170 56 L178 176 M108 118 L174 118" color="#dde5e8" width={5} />
        <Tube d="M72 70 L112 60 M74 112 L108 104" color="#b9c6cc" width={5} />
        <Tube d="M68 66 L56 182 M68 66 L140 66 L150 182 M62 128 L146 128" color="#b9c6cc" />
        <rect x="106" y="59" width="38" height="13" rx="6.5" fill="#33434a" {...line} />
        <rect x="144" y="50" width="28" height="11" rx="5.5" fill="#33434a" stroke={INK} strokeWidth="2.5" />
        <Wheel cx={104} cy={182} r={9} />
        <Wheel cx={56} cy={184} r={11} />
        <rect x="168" y="172" width="18" height="14" rx="7" fill="#d9e65a" {...line} />
        <rect x="140" y="176" width="20" height="14" rx="7" fill="#d9e65a" {...line} />
      </g>

      {/* the delivered parcel */}
      <rect x="392" y="252" width="74" height="60" rx="4" fill="#f0c987" {...line} />
      <path d="M392 270h74" stroke={INK} strokeWidth="2.5" />
      <rect x="422" y="252" width="14" height="18" fill="#e2b36b" stroke={INK} strokeWidth="2" />
      <rect x="408" y="278" width="42" height="26" rx="4" fill="#ffffff" stroke={INK} strokeWidth="2" />
      <path d="M429 283v16M421 291h16" stroke={HERO_TEAL} strokeWidth="5" strokeLinecap="round" />
    </svg>
  );
}
