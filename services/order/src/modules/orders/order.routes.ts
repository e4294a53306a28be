import { PROBLEM_CONTENT_TYPE } from '@dme/contracts';
import type { HandlersOf } from '@dme/platform';
import type { Context } from 'koa';
import { em } from '../cart/cart.routes';
import type { CheckoutStore } from '../checkout/checkout.store';
import { placeOrder, type Rpc } from '../checkout/place-order';
import { listMyOrders, listOrders } from './list';
import { orderQrPng } from './qr';
import { getOrder } from './read';
import { transition, type ProcessDeps } from '../../process/transitions';
import { packingProgress, scanSerial, unscanSerial, type PackingDeps } from '../../process/packing';

type OrderHandlers = Pick<
  HandlersOf<'order'>,
  | 'ordersPlace'
  | 'myOrdersList'
  | 'myOrdersGet'
  | 'myOrdersQr'
  | 'ordersTransition'
  | 'staffOrdersList'
  | 'staffOrdersGet'
  | 'staffOrdersQr'
  | 'orderPackingGet'
  | 'orderPackingScan'
  | 'orderPackingUnscan'
>;

/** An order's QR code as a download (SPEC §9: QR_Code.png). */
function sendQr(ctx: Context, png: Buffer): void {
  ctx.type = 'image/png';
  ctx.set('Content-Disposition', 'attachment; filename="QR_Code.png"');
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = png;
}

export function orderHandlers(
  store: CheckoutStore,
  rpc: Rpc & { subjects: ProcessDeps['subjects'] & PackingDeps['subjects'] },
  afterCommit: () => void,
): OrderHandlers {
  return {
    async ordersPlace(ctx, { body, principal }) {
      const stored = await placeOrder(em(ctx), store, rpc, principal, ctx.get('idempotency-key') || undefined, body);
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
    async myOrdersQr(ctx, { params, principal }) {
      sendQr(ctx, await orderQrPng(em(ctx), params.id, { customerId: principal.userId }));
    },
    async ordersTransition(ctx, { params, body, principal }) {
      const order = await transition(em(ctx), params.id, body, principal, rpc);
      afterCommit();
      return { order };
    },
    staffOrdersList: (ctx, { query }) =>
      listOrders(em(ctx), {
        ...(query.type ? { type: query.type } : {}),
        ...(query.status ? { status: query.status } : {}),
        search: query.search,
        limit: query.limit,
        offset: query.offset,
      }, { counts: true }),
    staffOrdersGet: async (ctx, { params, principal }) => ({ order: await getOrder(em(ctx), params.id, principal, {}) }),
    async staffOrdersQr(ctx, { params }) {
      sendQr(ctx, await orderQrPng(em(ctx), params.id, {}));
    },
    // Packing progress kept on the server (issue 22): nothing here is an event, so no relay kick.
    orderPackingGet: async (ctx, { params }) => ({ packing: await packingProgress(em(ctx), params.id) }),
    orderPackingScan: async (ctx, { params, body, principal }) => ({
      packing: await scanSerial(em(ctx), params.id, params.lineId, body.serialCode, principal, rpc),
    }),
    orderPackingUnscan: async (ctx, { params, principal }) => ({ packing: await unscanSerial(em(ctx), params.id, params.lineId, params.serialCode, principal) }),
  };
}
