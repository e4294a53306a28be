import { renderToStaticMarkup } from 'react-dom/server';
import { SELLER, SHOP_NAME } from '@dme/contracts';

/**
 * One message, as words: both its HTML and its plain-text body are rendered from this, so the two
 * always say the same. HTML is rendered by React (renderToStaticMarkup): every value is escaped
 * by React, none is pasted into markup by hand. Styles are inline, tables for layout: what mail
 * clients (Outlook, Gmail) render alike.
 */
export interface MessageContent {
  subject: string;
  /** "Hello Ana," */
  greeting: string;
  paragraphs: string[];
  /** Key facts, label and value (order number, amount, due date...). */
  facts?: Array<[string, string]>;
  /** The one thing to do, as a button (HTML) and a link (text). */
  action?: { label: string; url: string };
  /** Why the reader gets it, and how to stop (reminders: a one-click link). */
  footnote?: { text: string; link?: { label: string; url: string } };
}

const BRAND = '#1f6f5c';
const MUTED = '#667085';

function Facts({ facts }: { facts: Array<[string, string]> }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ borderCollapse: 'collapse', margin: '8px 0 16px', width: '100%' }}>
      <tbody>
        {facts.map(([label, value]) => (
          <tr key={label}>
            <td style={{ padding: '6px 12px 6px 0', color: MUTED, whiteSpace: 'nowrap', verticalAlign: 'top', borderBottom: '1px solid #eaecf0' }}>{label}</td>
            <td style={{ padding: '6px 0', fontWeight: 600, borderBottom: '1px solid #eaecf0' }}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Action({ label, url }: { label: string; url: string }) {
  return (
    <p style={{ margin: '20px 0' }}>
      <a href={url} style={{ background: BRAND, color: '#ffffff', padding: '10px 18px', borderRadius: 6, textDecoration: 'none', fontWeight: 600, display: 'inline-block' }}>
        {label}
      </a>
    </p>
  );
}

function Footer({ footnote }: Pick<MessageContent, 'footnote'>) {
  return (
    <td style={{ padding: '16px 24px', color: MUTED, fontSize: 12, lineHeight: '18px' }}>
      {footnote ? (
        <p style={{ margin: '0 0 8px' }}>
          {footnote.text} {footnote.link ? <a href={footnote.link.url} style={{ color: MUTED }}>{footnote.link.label}</a> : null}
        </p>
      ) : null}
      <p style={{ margin: 0 }}>
        {SELLER.name} · {SELLER.address}
        <br />
        {SELLER.email} · {SELLER.phone}
      </p>
    </td>
  );
}

function Message({ m }: { m: MessageContent }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width" />
        <title>{m.subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: '#f2f4f7', fontFamily: 'Arial, Helvetica, sans-serif', color: '#101828' }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0} style={{ background: '#f2f4f7', padding: '24px 0' }}>
          <tbody>
            <tr>
              <td align="center">
                <table role="presentation" width="600" cellPadding={0} cellSpacing={0} style={{ maxWidth: 600, width: '100%', background: '#ffffff', borderRadius: 8 }}>
                  <tbody>
                    <tr>
                      <td style={{ padding: '18px 24px', background: BRAND, borderRadius: '8px 8px 0 0', color: '#ffffff', fontSize: 20, fontWeight: 700 }}>{SHOP_NAME}</td>
                    </tr>
                    <tr>
                      <td style={{ padding: '24px', fontSize: 15, lineHeight: '22px' }}>
                        <p style={{ margin: '0 0 12px' }}>{m.greeting}</p>
                        {m.paragraphs.map((p, i) => (
                          <p key={i} style={{ margin: '0 0 12px' }}>{p}</p>
                        ))}
                        {m.facts?.length ? <Facts facts={m.facts} /> : null}
                        {m.action ? <Action {...m.action} /> : null}
                      </td>
                    </tr>
                    <tr>
                      <Footer footnote={m.footnote} />
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

export function renderHtml(m: MessageContent): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<Message m={m} />)}`;
}

export function renderText(m: MessageContent): string {
  const width = Math.max(0, ...(m.facts ?? []).map(([label]) => label.length));
  const parts = [
    m.greeting,
    ...m.paragraphs,
    ...(m.facts?.length ? [m.facts.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join('\n')] : []),
    ...(m.action ? [`${m.action.label}: ${m.action.url}`] : []),
    '—',
    ...(m.footnote ? [`${m.footnote.text}${m.footnote.link ? ` ${m.footnote.link.label}: ${m.footnote.link.url}` : ''}`] : []),
    `${SHOP_NAME} · ${SELLER.name}\n${SELLER.address}\n${SELLER.email} · ${SELLER.phone}`,
  ];
  return `${parts.join('\n\n')}\n`;
}

export function rendered(m: MessageContent): { subject: string; html: string; text: string } {
  return { subject: m.subject, html: renderHtml(m), text: renderText(m) };
}
