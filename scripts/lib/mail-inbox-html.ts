/**
 * The mail catcher's pages (scripts/lib/mail-catcher.ts): plain server-rendered HTML, no script.
 * Every value from a message is escaped; a message's HTML body is shown only inside a sandboxed
 * iframe (no scripts, an origin of its own), so a message cannot act on the inbox.
 */
import type { CaughtMail } from './mail-catcher';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and (double- or single-quoted) attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

const TITLE = 'DME Supply — mail inbox';

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 24px 0 8px; }
p.note { color: #59636e; margin: 0 0 16px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d1d9e0; vertical-align: top; }
th { background: #f6f8fa; } tr:hover td { background: #f6f8fa; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; } dt { font-weight: 600; } dd { margin: 0; }
iframe { width: 100%; height: 480px; border: 1px solid #d1d9e0; }
pre { white-space: pre-wrap; background: #f6f8fa; padding: 12px; border: 1px solid #d1d9e0; }
`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;
}

/** A timestamp people read (UTC, to the second), with the exact value in `datetime`. */
function when(iso: string): string {
  if (!iso) return '';
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace('T', ' ').slice(0, 19))} UTC</time>`;
}

/** The inbox: newest first (the caller orders them), each row linking to its message. */
export function inboxPage(messages: readonly CaughtMail[]): string {
  const intro = `<h1>${escapeHtml(TITLE)}</h1>\n<p class="note">Every e-mail the shop sends while it runs here, kept in memory (the last 500).</p>`;
  if (messages.length === 0) return layout(TITLE, `${intro}\n<p>No messages yet. E-mails the shop sends appear here.</p>`);
  const rows = messages.map((m) => {
    const link = `/messages/${encodeURIComponent(m.id)}`;
    const files = m.attachments.map((a) => escapeHtml(a.filename || 'attachment')).join(', ');
    return `<tr><td>${when(m.receivedAt)}</td><td>${escapeHtml(m.envelopeTo.join(', ') || m.to)}</td><td><a href="${link}">${escapeHtml(m.subject || '(no subject)')}</a></td><td>${files}</td></tr>`;
  });
  return layout(
    TITLE,
    `${intro}
<table>
<thead><tr><th>Received</th><th>To</th><th>Subject</th><th>Attachments</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>`,
  );
}

/** One message: its headers, HTML body (sandboxed), text body and attachment links. */
export function messagePage(m: CaughtMail): string {
  const headers: Array<[string, string]> = [
    ['From', escapeHtml(m.from)],
    ['To', escapeHtml(m.to)],
    ['Envelope to', escapeHtml(m.envelopeTo.join(', '))],
    ['Subject', escapeHtml(m.subject)],
    ['Date', m.date ? when(m.date) : ''],
    ['Received', when(m.receivedAt)],
    ['Message-ID', escapeHtml(m.messageId)],
  ];
  const files = m.attachments.map(
    (a, i) => `<li><a href="/messages/${encodeURIComponent(m.id)}/attachments/${i}">${escapeHtml(a.filename || 'attachment')}</a> (${escapeHtml(a.contentType)}, ${a.content.length} bytes)</li>`,
  );
  const parts = [
    `<p><a href="/">← Inbox</a></p>`,
    `<h1>${escapeHtml(m.subject || '(no subject)')}</h1>`,
    `<dl>${headers.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`,
    // `sandbox` with no allowances: no scripts, no forms, no top navigation, an opaque origin.
    m.html ? `<h2>HTML body</h2>\n<iframe sandbox srcdoc="${escapeHtml(m.html)}" title="HTML body"></iframe>` : '',
    `<h2>Text body</h2>\n<pre>${escapeHtml(m.text) || '(none)'}</pre>`,
    files.length ? `<h2>Attachments</h2>\n<ul>${files.join('')}</ul>` : '',
  ];
  return layout(`${m.subject || '(no subject)'} — ${TITLE}`, parts.filter(Boolean).join('\n'));
}

export function notFoundPage(): string {
  return layout(`Not found — ${TITLE}`, `<h1>Not found</h1>\n<p><a href="/">Back to the inbox</a></p>`);
}
