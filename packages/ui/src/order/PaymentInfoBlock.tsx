import type { CSSProperties, ReactNode } from 'react';
import { Descriptions, type DescriptionsProps } from 'antd';
import { SectionTitle } from '../SectionTitle';

/** One row of the block; rows given as false (not shown in this state) are left out. */
export interface PaymentInfoRow {
  label: string;
  value: ReactNode;
}

export interface PaymentInfoBlockProps {
  /** The section's title (and its accessible name). */
  title?: string;
  rows: ReadonlyArray<PaymentInfoRow | false | null | undefined>;
  /** Shown above the amounts (an alert). */
  notice?: ReactNode;
  column?: DescriptionsProps['column'];
  style?: CSSProperties;
  /** Shown below the amounts (the payment records). */
  children?: ReactNode;
}

/**
 * An order's payment information: its status and amounts as label/value rows, with what each
 * screen adds above (a notice) or below (records). Each screen decides which rows it shows.
 */
export function PaymentInfoBlock({ title = 'Payment Information', rows, notice, column = 1, style, children }: PaymentInfoBlockProps) {
  const shown = rows.filter((r): r is PaymentInfoRow => Boolean(r));
  return (
    <section aria-label={title}>
      <SectionTitle>{title}</SectionTitle>
      {notice}
      <Descriptions column={column} size="small" bordered style={style}>
        {shown.map((r) => (
          <Descriptions.Item key={r.label} label={r.label}>
            {r.value}
          </Descriptions.Item>
        ))}
      </Descriptions>
      {children}
    </section>
  );
}
