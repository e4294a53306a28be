import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Result } from 'antd';
import { ThemeProvider } from '../theme';

/**
 * A remote's standalone entry, used only when its bundle is opened on its own: the product runs
 * it inside the shell, which loads `./app` from remoteEntry.js. It says so instead of a blank page.
 */
export function renderStandalone(el: HTMLElement | null = document.getElementById('root')): void {
  if (!el) return;
  createRoot(el).render(
    <ThemeProvider>
      <BrowserRouter>
        <Result status="info" title="This part of the shop opens inside the main app." subTitle="Sign in at /login." />
      </BrowserRouter>
    </ThemeProvider>,
  );
}
