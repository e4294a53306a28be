import { theme as antdTheme } from 'antd';
import { describe, expect, it } from 'vitest';
import { orderStatusColor, paymentStatusColor, requestStatusColor, stockStatusColor, userStatusColor } from '@dme/contracts';
import { TAG_CSS, TAG_TEXT, theme } from './theme-config';

/** WCAG 2 contrast ratio of two colours (#rrggbb, or rgba(r, g, b, a) over white). */
function contrast(fg: string, bg: string): number {
  const rgb = (c: string): [number, number, number] => {
    const m = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*([\d.]+))?\)$/.exec(c.replace(/\s+/g, ' ').trim());
    if (m) {
      const a = m[4] === undefined ? 1 : Number(m[4]);
      return [1, 2, 3].map((i) => Number(m[i]) * a + 255 * (1 - a)) as [number, number, number];
    }
    return [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as [number, number, number];
  };
  const lum = (c: string) => {
    const [r, g, b] = rgb(c).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const token = antdTheme.getDesignToken(theme) as unknown as Record<string, string>;

describe('theme colours are readable (issue 13: ≥ 4.5:1 for text)', () => {
  it('text, description, error and link colours on white', () => {
    for (const key of ['colorText', 'colorTextDescription', 'colorTextTertiary', 'colorTextPlaceholder', 'colorError', 'colorLink', 'colorPrimary']) {
      expect(contrast(token[key]!, '#ffffff'), key).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('every status tag colour of SPEC §4: the tag text (shade 7) on the tag background (shade 1)', () => {
    const statuses = ['PENDING', 'FOR_PAYMENT', 'FOR_FULL_PAYMENT', 'PREPARING', 'FOR_RETURN', 'TO_SHIP', 'FOR_PICK_UP', 'OUT_FOR_DELIVERY', 'DELIVERED', 'ON_GOING', 'COMPLETED', 'CANCELLED', 'AVAILABLE', 'RENTED', 'DAMAGED', 'SOLD', 'LOST', 'ON_PROGRESS', 'DONE', 'INITIAL_PAYMENT', 'PAID', 'ACTIVE', 'INACTIVE'];
    const colours = new Set<string>(['green', 'red', 'orange', 'purple']); // also used as plain tags on order screens
    for (const s of statuses) for (const f of [orderStatusColor, stockStatusColor, requestStatusColor, paymentStatusColor, userStatusColor]) colours.add(f(s));
    expect(colours.size).toBeGreaterThan(6);
    for (const c of colours) {
      expect(contrast(TAG_TEXT[c] ?? token[`${c}7`]!, token[`${c}1`]!), `${c} tag`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('the tag text colours reach the page as the variable antd reads for a tag of that colour', () => {
    for (const [c, v] of Object.entries(TAG_TEXT)) expect(TAG_CSS).toContain(`.ant-tag.ant-tag-${c}{--ant-${c}-7:${v}}`);
  });
});
