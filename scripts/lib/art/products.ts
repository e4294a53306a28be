import type { SeedShape } from '@dme/catalog/seed';

/**
 * Flat-style product illustrations for the demo catalog, drawn as SVG (no download, no fonts) and
 * rendered to PNG at seed time. Every drawing uses a 240 x 240 canvas: a soft rounded tile, a halo
 * and a floor shadow, and the object inside the safe area (x and y within [SAFE, 240 - SAFE]) so it
 * is never cut off when a card shows the picture with object-fit: contain.
 */

export const ART_VIEWBOX = 240;
/** Nothing but the tile, halo and shadow is drawn closer than this to an edge (in viewBox units). */
export const SAFE = 26;

/** The palette: a calm medical set shared by every drawing. */
const C = {
  ink: '#23404a',
  teal: '#0b6e79',
  tealMid: '#2f98a3',
  tealLight: '#9fd3d8',
  white: '#ffffff',
  paper: '#f4f7f8',
  steel: '#b9c6cc',
  steelLight: '#dde5e8',
  steelDark: '#7d8f97',
  tyre: '#33434a',
  screen: '#16343b',
  digit: '#7ff0e0',
  coral: '#e7826a',
  glove: '#5b86e5',
  gloveLight: '#8eaef0',
  glass: '#cde9f4',
  yellow: '#d9e65a',
};

/** The tile colours, one calm tint per item. */
const TINT: Record<SeedShape, { tile: string; halo: string; shadow: string }> = {
  wheelchair: { tile: '#e3f1f2', halo: '#f2f9f9', shadow: '#c7dfe1' },
  bed: { tile: '#e6eef7', halo: '#f4f7fb', shadow: '#ccd9e8' },
  tank: { tile: '#e4f2ee', halo: '#f3f9f7', shadow: '#c8e0d9' },
  walker: { tile: '#eef0f6', halo: '#f7f8fb', shadow: '#d5d9e6' },
  mist: { tile: '#e3eff6', halo: '#f2f8fb', shadow: '#c7dbe8' },
  lift: { tile: '#e8f1ec', halo: '#f5f9f6', shadow: '#cfe0d6' },
  glove: { tile: '#e8edf8', halo: '#f5f7fc', shadow: '#d0d9ee' },
  gauge: { tile: '#f5ece6', halo: '#fbf7f4', shadow: '#e7d6ca' },
  scope: { tile: '#e3f1f2', halo: '#f2f9f9', shadow: '#c7dfe1' },
  thermo: { tile: '#f3efe4', halo: '#faf8f2', shadow: '#e2dac5' },
  gun: { tile: '#e6eef7', halo: '#f4f7fb', shadow: '#ccd9e8' },
  mask: { tile: '#e4f2ee', halo: '#f3f9f7', shadow: '#c8e0d9' },
};

const OUTLINE = `stroke="${C.ink}" stroke-width="3" stroke-linejoin="round" stroke-linecap="round"`;

/** A thick tube (frame bar, hose): a dark outline under a coloured core, so joints merge cleanly. */
function tube(d: string, color: string, width = 7): string {
  return `<path d="${d}" fill="none" stroke="${C.ink}" stroke-width="${width + 6}" stroke-linecap="round" stroke-linejoin="round"/>`
    + `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;
}

/** A wheel with a tyre, a rim and spokes. */
function wheel(cx: number, cy: number, r: number, spokes = 0): string {
  let s = `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${C.tyre}" ${OUTLINE}/>`;
  const rim = r * 0.72;
  s += `<circle cx="${cx}" cy="${cy}" r="${rim}" fill="${C.steelLight}" stroke="${C.ink}" stroke-width="2"/>`;
  for (let i = 0; i < spokes; i++) {
    const a = (Math.PI * i) / spokes;
    const dx = Math.cos(a) * rim, dy = Math.sin(a) * rim;
    s += `<line x1="${(cx - dx).toFixed(1)}" y1="${(cy - dy).toFixed(1)}" x2="${(cx + dx).toFixed(1)}" y2="${(cy + dy).toFixed(1)}" stroke="${C.steelDark}" stroke-width="1.6"/>`;
  }
  s += `<circle cx="${cx}" cy="${cy}" r="${Math.max(2.5, r * 0.14)}" fill="${C.steelDark}" stroke="${C.ink}" stroke-width="2"/>`;
  return s;
}

