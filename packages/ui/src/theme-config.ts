import type { ThemeConfig } from 'antd';

/** The shop's antd theme (a type-only antd import: this module costs nothing without antd). */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0b6e79',
    colorLink: '#0b6e79',
    // Contrast on white ≥ 4.5:1 (issue 13): antd's default error red (#ff4d4f, 3.3:1) and
    // description grey (45% black, 3.4:1) are too faint for text such as Delete or hints.
    colorError: '#cf1322',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    // Placeholders and select hints (antd: 25% black, 1.8:1) at 4.7:1.
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    // A link inside running text is underlined, not told apart by colour alone.
    linkDecoration: 'underline',
    // Secondary text such as description labels (antd: 45% black, 3.4:1).
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
};

/**
 * Status tags keep the colour names of SPEC §4. antd writes a tag's text in shade 7 of its palette
 * on shade 1, which for these hues is 2.5–4.4:1; a darker shade of the same hue gives ≥ 4.5:1
 * (theme-config.test.ts). antd's palettes are not overridable as tokens (its CSS variables are
 * regenerated from the seed colours), so the tag's own variable is set on the tag.
 */
export const TAG_TEXT: Readonly<Record<string, string>> = {
  green: '#237804',
  cyan: '#006d75',
  orange: '#ad4e00',
  volcano: '#ad2102',
  gold: '#874d00',
  lime: '#3f6600',
  yellow: '#614700',
};

export const TAG_CSS = Object.entries(TAG_TEXT)
  .map(([c, v]) => `.ant-tag.ant-tag-${c}{--ant-${c}-7:${v}}`)
  .join('');
