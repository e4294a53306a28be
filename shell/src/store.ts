import { configureStore } from '@reduxjs/toolkit';
import { baseApi } from '@dme/api-client';

/** A store for the shell's own screens (each remote has its own; see docs/decisions.md). */
export function makeStore() {
  return configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer },
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}

export const store = makeStore();
