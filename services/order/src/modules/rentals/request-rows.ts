import type { EntityManager } from '@mikro-orm/postgresql';
import type { OrderRequest } from '@dme/contracts';
import { qualified } from '@dme/platform';

/** A fix or replace request of the order, with the names of the lines it is about. */
export interface RequestRow {
  id: string;
  order_id: string;
  type: OrderRequest['type'];
  status: OrderRequest['status'];
  user_note: string;
  created_at: string;
  updated_at: string;
  products: Array<{ line_id: string; product_name: string; variant_name: string | null; sub_variant_name: string | null }>;
}

/** A request as the API shows it. */
export function requestOf(r: RequestRow): OrderRequest {
  return {
    id: r.id,
    orderID: r.order_id,
    type: r.type,
    status: r.status,
    userNote: r.user_note,
    products: r.products.map((p) => ({ lineID: p.line_id, productName: p.product_name, variantName: p.variant_name, subVariantName: p.sub_variant_name })),
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

/** The SQL (a json array per order `o`) of an order's requests with their lines' names, oldest first. */
export function requestsJson(em: EntityManager, where = 'q.order_id = o.id'): string {
  return `coalesce((select json_agg(json_build_object('id', q.id, 'order_id', q.order_id, 'type', q.type, 'status', q.status,
              'user_note', q.user_note, 'created_at', q.created_at, 'updated_at', q.updated_at,
              'products', (select coalesce(json_agg(json_build_object('line_id', l.id, 'product_name', l.product_name,
                             'variant_name', l.variant_name, 'sub_variant_name', l.sub_variant_name) order by l.position), '[]'::json)
                             from ${qualified(em, 'order_lines')} l where l.id = any(q.line_ids)))
            order by q.created_at, q.id) from ${qualified(em, 'order_requests')} q where ${where}), '[]'::json)`;
}
