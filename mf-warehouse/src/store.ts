import { configureStore } from '@reduxjs/toolkit';
import { baseApi } from '@dme/api-client';

/** This remote's own store (each app has one; the RTK Query cache is per app). */
export const store = configureStore({
  reducer: { [baseApi.reducerPath]: baseApi.reducer },
  middleware: (getDefault) => getDefault().concat(baseApi.middleware),
});
