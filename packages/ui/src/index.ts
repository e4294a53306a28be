export { ThemeProvider, theme } from './theme';
export { Loading, ErrorState, EmptyState, NotAvailable, PageNotFound } from './states';
export { PageHeader } from './PageHeader';
export { StatusTag } from './StatusTag';
export { Money } from './Money';
export type { RemoteAppProps } from './remote';
