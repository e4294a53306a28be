import { Button, Result } from 'antd';

export function ErrorState({ title = 'Something went wrong', message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <Result
      status="error"
      title={title}
      subTitle={message}
      extra={onRetry ? <Button type="primary" onClick={onRetry}>Retry</Button> : undefined}
    />
  );
}

/** A whole-page result's title is the screen's one h1 (antd renders a Result title as a div). */
const pageTitle = (text: string) => <h1 style={{ margin: 0, font: 'inherit', color: 'inherit' }}>{text}</h1>;

export function NotAvailable() {
  return <Result status="403" title={pageTitle('Not available')} subTitle="This page is not available for your account." />;
}

export function PageNotFound() {
  return <Result status="404" title={pageTitle('Page not found')} subTitle="There is no page at this address." />;
}

export function InfoResult({ title, subTitle }: { title: string; subTitle?: string }) {
  return <Result status="info" title={title} subTitle={subTitle} />;
}
