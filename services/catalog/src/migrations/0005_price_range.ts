import { Migration } from '@dme/platform';

/**
 * The shop list's price range kept on the product row (issue 8): the range over what a customer
 * can pick (sub-variants; variants without sub-variants, at their price or the product's), or the
 * product's price when it has no variants. Product create and edit write it in the same
 * transaction (product.service.ts `writePriceRange`); computing it per row in the list query was
 * half of that query's cost. An index in list order lets a page be read without sorting.
 */
export class CatalogPriceRange extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."products" add column "price_min" numeric(12,2) null, add column "price_max" numeric(12,2) null`);
    this.addSql(`update "${s}"."products" p set (price_min, price_max) = (
      select coalesce(min(x.price), p.price), coalesce(max(x.price), p.price) from (
        select sv.price from "${s}"."variants" v join "${s}"."sub_variants" sv on sv.variant_id = v.id where v.product_id = p.id
        union all
        select coalesce(v.price, p.price) from "${s}"."variants" v
         where v.product_id = p.id and not exists (select 1 from "${s}"."sub_variants" sv where sv.variant_id = v.id)
      ) x)`);
    this.addSql(`create index "products_list_idx" on "${s}"."products" ("name", "id") where "archived_at" is null`);
  }
}
