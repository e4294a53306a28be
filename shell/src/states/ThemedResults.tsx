import { ErrorState, InfoResult, NotAvailable, ThemeProvider } from '@dme/ui';

/* Result screens the shell shows outside any antd screen, each with the theme. A lazy chunk. */

export function NotAvailablePage() {
  return (
    <ThemeProvider>
      <NotAvailable />
    </ThemeProvider>
  );
}

export function NoRoutesPage() {
  return (
    <ThemeProvider>
      <InfoResult title="No pages are available for your account yet." subTitle="Please contact your administrator." />
    </ThemeProvider>
  );
}

export function RemoteErrorPage({ onRetry }: { onRetry: () => void }) {
  return (
    <ThemeProvider>
      <ErrorState title="This page could not be loaded" message="Check your connection and try again." onRetry={onRetry} />
    </ThemeProvider>
  );
}
