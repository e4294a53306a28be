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

export function NotAvailable() {
  return <Result status="403" title="Not available" subTitle="This page is not available for your account." />;
}

export function PageNotFound() {
  return <Result status="404" title="Page not found" subTitle="There is no page at this address." />;
}

export function InfoResult({ title, subTitle }: { title: string; subTitle?: string }) {
  return <Result status="info" title={title} subTitle={subTitle} />;
}
