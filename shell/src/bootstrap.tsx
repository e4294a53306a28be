import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter } from 'react-router-dom';
import { createFeedback, FeedbackProvider, ThemeProvider } from '@dme/ui';
import { store } from './store';
import { SessionProvider } from './session/session';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <Provider store={store}>
    <ThemeProvider>
      <FeedbackProvider value={createFeedback()}>
      <BrowserRouter>
        <SessionProvider>
          <App />
        </SessionProvider>
      </BrowserRouter>
      </FeedbackProvider>
    </ThemeProvider>
  </Provider>,
);
