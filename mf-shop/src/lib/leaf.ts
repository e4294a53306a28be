import { levelDamageCharges, levelPrice } from '@dme/contracts/browser';
import type { Product } from '@dme/contracts';

/**
 * The level a customer picked (product, variant or sub-variant) with its price, fee and what is
 * available there (terms `levelPrice`); `complete` once every picker the product has is chosen. Display only: the
 * server checks and prices the same choice at checkout.
 */
export function chooseLeaf(p: Product, variantId?: string, subId?: string) {
  const variant = p.variants.find((v) => v.id === variantId);
  const sub = variant?.subVariants.find((s) => s.id === subId);
  const complete = p.variants.length === 0 || (variant !== undefined && (variant.subVariants.length === 0 || sub !== undefined));
  if (!complete) return { variant, sub, complete, available: undefined, price: null, damage: null };
  return {
    variant,
    sub,
    complete,
    available: (sub ?? variant ?? p).availableQuantity,
    price: levelPrice(p, variant, sub),
    damage: levelDamageCharges(p, variant, sub),
  };
}
