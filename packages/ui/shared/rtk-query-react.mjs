/*
 * What the browser apps use of @reduxjs/toolkit/query/react (shared under that name; see
 * redux-toolkit.mjs): the rest of RTK Query's exports are tree-shaken away.
 */
export { createApi, fetchBaseQuery, skipToken } from '@dme/unshared/@reduxjs/toolkit/query/react';
