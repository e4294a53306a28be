import type { ReactNode } from 'react';
import { ConfigProvider, type ThemeConfig } from 'antd';

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#0b6e79',
    colorLink: '#0b6e79',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
};

/**
 * The same look in the shell and every remote: each app wraps itself in this (antd is not a
 * shared module, STACK P9). Toasts and confirms come from useFeedback().
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={theme}>{children}</ConfigProvider>;
}