/** Seven-segment digits (no fonts needed): each char of text at (x, y), digit height h. */
function digits(text: string, x: number, y: number, h: number, color = C.digit): string {
  const w = h * 0.5, t = Math.max(1.2, h * 0.14);
  const seg: Record<string, string> = {
    '0': 'abcdef', '1': 'bc', '2': 'abged', '3': 'abgcd', '4': 'fgbc', '5': 'afgcd', '6': 'afgedc', '7': 'abc', '8': 'abcdefg', '9': 'abcdfg',
  };
  let out = '';
  let cx = x;
  for (const ch of text) {
    if (ch === '.') {
      out += `<rect x="${cx - w * 0.1}" y="${y + h - t}" width="${t}" height="${t}" fill="${color}"/>`;
      cx += w * 0.35;
      continue;
    }
    const on = seg[ch] ?? '';
    const half = h / 2;
    const r: Record<string, [number, number, number, number]> = {
      a: [cx + t * 0.5, y, w - t, t],
      b: [cx + w - t, y + t * 0.5, t, half - t * 0.5],
      c: [cx + w - t, y + half, t, half - t * 0.5],
      d: [cx + t * 0.5, y + h - t, w - t, t],
      e: [cx, y + half, t, half - t * 0.5],
      f: [cx, y + t * 0.5, t, half - t * 0.5],
      g: [cx + t * 0.5, y + half - t / 2, w - t, t],
    };
    for (const k of on) {
      const [rx, ry, rw, rh] = r[k]!;
      out += `<rect x="${rx.toFixed(2)}" y="${ry.toFixed(2)}" width="${rw.toFixed(2)}" height="${rh.toFixed(2)}" rx="${(t / 3).toFixed(2)}" fill="${color}"/>`;
    }
    cx += w + t * 1.4;
  }
  return out;
}

