import { CYCLE_DAYS, EVENTS, formatBusinessDate, manilaDate, REFUND_METHOD_LABELS, MESSAGE_TEMPLATE, type MessageTemplate, type RentalReminder, formatMoneyString, fullPaymentDueInWords, SHOP_NAME, type EventData } from '@dme/contracts';
import type { MessageContent } from './render';

/**
 * What each message says (issue 24). One function per message; `template` names it in the message
 * outbox and the staff's Messages list (the names live in contracts: the screen filters by them).
 * Texts are ours (the spec has no e-mail).
 */
export const TEMPLATES = MESSAGE_TEMPLATE;
export type TemplateName = MessageTemplate;

export interface Recipient {
  id: string;
  email: string;
  firstName: string;
}

type Links = { publicUrl: string };

const hello = (r: Recipient) => `Hello ${r.firstName},`;
const ordersUrl = (l: Links, type: 'BUY' | 'RENT') => `${l.publicUrl}/orders/${type === 'RENT' ? 'rentals' : 'purchased'}`;
const orderAction = (l: Links, type: 'BUY' | 'RENT') => ({ label: 'View your orders', url: ordersUrl(l, type) });
const noun = (type: 'BUY' | 'RENT') => (type === 'RENT' ? 'rental' : 'order');

export function verifyEmail(r: Recipient, url: string, hours: number): MessageContent {
  return {
    subject: `Confirm your e-mail address for ${SHOP_NAME}`,
    greeting: hello(r),
    paragraphs: [
      `Please confirm that ${r.email} is your e-mail address, so that we can send you your orders, invoices and reminders.`,
      `The link works for ${hours} hours. If you did not create an account with ${SHOP_NAME}, you can ignore this e-mail.`,
    ],
    action: { label: 'Confirm my e-mail address', url },
  };
}

