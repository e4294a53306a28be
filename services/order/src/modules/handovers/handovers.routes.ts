import type { Context } from 'koa';
import type { HandlersOf } from '@dme/platform';
import { em } from '../cart/cart.routes';
import { getOrder } from '../orders/read';
import { handoverFile, recordHandover, type HandoverDeps } from './handovers';
import { ticketPdf } from './ticket';

type HandoverHandlers = Pick<HandlersOf<'order'>, 'driverHandover' | 'staffOrdersHandoverFile' | 'myOrdersHandoverFile' | 'staffOrdersTicket' | 'myOrdersTicket'>;

/** A stored image, as it was checked when sent (PNG or JPG); private to who may read the order. */
function sendImage(ctx: Context, file: { data: Buffer; contentType: string }): void {
  ctx.type = file.contentType;
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = file.data;
}

function sendPdf(ctx: Context, file: { fileName: string; pdf: Buffer }): void {
  ctx.type = 'application/pdf';
  ctx.set('Content-Disposition', `attachment; filename="${file.fileName}"`);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = file.pdf;
}

/** Hand-overs at the door and what they prove (issue 28); afterCommit kicks the outbox relay. */
export function handoverHandlers(deps: HandoverDeps, afterCommit: () => void): HandoverHandlers {
  return {
    async driverHandover(ctx, { params, body, principal }) {
      const answer = await recordHandover(em(ctx), principal, params.id, body, deps);
      afterCommit();
      return answer;
    },
    async staffOrdersHandoverFile(ctx, { params }) {
      sendImage(ctx, await handoverFile(em(ctx), deps.blobs, params.id, params.handoverId, params.file, undefined));
    },
    async myOrdersHandoverFile(ctx, { params, principal }) {
      sendImage(ctx, await handoverFile(em(ctx), deps.blobs, params.id, params.handoverId, params.file, principal.userId));
    },
    async staffOrdersTicket(ctx, { params, principal }) {
      const order = await getOrder(em(ctx), params.id, principal, {});
      sendPdf(ctx, await ticketPdf(em(ctx), deps.blobs, order, params.leg === 'delivery' ? 'DELIVERY' : 'PICKUP'));
    },
    async myOrdersTicket(ctx, { params, principal }) {
      const order = await getOrder(em(ctx), params.id, principal, { customerId: principal.userId });
      sendPdf(ctx, await ticketPdf(em(ctx), deps.blobs, order, params.leg === 'delivery' ? 'DELIVERY' : 'PICKUP'));
    },
  };
}
