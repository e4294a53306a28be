import { Descriptions, Drawer, Space, Spin, Tag, Typography } from 'antd';
import { formatManilaDateTime, messageInFlight, messageStatusColor, type MessageDetail } from '@dme/contracts';
import { errorMessage } from '@dme/api-client';
import { ErrorState } from '@dme/ui';
import { useMessageQuery } from '../api';
import { ResendMessageButton } from './ResendMessageButton';

/**
 * While the relay still has a message, the screens showing it (the drawer, the Messages list) ask
 * again this often, so "Send again" and a queued row end in SENT or FAILED on screen.
 */
export const IN_FLIGHT_POLL_MS = 2000;

export function MessageStatusTag({ status }: { status: string }) {
  return <Tag color={messageStatusColor(status)}>{status}</Tag>;
}

const kb = (size: number) => (size < 1024 ? `${size} B` : `${(size / 1024).toFixed(1)} KB`);

function MessageHeaders({ m }: { m: MessageDetail }) {
  return (
    <Descriptions
      column={1}
      size="small"
      bordered
      items={[
        { key: 'to', label: 'To', children: m.recipient },
        { key: 'subject', label: 'Subject', children: m.subject },
        { key: 'status', label: 'Status', children: <MessageStatusTag status={m.status} /> },
        { key: 'template', label: 'Template', children: m.template },
        { key: 'queued', label: 'Queued', children: formatManilaDateTime(m.createdAt) },
        { key: 'sent', label: 'Sent', children: m.sentAt ? formatManilaDateTime(m.sentAt) : '—' },
        { key: 'attempts', label: 'Attempts', children: m.attempts },
        { key: 'answer', label: 'Last SMTP answer', children: m.lastError ?? '—' },
        { key: 'mid', label: 'Message-ID', children: <Typography.Text copyable={{ text: m.messageId }}>{m.messageId}</Typography.Text> },
        {
          key: 'files',
          label: 'Attachments',
          children: m.attachments.length ? m.attachments.map((a) => `${a.filename} (${kb(a.size)})`).join(', ') : 'None',
        },
      ]}
    />
  );
}

/** One message: its headers, its HTML as the customer sees it (in a sandbox: no script, no same origin), its text. */
function MessageBody({ m }: { m: MessageDetail }) {
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <MessageHeaders m={m} />
      <Typography.Title level={5}>HTML</Typography.Title>
      <iframe title="Message content" sandbox="" srcDoc={m.html} style={{ width: '100%', height: 420, border: '1px solid #f0f0f0', background: '#fff' }} />
      <Typography.Title level={5}>Text</Typography.Title>
      <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0, padding: 12, background: '#fafafa', border: '1px solid #f0f0f0' }}>{m.text}</pre>
    </Space>
  );
}

export function MessageDrawer({ id, onClose }: { id: string | undefined; onClose: () => void }) {
  const { data, error, isLoading, refetch } = useMessageQuery(id ?? '', { skip: !id });
  const m = data?.message;
  const inFlight = m !== undefined && messageInFlight(m.status);
  useMessageQuery(id ?? '', { skip: !id || !inFlight, pollingInterval: IN_FLIGHT_POLL_MS });
  return (
    <Drawer
      open={Boolean(id)}
      onClose={onClose}
      width={720}
      title={m?.subject ?? 'Message'}
      destroyOnHidden
      extra={m && <ResendMessageButton message={m} size="middle" />}
    >
      {error ? (
        <ErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : isLoading || !m ? (
        <Spin aria-label="Loading" />
      ) : (
        <MessageBody m={m} />
      )}
    </Drawer>
  );
}
