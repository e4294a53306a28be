import type { ComponentType, ReactNode } from 'react';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { baseApi, useLiveUpdates, useResetApiOnLeave } from '@dme/api-client';
import { CurrentUserProvider } from '../shell-context';
import type { RemoteAppProps } from '../remote';

/** A remote's own store (each app has one; the RTK Query cache is per app). */
export function createRemoteStore() {
  return configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}

export interface RemoteOptions {
  /** The remote's `<Routes>`: its screens at their absolute paths inside the shell's router. */
  routes: ComponentType;
  /**
   * What the app is wrapped in: `ThemeProvider` (the whole app inside the antd theme), or
   * `FeedbackProvider` for a remote whose home is plain elements and whose antd screens bring the
   * theme (`themedLazy`). Passed in, so a remote bundles only the one it uses.
   */
  frame: ComponentType<{ children: ReactNode }>;
  /** The remote's store, when its tests need to reach it; else one is made here. */
  store?: RemoteStore;
}

export type RemoteStore = ReturnType<typeof createRemoteStore>;

/**
 * What a remote exposes as `./app`: the component the shell renders inside its BrowserRouter for
 * the remote's paths. It brings its own store (RTK Query cache, dropped when the user leaves or
 * changes) and its own antd, themed like the shell. Live updates (the gateway's event stream)
 * refetch what is on screen when orders, payments or requests change elsewhere.
 */
export function createRemote({ routes: Routes, frame: Frame, store = createRemoteStore() }: RemoteOptions) {
  function App({ user }: RemoteAppProps) {
    useResetApiOnLeave(store, user.id);
    useLiveUpdates(store.dispatch);
    return (
      <Provider store={store}>
        <Frame>
          <CurrentUserProvider user={user}>
            <Routes />
          </CurrentUserProvider>
        </Frame>
      </Provider>
    );
  }
  return { App, store };
}
