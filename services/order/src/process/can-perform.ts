import { findTransition, hasPermission, ORDER_MESSAGES, ORDER_TRANSITIONS, type OrderStatus, type Transition } from '@dme/contracts';
import { EFFECTS } from './effects';
import { no, YES, type Caller, type OrderFacts, type TransitionInput, type Verdict } from './facts';
import { GUARDS } from './guards';

export interface ProcessContext {
  order: OrderFacts;
  caller: Caller;
  /** The request's input; undefined when only asking which actions the order offers now. */
  input: TransitionInput | undefined;
  now: Date;
}

/** Texts of the process where the spec is silent. */
export const PROCESS_MESSAGES = {
  byPaymentOnly: 'This step happens when the payment is confirmed.',
  notAllowed: 'You are not allowed to do this.',
  notAvailable: 'This step of the order process is not available yet.',
  illegal: (from: OrderStatus, to: OrderStatus) => `An order in ${from} cannot move to ${to}.`,
} as const;

/** Whether the row's `who` is this caller: a permission, the owner or staff, or an event. */
function actorMayRun(row: Transition, order: OrderFacts, caller: Caller): Verdict {
  const who = row.who;
  if (who.kind === 'event') {
    if (caller.kind === 'event' && caller.event === who.event) return YES;
    return no(403, who.event.startsWith('dme.payment.') ? PROCESS_MESSAGES.byPaymentOnly : PROCESS_MESSAGES.notAllowed);
  }
  if (caller.kind !== 'person') return no(403, PROCESS_MESSAGES.notAllowed);
  const p = caller.principal;
  const allowed =
    who.kind === 'owner-or-staff' ? p.userId === order.customerId || hasPermission(p.userType, 'order:process') : hasPermission(p.userType, who.permission);
  return allowed ? YES : no(403, PROCESS_MESSAGES.notAllowed);
}

/**
 * The one decision of the process (DESIGN §6): may this caller take this row of the table for this
 * order now? The row must apply to the order (its type and current status), the caller must be
 * who the row names (a permission, the owner or staff, or an event: else 403), its guard must
 * hold (a guard's own answer, mostly 409), and its effect must be one this service carries out.
 * Used both to run a transition and to list the actions an order offers (`input` undefined).
 */
export function canPerform(row: Transition, ctx: ProcessContext): Verdict {
  const { order, caller } = ctx;
  if (row.from !== order.status || !row.types.includes(order.type)) return no(409, PROCESS_MESSAGES.illegal(order.status, row.to));
  const actor = actorMayRun(row, order, caller);
  if (!actor.ok) return actor;
  if (row.guard) {
    const verdict = GUARDS[row.guard](ctx);
    if (!verdict.ok) return verdict;
  }
  if (row.effect && typeof EFFECTS[row.effect] !== 'function') return no(409, PROCESS_MESSAGES.notAvailable);
  return YES;
}

/** A decision on a move: the row of the table to take, or the problem to answer. */
export type Decision = { ok: true; row: Transition } | Extract<Verdict, { ok: false }>;

/** The row for a move to `to`, if canPerform accepts it (409 when the table has no such row). */
export function decide(ctx: ProcessContext, to: OrderStatus): Decision {
  const row = findTransition(ctx.order.type, ctx.order.status, to);
  if (!row) return { ok: false, status: 409, message: to === 'CANCELLED' ? ORDER_MESSAGES.cannotCancel : PROCESS_MESSAGES.illegal(ctx.order.status, to) };
  const verdict = canPerform(row, ctx);
  return verdict.ok ? { ok: true, row } : verdict;
}

/**
 * The statuses this caller can move the order to now: only the rows canPerform accepts without
 * the request's input (a guard that needs it, like packing's all-lines-scanned, checks what it can).
 */
export function allowedTransitions(order: OrderFacts, caller: Caller, now = new Date()): OrderStatus[] {
  return ORDER_TRANSITIONS.filter((row) => row.from === order.status && row.types.includes(order.type))
    .filter((row) => canPerform(row, { order, caller, input: undefined, now }).ok)
    .map((row) => row.to);
}
