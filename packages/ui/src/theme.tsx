import type { ReactNode } from 'react';
import { ConfigProvider, type ThemeConfig } from 'antd';
import { FeedbackRoot } from './feedback';

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
 * shared module, STACK P9): antd's ConfigProvider with our theme, and antd's App for message,
 * notification and modal (through useFeedback(), 120 px from the top).
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme}>
      <FeedbackRoot>{children}</FeedbackRoot>
    </ConfigProvider>
  );
}
