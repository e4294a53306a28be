import { Provider } from 'react-redux';
import { useLiveUpdates, useResetApiOnLeave } from '@dme/api-client';
import { CurrentUserProvider, ThemeProvider, type RemoteAppProps } from '@dme/ui';
import { store } from './store';
import { AppRoutes } from './routes';

/**
 * Exposed as `./app`: the shell renders it inside its BrowserRouter for this remote's paths.
 * It brings its own store (RTK Query cache, dropped when the user leaves) and its own antd,
 * themed like the shell. Live updates (the gateway's event stream) refetch the orders and
 * payments on screen when they change elsewhere (a driver's scan, a payment, a request).
 */
export default function App({ user }: RemoteAppProps) {
  useResetApiOnLeave(store, user.id);
  useLiveUpdates(store.dispatch);
  return (
    <Provider store={store}>
      <ThemeProvider>
        <CurrentUserProvider user={user}>
          <AppRoutes />
        </CurrentUserProvider>
      </ThemeProvider>
    </Provider>
  );
}
