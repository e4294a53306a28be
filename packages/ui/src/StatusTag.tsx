import { Tag } from 'antd';
import { orderStatusColor, paymentStatusColor, requestStatusColor, stockStatusColor, userStatusColor } from '@dme/contracts';

const COLOR = {
  order: orderStatusColor,
  stock: stockStatusColor,
  request: requestStatusColor,
  payment: paymentStatusColor,
  user: userStatusColor,
} as const;

/** A status shown as a coloured tag (SPEC §4). */
export function StatusTag({ kind, status }: { kind: keyof typeof COLOR; status: string }) {
  return <Tag color={COLOR[kind](status)}>{status.replace(/_/g, ' ')}</Tag>;
}
