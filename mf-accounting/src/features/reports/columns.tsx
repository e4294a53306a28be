import type { TableColumnsType as ColumnsType } from 'antd';
import { AGEING_BUCKETS } from '@dme/contracts/browser';
import type { ReportName } from '@dme/contracts';
import { StatusTag } from '@dme/ui';
import { formatDay, money } from './format';

/** A row of any report, keyed for the table. */
export type ReportRow = Record<string, unknown> & { key: number };

const text = (title: string, dataIndex: string): ColumnsType<ReportRow>[number] => ({
  title,
  dataIndex,
  render: (v: unknown) => (typeof v === 'string' && v ? v : '—'),
});
const amount = (title: string, dataIndex: string): ColumnsType<ReportRow>[number] => ({
  title,
  dataIndex,
  align: 'right',
  render: (v: unknown) => <span style={{ whiteSpace: 'nowrap' }}>{money(typeof v === 'string' ? v : null)}</span>,
});
const count = (title: string, dataIndex: string): ColumnsType<ReportRow>[number] => ({
  title,
  dataIndex,
  align: 'right',
  render: (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : '—'),
});
const day = (title: string, dataIndex: string): ColumnsType<ReportRow>[number] => ({
  title,
  dataIndex,
  render: (v: unknown) => <span style={{ whiteSpace: 'nowrap' }}>{formatDay(typeof v === 'string' ? v : null)}</span>,
});

/**
 * The columns of each report: SPEC §3 names for the sales rows; the invoice reports show what a
 * bookkeeper reads (numbers, order, customer, dates, amounts, balance). Money is right-aligned.
 */
export const REPORT_COLUMNS: Record<ReportName, ColumnsType<ReportRow>> = {
  'purchased-sales': [
    text('Brand', 'brand'),
    text('Name', 'name'),
    count('Total Quantity', 'totalQuantity'),
    amount('Product Amount', 'productAmount'),
    amount('Total Sales', 'totalSales'),
  ],
  'rental-sales': [
    text('Brand', 'brand'),
    text('Name', 'name'),
    count('Total Quantity', 'totalQuantity'),
    amount('Product Amount', 'productAmount'),
    count('Total Rental Days', 'totalRentalDays'),
    amount('Total Amount', 'totalAmount'),
    amount('Total Partial Payments', 'totalPartialPayments'),
    amount('Total Balance', 'totalBalance'),
  ],
  'purchased-invoice': [
    text('Invoice Number', 'invoiceNumber'),
    text('Receipt Number', 'receiptNumber'),
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Paid On', 'paidOn'),
    amount('Amount', 'amount'),
  ],
  'rental-unpaid-invoice': [
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Asked On', 'askedOn'),
    day('Due Date', 'dueDate'),
    amount('Order Total', 'orderTotal'),
    amount('Partial Payment', 'partialPayment'),
    amount('Extra Charge', 'extraCharge'),
    amount('Balance', 'balance'),
  ],
  'rental-partial-invoice': [
    text('Invoice Number', 'invoiceNumber'),
    text('Receipt Number', 'receiptNumber'),
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Paid On', 'paidOn'),
    amount('Order Total', 'orderTotal'),
    amount('Partial Payment', 'partialPayment'),
    amount('Balance', 'balance'),
    {
      title: 'Payment Status',
      dataIndex: 'paymentStatus',
      render: (v: unknown) => (typeof v === 'string' && v ? <StatusTag kind="payment" status={v} /> : '—'),
    },
  ],
  'deposits-held': [
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Taken On', 'takenOn'),
    amount('Deposit', 'deposit'),
    amount('Applied to Charges', 'applied'),
    amount('Refund', 'refund'),
    amount('Held', 'held'),
  ],
  'late-fees': [
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Settled On', 'settledOn'),
    amount('Late Fees', 'lateFees'),
    amount('Waived', 'waived'),
    amount('Charged', 'charged'),
  ],
  refunds: [
    text('Refund Number', 'refundNumber'),
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    text('Reason', 'reason'),
    text('Method', 'method'),
    day('Refunded On', 'refundedOn'),
    amount('Amount', 'amount'),
  ],
  'receivables-ageing': [
    text('Order Number', 'orderNumber'),
    text('Customer', 'customerName'),
    day('Asked On', 'askedOn'),
    day('Due Date', 'dueDate'),
    count('Days Overdue', 'daysOverdue'),
    ...AGEING_BUCKETS.map((b) => amount(b.header, b.key)),
    amount('Balance', 'balance'),
  ],
};

/** The chart titles of each report: money per day and its top rows. */
export const CHART_TITLES: Record<ReportName, { byDay: string; top: string }> = {
  'purchased-sales': { byDay: 'Sales per day', top: 'Top products' },
  'rental-sales': { byDay: 'Rental sales per day', top: 'Top products' },
  'purchased-invoice': { byDay: 'Invoiced per day', top: 'Largest invoices' },
  'rental-unpaid-invoice': { byDay: 'Unpaid balance per day asked', top: 'Largest unpaid balances' },
  'rental-partial-invoice': { byDay: 'Partial payments per day', top: 'Largest partial invoices' },
  'deposits-held': { byDay: 'Deposits held per day taken', top: 'Largest deposits held' },
  'late-fees': { byDay: 'Late fees charged per day', top: 'Largest late fees charged' },
  refunds: { byDay: 'Refunds per day', top: 'Largest refunds' },
  'receivables-ageing': { byDay: 'Receivables per day asked', top: 'Largest receivables' },
};
