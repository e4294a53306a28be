import { Provider } from 'react-redux';
import { useLiveUpdates, useResetApiOnLeave } from '@dme/api-client';
import { CurrentUserProvider, FeedbackProvider, type RemoteAppProps } from '@dme/ui';
import { store } from './store';
import { AppRoutes } from './routes';

/**
 * Exposed as `./app`: the shell renders it inside its BrowserRouter for this remote's paths.
 * It brings its own store (RTK Query cache, dropped when the user leaves) and its own antd,
 * themed like the shell. The customer's home (/dashboard) is plain elements: antd and its theme
 * come with the other screens (each a `themedLazy` chunk) and with the first toast or confirm.
 * Live updates: a change of one of my orders, payments or requests (the gateway's event stream)
 * reloads My Orders and the order on screen.
 */
export default function App({ user }: RemoteAppProps) {
  useResetApiOnLeave(store, user.id);
  useLiveUpdates(store.dispatch);
  return (
    <Provider store={store}>
      <FeedbackProvider>
        <CurrentUserProvider user={user}>
          <AppRoutes />
        </CurrentUserProvider>
      </FeedbackProvider>
    </Provider>
  );
}
