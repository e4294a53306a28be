import { configureStore } from '@reduxjs/toolkit';
import { baseApi } from '@dme/api-client';

/** The shell's store (the remotes each have their own). */
export const store = configureStore({
  reducer: { [baseApi.reducerPath]: baseApi.reducer },
  middleware: (getDefault) => getDefault().concat(baseApi.middleware),
});
