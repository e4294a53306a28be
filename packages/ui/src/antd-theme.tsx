import type { ReactNode } from 'react';
import { ConfigProvider } from 'antd';
import { TAG_CSS, theme } from './theme-config';

/** antd's ConfigProvider with the shop's theme, nothing else (for antd code fetched later). */
export function AntdTheme({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={theme}>
      {/* React hoists this into <head> once, however many themed trees a page has. */}
      <style href="dme-tag-contrast" precedence="dme">
        {TAG_CSS}
      </style>
      {children}
    </ConfigProvider>
  );
}