export function passwordReset(r: Recipient, url: string, minutes: number, username: string): MessageContent {
  return {
    subject: `Reset your ${SHOP_NAME} password`,
    greeting: hello(r),
    paragraphs: [
      `Someone (we hope you) asked to reset the password of your account ${username}.`,
      `The link below works once, for ${minutes} minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
    ],
    action: { label: 'Choose a new password', url },
  };
}

export function passwordChanged(r: Recipient, l: Links): MessageContent {
  return {
    subject: `Your ${SHOP_NAME} password was changed`,
    greeting: hello(r),
    paragraphs: [
      'The password of your account was just changed, and every device that was signed in was signed out.',
      `If this was not you, reset your password now and contact us at once.`,
    ],
    action: { label: 'Reset my password', url: `${l.publicUrl}/forgot-password` },
  };
}

type Placed = EventData<typeof EVENTS.order.placed>;

export function orderPlaced(r: Recipient, o: Placed, l: Links): MessageContent {
  const facts: Array<[string, string]> = [
    ['Order', o.orderNumber],
    ...o.lines.map((line): [string, string] => [
      `${line.quantity} × ${[line.productName, line.variantName, line.subVariantName].filter(Boolean).join(' — ')}`,
      `${formatMoneyString(line.lineTotal)}${line.noOfRentalDays ? ` (${line.noOfRentalDays} days)` : ''}`,
    ]),
    ['Total', formatMoneyString(o.totalAmount)],
  ];
  if (o.partialPayment) facts.push(['First payment (first day)', formatMoneyString(o.partialPayment)]);
  return {
    subject: `Your ${noun(o.type)} ${o.orderNumber} is placed`,
    greeting: hello(r),
    paragraphs: [
      `Thank you for your ${noun(o.type)}. We have it, and we will prepare it once your payment is taken.`,
      o.type === 'RENT'
        ? 'For a rental, the first payment is the first day of rent; the rest is due when the equipment comes back.'
        : 'We will e-mail you when your payment is received and again when your order is on its way.',
    ],
    facts,
    action: orderAction(l, o.type),
  };
}

type Paid = EventData<typeof EVENTS.payment.confirmed>;

export function paymentReceived(r: Recipient, p: Paid, l: Links): MessageContent {
  const facts: Array<[string, string]> = [
    ['Order', p.orderNumber],
    ['Amount received', formatMoneyString(p.amount)],
    ['Invoice', p.invoiceNumber],
    ['Receipt', p.receiptNumber],
  ];
  if (p.orderType === 'RENT' && p.type !== 'FULL' && !p.owned) facts.push(['Balance', formatMoneyString(p.balance)]);
  const next = p.owned
    ? 'The equipment is now yours: your rent-to-own rental is complete, and your deposit will be refunded.'
    : p.type === 'FULL' && p.orderType === 'RENT'
      ? 'Your rental is paid in full. Thank you for renting with us.'
      : p.type === 'CYCLE'
        ? `This pays cycle ${p.cycle ?? ''} of your rental (${CYCLE_DAYS} days); we will remind you when the next one is due.`
        : 'We are preparing your order now.';
  return {
    subject: `Payment received for ${p.orderNumber}`,
    greeting: hello(r),
    paragraphs: [`We received your payment of ${formatMoneyString(p.amount)}. Your invoice is attached.`, next],
    facts,
    action: orderAction(l, p.orderType),
  };
}

type StatusChanged = EventData<typeof EVENTS.order.statusChanged>;

/** The message a status change sends, if any: the moves a customer waits for. */
export function orderStatus(s: StatusChanged, l: Links): { template: TemplateName; content: (r: Recipient) => MessageContent } | null {
  const facts: Array<[string, string]> = [['Order', s.orderNumber]];
  const say = (template: TemplateName, subject: string, paragraph: string) => ({
    template,
    content: (r: Recipient): MessageContent => ({ subject, greeting: hello(r), paragraphs: [paragraph], facts, action: orderAction(l, s.type) }),
  });
  switch (s.to) {
    case 'OUT_FOR_DELIVERY':
      return say(TEMPLATES.orderOnTheWay, `${s.orderNumber} is on its way`, 'Our driver is on the way with your equipment. Please make sure someone can receive it.');
    case 'DELIVERED':
      return say(
        TEMPLATES.orderDelivered,
        `${s.orderNumber} was delivered`,
        s.type === 'RENT' ? 'Your equipment was delivered. Your rental days start today; we will remind you before it is due.' : 'Your order was delivered. Thank you for your purchase.',
      );
    case 'FOR_PICK_UP':
      return say(TEMPLATES.pickUp, `We will pick up ${s.orderNumber}`, 'Your rental is due, and our driver will come to pick up the equipment. Please have all of it ready.');
    case 'FOR_FULL_PAYMENT':
      return { template: TEMPLATES.fullPaymentDue, content: (r) => fullPaymentDue(r, s, l) };
    case 'CANCELLED':
      return say(TEMPLATES.orderCancelled, `${s.orderNumber} was cancelled`, `Your ${noun(s.type)} ${s.orderNumber} was cancelled.`);
    default:
      return null;
  }
}

function fullPaymentDue(r: Recipient, s: StatusChanged, l: Links): MessageContent {
  const facts: Array<[string, string]> = [['Order', s.orderNumber]];
  if (s.balance) facts.push(['Balance to pay', formatMoneyString(s.balance)]);
  if (s.extraCharge && s.extraCharge !== '0.00') facts.push(['Of which damage or loss charges', formatMoneyString(s.extraCharge)]);
  if (s.fullPaymentDue) facts.push(['Due', formatBusinessDate(s.fullPaymentDue)]);
  return {
    greeting: hello(r),
    action: orderAction(l, s.type),
    subject: `Full payment due for ${s.orderNumber}`,
    paragraphs: [`The equipment is back with us. Please pay the rest of your rental within ${fullPaymentDueInWords()}.`],
    facts,
  };
}

export function refundDue(r: Recipient, p: EventData<typeof EVENTS.payment.refundDue>, l: Links): MessageContent {
  return {
    subject: `A refund is due to you for ${p.orderNumber}`,
    greeting: hello(r),
    paragraphs: [`Your ${noun(p.orderType)} ${p.orderNumber} was cancelled after your payment was taken. We owe you ${formatMoneyString(p.amount)} and will contact you to return it.`],
    facts: [['Order', p.orderNumber], ['Refund', formatMoneyString(p.amount)]],
    action: orderAction(l, p.orderType),
  };
}

/** Issue 29: a refund paid back — the deposit's rest, or what was paid for an order cancelled meanwhile. */
export function refundPaid(r: Recipient, p: EventData<typeof EVENTS.payment.refundRecorded>, l: Links): MessageContent {
  const why = p.kind === 'DEPOSIT' ? `the rest of your deposit for ${p.orderNumber}` : `your payment for the cancelled order ${p.orderNumber}`;
  return {
    subject: `Refund ${p.number} paid back for ${p.orderNumber}`,
    greeting: hello(r),
    paragraphs: [`We have paid back ${formatMoneyString(p.amount)}, ${why}, by ${REFUND_METHOD_LABELS[p.method].toLowerCase()}.`],
    facts: [['Refund', p.number], ['Order', p.orderNumber], ['Amount', formatMoneyString(p.amount)], ['Paid back by', REFUND_METHOD_LABELS[p.method]], ['On', formatBusinessDate(manilaDate(new Date(p.refundedAt)))]],
    action: orderAction(l, p.orderType),
  };
}

type DaysChanged = EventData<typeof EVENTS.order.extended>;

/** The last due date of a rental's lines after a change of its days ('' without one). */
const lastDue = (x: DaysChanged) => x.lines.map((l) => l.dueDate).filter((d): d is string => d !== null).sort().at(-1) ?? '';

export function rentalExtended(r: Recipient, x: DaysChanged, l: Links): MessageContent {
  const due = lastDue(x);
  return {
    subject: `Your rental ${x.orderNumber} is extended`,
    greeting: hello(r),
    paragraphs: [
      `Your rental ${x.orderNumber} has ${x.days} more ${x.days === 1 ? 'day' : 'days'}${due ? `: it is due back on ${formatBusinessDate(due)}` : ''}. Its total is now ${formatMoneyString(x.totalAmount)}; what is left is asked when it is picked up.`,
    ],
    facts: [['Order', x.orderNumber], ...(due ? [['Due back', formatBusinessDate(due)] as [string, string]] : []), ['New total', formatMoneyString(x.totalAmount)]],
    action: orderAction(l, 'RENT'),
  };
}

export function rentalEndedEarly(r: Recipient, x: DaysChanged & { returnOn: string }, l: Links): MessageContent {
  return {
    subject: `Your rental ${x.orderNumber} ends early`,
    greeting: hello(r),
    paragraphs: [
      `As agreed, your rental ${x.orderNumber} ends on ${formatBusinessDate(x.returnOn)}: we will pick up the equipment then. You are charged up to that day, so its total is now ${formatMoneyString(x.totalAmount)}.`,
    ],
    facts: [['Order', x.orderNumber], ['Return day', formatBusinessDate(x.returnOn)], ['New total', formatMoneyString(x.totalAmount)]],
    action: orderAction(l, 'RENT'),
  };
}

type RecallOpened = EventData<typeof EVENTS.catalog.recallOpened>;

export function recallNotice(r: Recipient, x: RecallOpened, holder: RecallOpened['holders'][number], l: Links): MessageContent {
  return {
    subject: `A safety recall concerns your ${x.productName} (${holder.orderNumber})`,
    greeting: hello(r),
    paragraphs: [
      `The manufacturer has recalled some units of the ${x.productName}, and the one${holder.serialCodes.length === 1 ? '' : 's'} of your order ${holder.orderNumber} ${holder.serialCodes.length === 1 ? 'is' : 'are'} among them.`,
      holder.orderType === 'RENT'
        ? 'We will contact you to replace it or collect it at no cost to you. Until then, please follow the safety instructions that came with it.'
        : 'We will contact you about a replacement or a repair. Until then, please follow the safety instructions that came with it.',
    ],
    facts: [['Order', holder.orderNumber], ['Recall', `${x.number}: ${x.title}`], ['Serial code', holder.serialCodes.join(', ')]],
    action: orderAction(l, holder.orderType),
  };
}

const REQUEST_STATUS_WORDS = { PENDING: 'received', ON_PROGRESS: 'in progress', DONE: 'done' } as const;

export function requestChanged(r: Recipient, q: EventData<typeof EVENTS.request.changed>, l: Links): MessageContent {
  const what = q.type === 'FIX' ? 'fix' : 'replacement';
  return {
    subject: `Your ${what} request for ${q.orderNumber} is ${REQUEST_STATUS_WORDS[q.status]}`,
    greeting: hello(r),
    paragraphs: [`Your request for a ${what} on ${q.orderNumber} is ${REQUEST_STATUS_WORDS[q.status]}.`],
    facts: [['Order', q.orderNumber], ['Request', `${q.type} — ${q.status.replace('_', ' ')}`]],
    action: orderAction(l, 'RENT'),
  };
}

type Reminder = EventData<typeof EVENTS.rental.reminderDue>;

export const REMINDER_TEMPLATE: Record<RentalReminder, TemplateName> = {
  DUE_TOMORROW: TEMPLATES.reminderDueTomorrow,
  DUE_TODAY: TEMPLATES.reminderDueToday,
  OVERDUE: TEMPLATES.reminderOverdue,
  FULL_PAYMENT_DUE: TEMPLATES.reminderFullPayment,
  CYCLE_DUE: TEMPLATES.reminderCycleDue,
};

function reminderWords(m: Reminder): { subject: string; paragraph: string } {
  const due = formatBusinessDate(m.dueDate);
  switch (m.kind) {
    case 'DUE_TOMORROW':
      return { subject: `Reminder: your rental ${m.orderNumber} is due tomorrow`, paragraph: `Some of the equipment of ${m.orderNumber} is due back tomorrow, ${due}. We will contact you to pick it up; to keep it longer, please call us.` };
    case 'DUE_TODAY':
      return { subject: `Your rental ${m.orderNumber} is due today`, paragraph: `Some of the equipment of ${m.orderNumber} is due back today, ${due}. Please have it ready for pick-up.` };
    case 'OVERDUE':
      return { subject: `Your rental ${m.orderNumber} is overdue`, paragraph: `Some of the equipment of ${m.orderNumber} was due back on ${due}. Please contact us to arrange its return.` };
    case 'FULL_PAYMENT_DUE':
      return { subject: `Your full payment for ${m.orderNumber} is due`, paragraph: `The full payment of your rental ${m.orderNumber} is due ${m.dueDate === m.day ? 'today' : `since ${due}`}. Please pay the balance shown in your order.` };
    case 'CYCLE_DUE': {
      const c = m.cycle;
      const span = c ? ` (${formatBusinessDate(c.from)} to ${formatBusinessDate(c.to)})` : '';
      const amount = c ? `: ${formatMoneyString(c.amount)}` : '';
      return {
        subject: `Cycle ${c?.n ?? ''} of your rental ${m.orderNumber} is due`,
        paragraph: `Cycle ${c?.n ?? ''} of your rental ${m.orderNumber}${span} is due ${m.dueDate === m.day ? 'today' : `since ${due}`}${amount}. Please pay it so your rental continues.`,
      };
    }
  }
}

/** A rental reminder, with the one-click link that turns reminders off. */
export function rentalReminderMessage(r: Recipient, m: Reminder, l: Links & { unsubscribeUrl: string }): MessageContent {
  const words = reminderWords(m);
  return {
    subject: words.subject,
    greeting: hello(r),
    paragraphs: [words.paragraph],
    facts: [
      ['Order', m.orderNumber],
      [m.kind === 'FULL_PAYMENT_DUE' || m.kind === 'CYCLE_DUE' ? 'Payment due' : 'Due', formatBusinessDate(m.dueDate)],
      ...(m.cycle ? [['Amount', formatMoneyString(m.cycle.amount)] as [string, string]] : []),
    ],
    action: orderAction(l, 'RENT'),
    footnote: { text: 'You get reminders about your rentals. Order and payment e-mails come whatever you choose.', link: { label: 'Stop reminders', url: l.unsubscribeUrl } },
  };
}
