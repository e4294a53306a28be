import type { HandlersOf } from '@dme/platform';
import { em } from '../bins/bin.routes';
import { closeRecall, getRecall, listRecalls, openRecall, settleRecallUnit } from './recalls.service';

type RecallHandlers = Pick<HandlersOf<'catalog'>, 'recallsList' | 'recallsCreate' | 'recallsGet' | 'recallsSettle' | 'recallsClose'>;

/** Recalls (issue 26). `changed` runs after opening one (units held: counts and availability change; its event goes out). */
export function recallHandlers(changed: () => void): RecallHandlers {
  return {
    recallsList: (ctx, { query }) => listRecalls(em(ctx), query),
    async recallsCreate(ctx, { body, principal }) {
      const answer = await openRecall(em(ctx), body, principal);
      changed();
      return answer;
    },
    recallsGet: (ctx, { params }) => getRecall(em(ctx), params.id),
    recallsSettle: (ctx, { params, body, principal }) => settleRecallUnit(em(ctx), params.id, params.serialCode, body.note, principal),
    recallsClose: (ctx, { params, principal }) => closeRecall(em(ctx), params.id, principal),
  };
}
