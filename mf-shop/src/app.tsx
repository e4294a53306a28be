import { Provider } from 'react-redux';
import { useResetApiOnLeave } from '@dme/api-client';
import { CurrentUserProvider, FeedbackProvider, type RemoteAppProps } from '@dme/ui';
import { store } from './store';
import { AppRoutes } from './routes';

/**
 * Exposed as `./app`: the shell renders it inside its BrowserRouter for this remote's paths.
 * It brings its own store (RTK Query cache, dropped when the user leaves) and its own antd,
 * themed like the shell. The customer's home (/dashboard) is plain elements: antd and its theme
 * come with the other screens (each a `themedLazy` chunk) and with the first toast or confirm.
 */
export default function App({ user }: RemoteAppProps) {
  useResetApiOnLeave(store, user.id);
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
