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
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
};
