import type { Context } from 'koa';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { HandlersOf } from '@dme/platform';
import { addToCart, listCart, quoteOrder, removeCartItem, updateCartItem, type CartDeps } from './cart.service';

export const em = (ctx: Context) => ctx.state.em as EntityManager;

type CartHandlers = Pick<HandlersOf<'order'>, 'cartList' | 'cartAdd' | 'cartUpdate' | 'cartRemove' | 'ordersQuote'>;

export function cartHandlers(deps: CartDeps): CartHandlers {
  return {
    cartList: (ctx, { query, principal }) => listCart(em(ctx), principal.userId, query.type),
    cartAdd: async (ctx, { body, principal }) => ({ item: await addToCart(em(ctx), principal.userId, body, deps) }),
    cartUpdate: async (ctx, { params, body, principal }) => ({ item: await updateCartItem(em(ctx), principal.userId, params.id, body, deps) }),
    cartRemove: async (ctx, { params, principal }) => {
      await removeCartItem(em(ctx), principal.userId, params.id);
      return undefined;
    },
    // Priced as the cart is (the same rule); a bulk order's confirmation shows it (issue 27).
    ordersQuote: (ctx, { body }) => quoteOrder(em(ctx), body),
  };
}
