import { Provider } from 'react-redux';
import { ShellContextProvider, ThemeProvider, type RemoteAppProps } from '@dme/ui';
import { store } from './store';
import { AppRoutes } from './routes';

/** Exposed as `./app`: rendered by the shell inside its router for this remote's paths. */
export default function App(props: RemoteAppProps) {
  return (
    <Provider store={store}>
      <ThemeProvider>
        <ShellContextProvider {...props}>
          <AppRoutes />
        </ShellContextProvider>
      </ThemeProvider>
    </Provider>
  );
}
