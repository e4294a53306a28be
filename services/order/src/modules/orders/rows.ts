import { centsToString, toCents, type Order, type OrderStatus, type OrderSummary, type OrderType } from '@dme/contracts';

/** Money as the API shows it ("123.45"), from a numeric column read as text. */
export const money = (v: string | number) => centsToString(toCents(String(v)));
export const moneyOrNull = (v: string | number | null) => (v === null ? null : money(v));

/** A row of ordering.orders (numeric columns arrive as strings). */
export interface OrderRow {
  id: string;
  order_number: string;
  customer_id: string;
  type: OrderType;
  type_of_order: 'BULK' | null;
  status: OrderStatus;
  total_amount: string;
  partial_payment: string | null;
  delivery_address: string;
  delivery_city: string;
  delivery_state: string;
  delivery_zipcode: string;
  note: string;
  created_at: string;
  updated_at: string;
  /** First and last name from the customers read model (joined in). */
  customer_name?: string | null;
  customer_number?: string | null;
}

/** An order as lists show it. */
export function summary(r: OrderRow): OrderSummary {
  return {
    id: r.id,
    orderNumber: r.order_number,
    createdAt: new Date(r.created_at).toISOString(),
    status: r.status,
    type: r.type,
    typeOfOrder: r.type_of_order,
    totalAmount: money(r.total_amount),
    customerID: r.customer_id,
    customerName: r.customer_name ?? '',
    ...(r.customer_number ? { customerNumber: r.customer_number } : {}),
  };
}

/** The customer as the order shows them, from the order service's read model. */
export function customerOf(row: Record<string, string> | null): Order['customer'] {
  return row
    ? {
        idNumber: row.id_number!,
        firstName: row.first_name!,
        middleName: row.middle_name!,
        lastName: row.last_name!,
        suffix: row.suffix!,
        email: row.email!,
        contactNumber: row.contact_number!,
      }
    : null;
}
