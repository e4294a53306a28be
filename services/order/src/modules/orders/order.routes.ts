import { PROBLEM_CONTENT_TYPE } from '@dme/contracts';
import type { HandlersOf } from '@dme/platform';
import { em } from '../cart/cart.routes';
import { getOrder, listMyOrders, placeOrder, type Rpc } from './order.service';
import { transition } from '../../process/transitions';

type OrderHandlers = Pick<HandlersOf<'order'>, 'ordersPlace' | 'myOrdersList' | 'myOrdersGet' | 'ordersTransition'>;

export function orderHandlers(rpc: Rpc, afterCommit: () => void): OrderHandlers {
  return {
    async ordersPlace(ctx, { body, principal }) {
      const stored = await placeOrder(em(ctx), rpc, principal, ctx.get('idempotency-key') || undefined, body);
      afterCommit();
      ctx.status = stored.status;
      if (stored.status >= 400) ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = stored.body;
      return undefined;
    },
    myOrdersList: (ctx, { query, principal }) =>
      listMyOrders(em(ctx), principal.userId, {
        ...(query.type ? { type: query.type } : {}),
        ...(query.status ? { status: query.status } : {}),
        limit: query.limit,
        offset: query.offset,
      }),
    myOrdersGet: async (ctx, { params, principal }) => ({ order: await getOrder(em(ctx), params.id, principal, { customerId: principal.userId }) }),
    async ordersTransition(ctx, { params, body, principal }) {
      const order = await transition(em(ctx), params.id, body.to, principal);
      afterCommit();
      return { order };
    },
  };
}
