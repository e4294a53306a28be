import type { EntityManager } from '@mikro-orm/postgresql';
import { LATE_FEE_MESSAGES, manilaDate, toCents, type LateFeeWaiverRequest, type Order } from '@dme/contracts';
import { HttpProblem, personName, qualified, type Principal, newId } from '@dme/platform';
import { lateFeesOf } from '../../process/facts';
import { getOrder, lateFeesWaivable, lockOrder } from '../orders/read';

/**
 * Staff waive all or part of a rental's late fees (issue 29), with a reason kept with who and
 * when: only while the late fees are still counted (out, for return, being picked up; the full
 * payment fixes them), and never more than what is charged so far and not waived yet. The order
 * row is locked, so two waivers at once cannot together pass the late fees.
 */
export async function waiveLateFees(em: EntityManager, orderId: string, body: LateFeeWaiverRequest, who: Principal): Promise<Order> {
  await em.transactional(async (tem) => {
    const order = await lockOrder(tem, { id: orderId });
    if (order.type !== 'RENT' || !lateFeesWaivable(order.status)) throw new HttpProblem(409, LATE_FEE_MESSAGES.notNow);
    const left = lateFeesOf(order, manilaDate()).cents - toCents(order.lateFeesWaived ?? '0');
    const amount = toCents(String(body.amount));
    if (amount > left) throw new HttpProblem(400, LATE_FEE_MESSAGES.tooMuch, [{ field: 'amount', message: LATE_FEE_MESSAGES.tooMuch }]);
    await tem.execute(`insert into ${qualified(tem, 'order_late_fee_waivers')} (id, order_id, amount, reason, by_id, by_name) values (?, ?, ?, ?, ?, ?)`, [
      newId(),
      orderId,
      String(body.amount),
      body.reason,
      who.userId,
      personName(who),
    ]);
  });
  return getOrder(em, orderId, who, {});
}
