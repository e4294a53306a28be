/*
 * What the browser apps and RTK Query use of @reduxjs/toolkit, and nothing else: shared as
 * `@reduxjs/toolkit` (a federation singleton) like the router facade beside it, so the listener
 * middleware, entity adapter, combineSlices and the rest are tree-shaken away. RTK Query's own
 * `import … from "@reduxjs/toolkit"` gets this module too: the build refuses a facade that lacks a
 * name our sources or RTK Query's files import (rspack.base.mjs, checkFacades).
 */
export {
  configureStore,
  SHOULD_AUTOBATCH,
  combineReducers,
  createAction,
  createAsyncThunk,
  createNextState,
  createSelector,
  createSlice,
  formatProdErrorMessage,
  isAction,
  isAllOf,
  isAnyOf,
  isAsyncThunkAction,
  isFulfilled,
  isPending,
  isPlainObject,
  isRejected,
  isRejectedWithValue,
  nanoid,
  prepareAutoBatched,
} from '@dme/unshared/@reduxjs/toolkit';
