import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Result } from 'antd';
import { ThemeProvider } from '@dme/ui';

/**
 * Standalone entry, used only when this remote's bundle is opened on its own: the product runs it
 * inside the shell, which loads `./app` from remoteEntry.js. It says so instead of a blank page.
 */
const el = document.getElementById('root');
if (el) {
  createRoot(el).render(
    <ThemeProvider>
      <BrowserRouter>
        <Result status="info" title="This part of the shop opens inside the main app." subTitle="Sign in at /login." />
      </BrowserRouter>
    </ThemeProvider>,
  );
}
