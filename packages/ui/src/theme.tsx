import type { ReactNode } from 'react';
import { AntdTheme } from './antd-theme';
import { FeedbackRoot } from './feedback';

export { theme } from './theme-config';

/**
 * The same look in the shell and every remote: each app wraps itself in this (antd is not a
 * shared module, STACK P9): antd's ConfigProvider with our theme, and antd's App for message,
 * notification and modal (through useFeedback(), 120 px from the top).
 *
 * A screen that must appear without antd (the login page, the customer's dashboard) uses
 * `FeedbackProvider` above and `themedLazy` for its antd screens instead.
 */
export function ThemeProvider({ children }: { children: ReactNode }) {
  return (
    <AntdTheme>
      <FeedbackRoot>{children}</FeedbackRoot>
    </AntdTheme>
  );
}
