import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { store } from './store';
import { SessionProvider } from './session/session';
import { App } from './App';

/*
 * No antd here: the signed-in frame is plain, and every antd screen of the shell (public pages,
 * admin screens, results, the logout confirm) is a lazy chunk that wraps itself in ThemeProvider.
 * A customer thus downloads the shell's frame and the shop remote's antd, not the shell's too.
 */
createRoot(document.getElementById('root')!).render(
  <Provider store={store}>
    <BrowserRouter>
      <SessionProvider>
        <App />
      </SessionProvider>
    </BrowserRouter>
  </Provider>,
);
