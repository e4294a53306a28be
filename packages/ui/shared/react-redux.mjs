/*
 * What the browser apps and RTK Query's React hooks use of react-redux (shared under that name;
 * see redux-toolkit.mjs): connect() and the rest are tree-shaken away.
 */
export { Provider, ReactReduxContext, batch, shallowEqual, useDispatch, useSelector, useStore } from '@dme/unshared/react-redux';
