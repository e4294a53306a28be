import type { ThemeConfig } from 'antd';

/** The shop's antd theme (a type-only antd import: this module costs nothing without antd). */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0b6e79',
    colorLink: '#0b6e79',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
};
