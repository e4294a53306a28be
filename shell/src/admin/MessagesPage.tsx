import { useState } from 'react';
import { Button, Select, Space } from 'antd';
import { formatManilaDateTime, MESSAGE_STATUSES, messageInFlight, MESSAGE_TEMPLATES, OUTBOX_MESSAGES, type MessageStatus, type MessageSummary } from '@dme/contracts';
import { errorMessage, listBusy } from '@dme/api-client';
import { EmptyState, ErrorState, PageHeader, ResponsiveTable, SearchBox } from '@dme/ui';
import { useMessagesQuery } from '../api';
import { IN_FLIGHT_POLL_MS, MessageDrawer, MessageStatusTag } from './MessageDrawer';
import { ResendMessageButton } from './ResendMessageButton';

const PAGE = 20;

const when = (iso: string | null) => (iso ? formatManilaDateTime(iso) : '—');

const COLUMNS = [
  { title: 'Queued', dataIndex: 'createdAt', render: when },
  { title: 'Recipient', dataIndex: 'recipient' },
  { title: 'Subject', dataIndex: 'subject' },
  { title: 'Template', dataIndex: 'template' },
  { title: 'Status', dataIndex: 'status', render: (s: string) => <MessageStatusTag status={s} /> },
  { title: 'Attempts', dataIndex: 'attempts', align: 'right' as const },
  { title: 'Sent', dataIndex: 'sentAt', render: when },
  { title: 'Action', key: 'action', render: (_: unknown, m: MessageSummary) => <ResendMessageButton message={m} /> },
];

/** Every e-mail the shop sent (issue 24): whether it was delivered, what it said; a failed one can be sent again. */
export function MessagesPage() {
  const [status, setStatus] = useState<MessageStatus>();
  const [template, setTemplate] = useState<string>();
  const [search, setSearch] = useState('');
  const [text, setText] = useState('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const args = { limit: PAGE, offset: (page - 1) * PAGE, ...(status ? { status } : {}), ...(template ? { template } : {}), ...(search ? { search } : {}) };
  const list = useMessagesQuery(args);
  const { data, error, refetch } = list;
  // While a listed message is still with the relay, the list asks again, so its row ends SENT or FAILED.
  const inFlight = (data?.items ?? []).some((m) => messageInFlight(m.status));
  useMessagesQuery(args, { skip: !inFlight, pollingInterval: IN_FLIGHT_POLL_MS });
  const filtered = Boolean(status || template || search);
  const filter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  return (
    <section>
      <PageHeader
        title="Messages"
        extra={
          <Space wrap>
            <Select<MessageStatus>
              aria-label="Status"
              placeholder="Any status"
              allowClear
              style={{ width: 150 }}
              value={status}
              onChange={filter(setStatus)}
              options={MESSAGE_STATUSES.map((s) => ({ value: s, label: s }))}
            />
            <Select<string>
              aria-label="Template"
              placeholder="Any template"
              allowClear
              style={{ width: 220 }}
              // A few short names: all in the page (a virtual list renders only the visible ones).
              virtual={false}
              value={template}
              onChange={filter(setTemplate)}
              options={MESSAGE_TEMPLATES.map((t) => ({ value: t, label: t }))}
            />
            <SearchBox label="Search messages" placeholder="Recipient or subject" value={text} onChange={setText} onSearch={(v) => filter(setSearch)(v.trim())} width={260} />
            <Button onClick={() => void refetch()}>Refresh</Button>
          </Space>
        }
      />
      {error ? (
        <ErrorState message={errorMessage(error)} onRetry={refetch} />
      ) : (
        <ResponsiveTable<MessageSummary>
          rowKey="id"
          loading={listBusy(list)}
          dataSource={data?.items ?? []}
          locale={{ emptyText: <EmptyState description={filtered ? 'No messages match these filters.' : OUTBOX_MESSAGES.empty} /> }}
          pagination={{ current: page, pageSize: PAGE, total: data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
          scroll={{ x: true }}
          onRow={(m) => ({ onClick: () => setOpen(m.id), style: { cursor: 'pointer' } })}
          columns={COLUMNS}
        />
      )}
      <MessageDrawer id={open} onClose={() => setOpen(undefined)} />
    </section>
  );
}
