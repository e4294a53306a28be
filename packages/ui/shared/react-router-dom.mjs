/*
 * What the browser apps use of react-router-dom, and nothing else. rspack.base.mjs shares THIS
 * module as `react-router-dom` (a federation singleton): a shared package ships whole (STACK P9),
 * and react-router 7 whole is ~60 KB gzip of data routers, server rendering, cookies and sessions
 * the apps never call; re-exported from here, the rest is tree-shaken away (~17 KB gzip left).
 * The build fails with a clear message if an app imports a name missing here: add it.
 */
export { BrowserRouter, Link, Navigate, Outlet, Route, Routes, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
