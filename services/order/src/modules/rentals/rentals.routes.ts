import { waiveLateFees } from './waivers';
import type { HandlersOf } from '@dme/platform';
import { PROBLEM_CONTENT_TYPE } from '@dme/contracts';
import { em } from '../cart/cart.routes';
import type { ProcessDeps } from '../../process/transitions';
import { assignableDrivers, assignOrder, driverDay, reorderStops } from './day';
import { driverScan, getDriverOrder, listDriverOrders } from './drivers';
import { endRentalEarly, extendRental, type ExtendDeps } from './extend';
import { listNotices } from './notices';
import { listOngoingRentals } from './ongoing';
import { createRequest, createRequestAsStaff, updateRequest } from './requests';
import { returnSerial, type ReturnDeps } from './returns';

type RentalHandlers = Pick<
  HandlersOf<'order'>,
  'driverScan' | 'driverOrdersList' | 'driverOrdersGet' | 'ongoingRentalsList' | 'orderSerialReturn' | 'myOrderRequestsCreate' | 'orderRequestsUpdate' | 'myNotices' | 'myOrdersExtend' | 'ordersExtend' | 'ordersEndEarly' | 'ordersWaiveLateFees' | 'orderRequestsCreate' | 'driverDay' | 'driverStopOrder' | 'ordersAssign' | 'assignableDrivers'
>;

/** Drivers, ongoing rentals, returns, requests and notices (issue 10); afterCommit kicks the outbox relay. */
export function rentalHandlers(deps: { process: ProcessDeps; returns: ReturnDeps; extend: ExtendDeps }, afterCommit: () => void): RentalHandlers {
  return {
    async driverScan(ctx, { body, principal }) {
      const stored = await driverScan(em(ctx), principal, body, deps.process, ctx.get('idempotency-key') || undefined);
      afterCommit();
      ctx.status = stored.status;
      if (stored.status >= 400) ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = stored.body;
      return undefined;
    },
    driverOrdersList: (ctx, { query, principal }) => listDriverOrders(em(ctx), principal, query),
    driverDay: (ctx, { principal }) => driverDay(em(ctx), principal),
    driverStopOrder: (ctx, { body, principal }) => reorderStops(em(ctx), principal, body.orderIds),
    ordersAssign: async (ctx, { params, body, principal }) => ({ order: await assignOrder(em(ctx), params.id, body, principal) }),
    assignableDrivers: (ctx) => assignableDrivers(em(ctx)),
    driverOrdersGet: async (ctx, { params, principal }) => ({ order: await getDriverOrder(em(ctx), principal, params.id) }),
    ongoingRentalsList: (ctx, { query }) => listOngoingRentals(em(ctx), query),
    orderSerialReturn: async (ctx, { params, body, principal }) => ({
      order: await returnSerial(em(ctx), params.id, params.serialCode, body.status, principal, deps.returns),
    }),
    async myOrderRequestsCreate(ctx, { params, body, principal }) {
      const request = await createRequest(em(ctx), params.id, principal, body);
      afterCommit();
      return { request };
    },
    async orderRequestsUpdate(ctx, { params, body }) {
      const request = await updateRequest(em(ctx), params.id, params.requestId, body.status);
      afterCommit();
      return { request };
    },
    myNotices: (ctx, { principal }) => listNotices(em(ctx), principal.userId),
    async myOrdersExtend(ctx, { params, body, principal }) {
      const answer = await extendRental(em(ctx), params.id, body.days, principal, 'CUSTOMER', deps.extend);
      afterCommit();
      return answer;
    },
    async ordersExtend(ctx, { params, body, principal }) {
      const answer = await extendRental(em(ctx), params.id, body.days, principal, 'STAFF', deps.extend);
      afterCommit();
      return answer;
    },
    async orderRequestsCreate(ctx, { params, body }) {
      const request = await createRequestAsStaff(em(ctx), params.id, body);
      afterCommit();
      return { request };
    },
    async ordersWaiveLateFees(ctx, { params, body, principal }) {
      return { order: await waiveLateFees(em(ctx), params.id, body, principal) };
    },
    async ordersEndEarly(ctx, { params, body, principal }) {
      const answer = await endRentalEarly(em(ctx), params.id, body.returnOn, principal, deps.extend);
      afterCommit();
      return answer;
    },
  };
}
