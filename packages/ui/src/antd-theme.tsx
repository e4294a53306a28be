import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { theme } from './theme-config';

/** antd's ConfigProvider with the shop's theme, nothing else (for antd code fetched later). */
export function AntdTheme({ children }: { children: ReactNode }) {
  return <ConfigProvider theme={theme}>{children}</ConfigProvider>;
}