const DRAW: Record<SeedShape, () => string> = {
  /** A folding wheelchair, side view, facing left. */
  wheelchair: () => [
    // push handle and back post
    tube('M168 56 L152 56 L146 122', C.steel, 6),
    // backrest upholstery
    `<path d="M138 62 L152 62 L147 118 L132 118 Z" fill="${C.teal}" ${OUTLINE}/>`,
    // rear wheel
    wheel(128, 150, 46, 6),
    `<circle cx="128" cy="150" r="38" fill="none" stroke="${C.steelDark}" stroke-width="2.5"/>`,
    // frame: seat rail, front post, footrest hanger
    tube('M146 122 L82 122 L78 178', C.steel, 6),
    tube('M88 124 L66 166', C.steel, 6),
    `<rect x="50" y="163" width="26" height="7" rx="3" fill="${C.steelDark}" ${OUTLINE}/>`,
    // seat cushion
    `<rect x="80" y="110" width="68" height="13" rx="5" fill="${C.teal}" ${OUTLINE}/>`,
    // armrest
    tube('M90 112 L90 94 L140 94 L140 112', C.steel, 5),
    `<rect x="92" y="87" width="46" height="9" rx="4.5" fill="${C.tyre}" ${OUTLINE}/>`,
    // front caster
    tube('M78 176 L74 184', C.steel, 4),
    wheel(72, 186, 12, 0),
  ].join(''),

  /** A home-care hospital bed with the head section raised. */
  bed: () => [
    // under frame and legs
    tube('M56 160 L186 160', C.steel, 6),
    tube('M66 160 L66 180 M176 160 L176 180', C.steel, 5),
    wheel(66, 186, 9), wheel(176, 186, 9),
    // lift mechanism
    tube('M96 160 L120 142 M150 160 L126 142', C.steelDark, 4),
    // head- and footboards
    `<rect x="34" y="92" width="16" height="82" rx="6" fill="${C.teal}" ${OUTLINE}/>`,
    `<rect x="190" y="112" width="16" height="62" rx="6" fill="${C.teal}" ${OUTLINE}/>`,
    // mattress deck
    `<path d="M50 134 L92 146 L190 146 L190 152 L50 152 Z" fill="${C.steel}" ${OUTLINE}/>`,
    // mattress: raised head section and flat section
    `<path d="M54 104 Q52 100 57 101 L100 124 L188 124 Q192 124 192 128 L192 140 Q192 144 188 144 L96 144 L54 122 Q50 119 52 114 Z" fill="${C.white}" ${OUTLINE}/>`,
    // pillow
    `<path d="M58 98 Q66 88 84 98 Q92 104 88 112 Q76 118 62 110 Q54 104 58 98 Z" fill="${C.paper}" ${OUTLINE}/>`,
    // blanket
    `<path d="M108 122 L190 122 Q194 122 194 127 L194 138 Q194 143 189 143 L112 143 Q104 132 108 122 Z" fill="${C.tealLight}" ${OUTLINE}/>`,
    `<path d="M108 122 Q120 118 126 124 L126 143" fill="none" stroke="${C.ink}" stroke-width="2"/>`,
    // half rail at the head
    tube('M60 140 L60 116 L118 116 L118 140', C.steelDark, 4),
    tube('M60 128 L118 128 M79 116 L79 140 M98 116 L98 140', C.steelDark, 2.5),
  ].join(''),

  /** A stationary oxygen concentrator with flow meter, screen and cannula tubing. */
  tank: () => [
    // tubing and nasal cannula
    `<path d="M156 98 C192 100 196 140 176 150 C160 158 168 178 188 176" fill="none" stroke="${C.ink}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M156 98 C192 100 196 140 176 150 C160 158 168 178 188 176" fill="none" stroke="${C.glass}" stroke-width="3" stroke-linecap="round"/>`,
    `<path d="M182 170 Q192 164 200 172 Q196 184 184 182 Z" fill="${C.glass}" ${OUTLINE}/>`,
    // casters
    wheel(86, 184, 8), wheel(144, 184, 8),
    // body
    `<rect x="70" y="50" width="90" height="130" rx="16" fill="${C.white}" ${OUTLINE}/>`,
    // top cap with carry handle
    `<path d="M70 72 L70 66 Q70 50 86 50 L144 50 Q160 50 160 66 L160 72 Z" fill="${C.teal}" ${OUTLINE}/>`,
    `<rect x="98" y="38" width="34" height="12" rx="6" fill="none" stroke="${C.ink}" stroke-width="4"/>`,
    // screen
    `<rect x="82" y="80" width="40" height="22" rx="4" fill="${C.screen}" stroke="${C.ink}" stroke-width="2"/>`,
    digits('5.0', 87, 85, 12),
    // flow meter tube with a float ball
    `<rect x="132" y="78" width="14" height="44" rx="7" fill="${C.glass}" ${OUTLINE}/>`,
    `<line x1="136" y1="90" x2="142" y2="90" stroke="${C.steelDark}" stroke-width="1.5"/><line x1="136" y1="100" x2="142" y2="100" stroke="${C.steelDark}" stroke-width="1.5"/><line x1="136" y1="110" x2="142" y2="110" stroke="${C.steelDark}" stroke-width="1.5"/>`,
    `<circle cx="139" cy="104" r="4" fill="${C.coral}" stroke="${C.ink}" stroke-width="1.5"/>`,
    `<circle cx="139" cy="130" r="6" fill="${C.steel}" ${OUTLINE}/>`,
    // buttons
    `<circle cx="90" cy="116" r="5.5" fill="${C.tealMid}" stroke="${C.ink}" stroke-width="2"/>`,
    `<circle cx="108" cy="116" r="5.5" fill="${C.steelLight}" stroke="${C.ink}" stroke-width="2"/>`,
    // outlet port
    `<rect x="150" y="93" width="10" height="10" rx="3" fill="${C.steel}" stroke="${C.ink}" stroke-width="2"/>`,
    // vent grille
    `<rect x="82" y="140" width="66" height="30" rx="6" fill="${C.paper}" stroke="${C.ink}" stroke-width="2"/>`,
    [146, 152, 158, 164].map((y) => `<line x1="90" y1="${y}" x2="140" y2="${y}" stroke="${C.steelDark}" stroke-width="2.5" stroke-linecap="round"/>`).join(''),
  ].join(''),

  /** A folding walker: two side frames, grips, front wheels and rear glides. */
  walker: () => [
    // rear (far) side frame, lighter
    tube('M112 56 L104 176 M112 56 L170 56 L178 176 M108 118 L174 118', C.steelLight, 5),
    // front cross bars
    tube('M72 70 L112 60 M74 112 L108 104', C.steel, 5),
    // near side frame
    tube('M68 66 L56 182 M68 66 L140 66 L150 182 M62 128 L146 128', C.steel, 6),
    // grips
    `<rect x="106" y="59" width="38" height="13" rx="6.5" fill="${C.tyre}" ${OUTLINE}/>`,
    `<rect x="144" y="50" width="28" height="11" rx="5.5" fill="${C.tyre}" stroke="${C.ink}" stroke-width="2.5"/>`,
    // height-adjust buttons
    `<circle cx="59" cy="156" r="3" fill="${C.teal}" stroke="${C.ink}" stroke-width="1.5"/><circle cx="148" cy="156" r="3" fill="${C.teal}" stroke="${C.ink}" stroke-width="1.5"/>`,
    // front wheels, rear glides
    wheel(104, 182, 9), wheel(56, 184, 11),
    `<rect x="168" y="172" width="18" height="14" rx="7" fill="${C.yellow}" ${OUTLINE}/>`,
    `<rect x="140" y="176" width="20" height="14" rx="7" fill="${C.yellow}" ${OUTLINE}/>`,
  ].join(''),

  /** A compressor nebulizer: the unit, its hose, the medicine cup and a face mask with mist. */
  mist: () => [
    // hose from the unit to the cup
    `<path d="M150 152 C170 152 170 160 170 146" fill="none" stroke="${C.ink}" stroke-width="8" stroke-linecap="round"/>`,
    `<path d="M150 152 C170 152 170 160 170 146" fill="none" stroke="${C.glass}" stroke-width="4" stroke-linecap="round"/>`,
    // compressor unit
    `<rect x="40" y="124" width="110" height="58" rx="14" fill="${C.white}" ${OUTLINE}/>`,
    `<path d="M40 142 L40 138 Q40 124 54 124 L136 124 Q150 124 150 138 L150 142 Z" fill="${C.teal}" ${OUTLINE}/>`,
    `<rect x="54" y="152" width="36" height="20" rx="5" fill="${C.paper}" stroke="${C.ink}" stroke-width="2"/>`,
    [157, 162, 167].map((y) => `<line x1="60" y1="${y}" x2="84" y2="${y}" stroke="${C.steelDark}" stroke-width="2" stroke-linecap="round"/>`).join(''),
    `<circle cx="120" cy="162" r="9" fill="${C.tealMid}" stroke="${C.ink}" stroke-width="2.5"/>`,
    `<path d="M120 156 L120 162 M115 158 A7 7 0 1 0 125 158" fill="none" stroke="${C.white}" stroke-width="2" stroke-linecap="round"/>`,
    `<rect x="142" y="147" width="10" height="10" rx="3" fill="${C.steel}" stroke="${C.ink}" stroke-width="2"/>`,
    // medicine cup under the mask
    `<path d="M158 116 L182 116 L178 142 Q170 148 162 142 Z" fill="${C.glass}" ${OUTLINE}/>`,
    `<path d="M161 130 L179 130 L178 140 Q170 145 162 140 Z" fill="${C.tealLight}"/>`,
    // elastic strap
    `<path d="M146 86 Q128 80 126 66 M194 86 Q212 80 210 64" fill="none" stroke="${C.tealMid}" stroke-width="3" stroke-linecap="round"/>`,
    // face mask, front view: narrow over the nose, wide at the chin
    `<path d="M170 40 C182 40 200 78 200 96 C200 114 186 120 170 120 C154 120 140 114 140 96 C140 78 158 40 170 40 Z" fill="${C.glass}" fill-opacity="0.92" ${OUTLINE}/>`,
    `<path d="M170 50 C178 50 190 78 190 94 C190 108 180 112 170 112 C160 112 150 108 150 94 C150 78 162 50 170 50 Z" fill="none" stroke="${C.white}" stroke-width="2.5"/>`,
    `<circle cx="170" cy="110" r="8" fill="${C.steel}" stroke="${C.ink}" stroke-width="2.5"/>`,
    `<path d="M154 72 Q158 60 164 54" fill="none" stroke="${C.white}" stroke-width="4" stroke-linecap="round"/>`,
    // mist
    `<g fill="${C.white}" stroke="${C.tealLight}" stroke-width="2"><circle cx="92" cy="96" r="9"/><circle cx="108" cy="86" r="12"/><circle cx="124" cy="96" r="8"/><circle cx="78" cy="106" r="6"/></g>`,
    `<g fill="none" stroke="${C.tealLight}" stroke-width="3" stroke-linecap="round"><path d="M84 70 Q92 64 86 56"/><path d="M102 64 Q110 58 104 50"/></g>`,
  ].join(''),

  /** A hydraulic patient lift: wheeled base, mast, boom, spreader bar and sling. */
  lift: () => [
    // base legs and casters
    tube('M60 176 L188 176', C.steel, 7),
    tube('M76 176 L84 166', C.steel, 6),
    wheel(66, 188, 8), wheel(180, 188, 8),
    // mast
    tube('M76 168 L76 58', C.teal, 9),
    // push handle
    tube('M76 96 L54 92', C.steel, 5),
    `<rect x="42" y="84" width="14" height="14" rx="5" fill="${C.tyre}" stroke="${C.ink}" stroke-width="2.5"/>`,
    // hydraulic ram
    tube('M80 140 L118 70', C.steelLight, 7),
    tube('M80 140 L98 108', C.steelDark, 9),
    // pump handle
    tube('M84 132 L62 122', C.steel, 4),
    // boom
    tube('M70 56 L172 72', C.teal, 9),
    // chain and spreader bar
    tube('M170 74 L170 86', C.steelDark, 3),
    tube('M144 90 L196 90', C.steel, 5),
    `<circle cx="144" cy="90" r="4" fill="${C.steelDark}" stroke="${C.ink}" stroke-width="2"/><circle cx="196" cy="90" r="4" fill="${C.steelDark}" stroke="${C.ink}" stroke-width="2"/>`,
    // sling
    `<path d="M144 94 L146 110 Q148 150 170 156 Q192 150 194 110 L196 94 Q186 104 182 124 Q170 132 158 124 Q154 104 144 94 Z" fill="${C.tealLight}" ${OUTLINE}/>`,
    `<path d="M150 118 Q170 142 190 118" fill="none" stroke="${C.teal}" stroke-width="2.5" stroke-dasharray="4 4"/>`,
  ].join(''),

  /** A box of nitrile examination gloves with a glove coming out of it. */
  glove: () => {
    const hand = '<g>'
      + '<rect x="92" y="82" width="56" height="62" rx="22"/>'
      + '<rect x="92" y="44" width="13" height="52" rx="6.5"/>'
      + '<rect x="106" y="34" width="13" height="60" rx="6.5"/>'
      + '<rect x="120" y="38" width="13" height="58" rx="6.5"/>'
      + '<rect x="134" y="52" width="12" height="46" rx="6"/>'
      + '<rect x="94" y="76" width="14" height="48" rx="7" transform="rotate(-38 101 120)"/>'
      + '<rect x="98" y="120" width="44" height="40" rx="6"/>'
      + '</g>';
    return [
      // glove: outline pass, then fill pass, so it reads as one shape
      `<g fill="${C.ink}" stroke="${C.ink}" stroke-width="6" stroke-linejoin="round">${hand}</g>`,
      `<g fill="${C.glove}">${hand}</g>`,
      `<path d="M112 52 L112 84 M126 52 L126 86" stroke="${C.gloveLight}" stroke-width="3" stroke-linecap="round"/>`,
      // box
      `<path d="M48 128 L192 128 L192 184 Q192 188 188 188 L52 188 Q48 188 48 184 Z" fill="${C.white}" ${OUTLINE}/>`,
      `<path d="M48 128 L192 128 L192 140 L48 140 Z" fill="${C.teal}" ${OUTLINE}/>`,
      // opening the glove comes out of
      `<path d="M94 128 Q120 120 146 128" fill="none" stroke="${C.ink}" stroke-width="3"/>`,
      // label: a hand icon band and a cross badge
      `<rect x="62" y="152" width="64" height="8" rx="4" fill="${C.tealLight}"/>`,
      `<rect x="62" y="166" width="44" height="8" rx="4" fill="${C.steelLight}"/>`,
      `<circle cx="162" cy="163" r="14" fill="${C.glove}" stroke="${C.ink}" stroke-width="2.5"/>`,
      `<path d="M162 155 L162 171 M154 163 L170 163" stroke="${C.white}" stroke-width="4" stroke-linecap="round"/>`,
    ].join('');
  },

  /** An automatic upper-arm blood pressure monitor: the unit with its screen, a hose and the cuff. */
  gauge: () => [
    // hose
    `<path d="M138 132 C160 150 150 178 120 176 C96 174 92 168 86 162" fill="none" stroke="${C.ink}" stroke-width="6" stroke-linecap="round"/>`,
    `<path d="M138 132 C160 150 150 178 120 176 C96 174 92 168 86 162" fill="none" stroke="${C.steel}" stroke-width="2.5" stroke-linecap="round"/>`,
    // cuff, rolled
    `<path d="M34 146 Q34 126 58 124 L104 122 Q118 124 118 146 Q118 170 104 172 L58 174 Q34 170 34 146 Z" fill="${C.screen}" ${OUTLINE}/>`,
    `<path d="M104 122 Q92 124 92 147 Q92 170 104 172" fill="none" stroke="${C.ink}" stroke-width="2.5"/>`,
    `<path d="M104 122 Q118 124 118 146 Q118 170 104 172 Q96 168 94 147 Q96 126 104 122 Z" fill="${C.teal}" stroke="${C.ink}" stroke-width="2.5"/>`,
    `<rect x="44" y="136" width="38" height="22" rx="4" fill="${C.tealMid}" stroke="${C.ink}" stroke-width="2"/>`,
    `<line x1="50" y1="147" x2="76" y2="147" stroke="${C.white}" stroke-width="2" stroke-dasharray="3 3"/>`,
    // monitor unit
    `<rect x="110" y="46" width="90" height="98" rx="16" fill="${C.white}" ${OUTLINE}/>`,
    `<rect x="121" y="58" width="68" height="50" rx="6" fill="${C.screen}" stroke="${C.ink}" stroke-width="2"/>`,
    digits('120', 127, 63, 16),
    digits('80', 150, 86, 14),
    `<path d="M130 92 q-4 -4 0 -7 q3 -2 4 1 q1 -3 4 -1 q4 3 0 7 l-4 4 z" fill="${C.coral}"/>`,
    // start button and memory buttons
    `<circle cx="155" cy="126" r="9" fill="${C.teal}" stroke="${C.ink}" stroke-width="2.5"/>`,
    `<rect x="124" y="122" width="14" height="8" rx="4" fill="${C.steelLight}" stroke="${C.ink}" stroke-width="2"/>`,
    `<rect x="172" y="122" width="14" height="8" rx="4" fill="${C.steelLight}" stroke="${C.ink}" stroke-width="2"/>`,
  ].join(''),

  /** A digital stethoscope: ear tips, binaurals, tubing and an electronic chest piece. */
  scope: () => [
    // binaurals (metal)
    tube('M82 48 Q70 100 116 112', C.steel, 5),
    tube('M150 48 Q162 100 116 112', C.steel, 5),
    // ear tips
    `<ellipse cx="82" cy="44" rx="7" ry="9" fill="${C.tyre}" ${OUTLINE}/>`,
    `<ellipse cx="150" cy="44" rx="7" ry="9" fill="${C.tyre}" ${OUTLINE}/>`,
    // tubing
    tube('M116 112 C116 150 70 150 72 176 C74 196 112 194 128 176 C140 162 148 156 156 156', C.teal, 8),
    // electronic chest piece
    `<circle cx="172" cy="152" r="24" fill="${C.steel}" ${OUTLINE}/>`,
    `<circle cx="172" cy="152" r="17" fill="${C.steelLight}" stroke="${C.ink}" stroke-width="2"/>`,
    `<rect x="161" y="145" width="22" height="14" rx="3" fill="${C.screen}"/>`,
    `<path d="M163 152 L167 152 L169 147 L172 157 L175 150 L177 152 L181 152" fill="none" stroke="${C.digit}" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round"/>`,
    `<rect x="150" y="130" width="12" height="10" rx="3" fill="${C.steelDark}" stroke="${C.ink}" stroke-width="2" transform="rotate(-40 156 135)"/>`,
  ].join(''),

  /** A digital stick thermometer with a flexible tip and a small screen. */
  thermo: () => `<g transform="rotate(-45 120 120)">${[
    // flexible tip and probe
    `<rect x="36" y="110" width="44" height="20" rx="10" fill="${C.steelLight}" ${OUTLINE}/>`,
    `<rect x="30" y="113" width="14" height="14" rx="7" fill="${C.steel}" ${OUTLINE}/>`,
    // body
    `<path d="M76 108 L184 104 Q204 104 204 120 Q204 136 184 136 L76 132 Q70 120 76 108 Z" fill="${C.white}" ${OUTLINE}/>`,
    `<path d="M160 105 L184 104 Q204 104 204 120 Q204 136 184 136 L160 135 Z" fill="${C.teal}" ${OUTLINE}/>`,
    // screen
    `<rect x="96" y="111" width="44" height="18" rx="4" fill="${C.screen}" stroke="${C.ink}" stroke-width="2"/>`,
    digits('37.5', 101, 114, 12),
    // button
    `<circle cx="176" cy="120" r="6" fill="${C.white}" stroke="${C.ink}" stroke-width="2"/>`,
  ].join('')}</g>`,

  /** A non-contact infrared forehead thermometer with its beam. */
  gun: () => [
    // infrared waves
    `<g fill="none" stroke="${C.coral}" stroke-width="4" stroke-linecap="round"><path d="M54 72 Q46 84 54 96"/><path d="M44 64 Q32 84 44 104"/><path d="M34 56 Q20 84 34 112" opacity="0.55"/></g>`,
    // handle
    `<path d="M128 104 L164 104 L176 182 Q176 190 168 190 L150 190 Q142 190 140 182 Z" fill="${C.teal}" ${OUTLINE}/>`,
    // trigger
    `<path d="M124 106 Q116 124 128 134 L134 128 Q128 120 132 106 Z" fill="${C.steel}" ${OUTLINE}/>`,
    // head
    `<path d="M72 70 Q72 56 86 56 L186 56 Q204 56 204 80 Q204 106 184 108 L86 108 Q72 108 72 94 Z" fill="${C.white}" ${OUTLINE}/>`,
    // sensor cone
    `<path d="M72 68 L62 74 L62 94 L72 100 Z" fill="${C.steel}" ${OUTLINE}/>`,
    `<rect x="60" y="78" width="5" height="12" rx="2" fill="${C.coral}"/>`,
    // screen
    `<rect x="130" y="66" width="54" height="26" rx="5" fill="${C.screen}" stroke="${C.ink}" stroke-width="2"/>`,
    digits('36.6', 135, 71, 15),
    `<line x1="92" y1="72" x2="116" y2="72" stroke="${C.tealLight}" stroke-width="5" stroke-linecap="round"/>`,
    `<line x1="92" y1="88" x2="108" y2="88" stroke="${C.steelLight}" stroke-width="5" stroke-linecap="round"/>`,
  ].join(''),

  /** Anti-fog safety glasses in front of a face shield. */
  mask: () => [
    // face shield: visor and headband
    `<path d="M54 64 Q120 40 186 64 L192 150 Q192 190 120 194 Q48 190 48 150 Z" fill="${C.glass}" fill-opacity="0.75" ${OUTLINE}/>`,
    `<path d="M54 64 Q120 40 186 64 L186 78 Q120 56 54 78 Z" fill="${C.teal}" ${OUTLINE}/>`,
    `<path d="M72 96 Q74 150 96 176" fill="none" stroke="${C.white}" stroke-width="5" stroke-linecap="round" opacity="0.9"/>`,
    `<path d="M82 90 Q82 110 86 124" fill="none" stroke="${C.white}" stroke-width="3" stroke-linecap="round" opacity="0.9"/>`,
    // glasses
    tube('M64 118 L52 112 M176 118 L188 112', C.tyre, 4),
    `<path d="M64 112 Q64 104 74 104 L108 104 Q114 104 114 112 L112 130 Q108 144 92 144 Q68 144 66 130 Z" fill="${C.tealLight}" fill-opacity="0.85" ${OUTLINE}/>`,
    `<path d="M176 112 Q176 104 166 104 L132 104 Q126 104 126 112 L128 130 Q132 144 148 144 Q172 144 174 130 Z" fill="${C.tealLight}" fill-opacity="0.85" ${OUTLINE}/>`,
    tube('M114 112 Q120 106 126 112', C.tyre, 4),
    `<path d="M74 114 L84 110 M136 114 L146 110" stroke="${C.white}" stroke-width="3" stroke-linecap="round"/>`,
  ].join(''),
};

function frame(shape: SeedShape, body: string): string {
  const t = TINT[shape];
  const n = ART_VIEWBOX;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${n}" height="${n}" viewBox="0 0 ${n} ${n}">`
    + `<rect width="${n}" height="${n}" rx="28" fill="${t.tile}"/>`
    + `<circle cx="120" cy="116" r="84" fill="${t.halo}"/>`
    + `<ellipse cx="120" cy="196" rx="78" ry="8" fill="${t.shadow}"/>`
    + body
    + '</svg>';
}

/** The illustration of a demo product as an SVG document (240 x 240 viewBox). */
export function productSvg(shape: SeedShape): string {
  return frame(shape, DRAW[shape]());
}

/** Only the background of a shape's illustration (tile, halo, shadow): what the safe margin must show. */
export function productBackgroundSvg(shape: SeedShape): string {
  return frame(shape, '');
}

export const SEED_SHAPES = Object.keys(DRAW) as SeedShape[];
