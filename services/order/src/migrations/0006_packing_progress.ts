import { Migration } from '@dme/platform';

/**
 * Packing kept on the server and fuller serial code entries (issue 22):
 *
 * - order_line_serials: the stock item's id and the name of the bin each unit was packed from,
 *   as the catalog answered the packing. Orders packed before this keep null in both: the order
 *   service never reads the catalog's tables (DESIGN §2), and the catalog does not say later where
 *   a unit was packed from, so nothing more is known here. The other fields of a serial code entry
 *   (product, return status and time, inventory type, packed time) come from what each row
 *   already holds, so nothing needs filling.
 * - packing_scans: the serial codes scanned so far for each line of an order being packed
 *   (PREPARING), so that a reload or another packer continues; 'To Ship Order' packs them and the
 *   order leaving PREPARING clears them. A serial code is scanned for one order line at a time:
 *   two packers scanning the same unit for two orders cannot both keep it (the unique index).
 */
export class OrderingPackingProgress extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`alter table "${s}"."order_line_serials" add column "stock_item_id" uuid null`);
    this.addSql(`alter table "${s}"."order_line_serials" add column "warehouse_bin" varchar(100) null`);
    this.addSql(`create table "${s}"."packing_scans" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "line_id" uuid not null references "${s}"."order_lines" ("id") on delete cascade,
      "serial_code" varchar(40) not null,
      "stock_item_id" uuid null,
      "warehouse_bin" varchar(100) null,
      "scanned_by" uuid null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create unique index "packing_scans_serial_uq" on "${s}"."packing_scans" ("serial_code")`);
    this.addSql(`create index "packing_scans_order_idx" on "${s}"."packing_scans" ("order_id", "line_id", "created_at")`);
  }
}
