import { blobTableSql, Migration } from '@dme/platform';

/**
 * Hand-overs at the door (issue 28): each delivery or pick-up made or attempted, with who signed,
 * their relation to the patient, the serials that changed hands, the reason of a failed attempt,
 * and the names of the signature and photo in the order service's blob store (`handover_blobs`).
 * `client_key` is the phone's idempotency key: one row per driver and key, so a hand-over queued
 * offline and sent twice is recorded once.
 */
export class OrderingHandovers extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."order_handovers" (
      "id" uuid primary key,
      "order_id" uuid not null references "${s}"."orders" ("id") on delete cascade,
      "leg" varchar(10) not null check ("leg" in ('DELIVERY','PICKUP')),
      "outcome" varchar(12) not null check ("outcome" in ('HANDED_OVER','REFUSED','NOBODY_HOME')),
      "attempt" int not null check ("attempt" >= 1),
      "recipient_name" text not null default '',
      "relation" varchar(20) null,
      "reason" text not null default '',
      "serials" jsonb not null default '[]',
      "acknowledgement" text not null default '',
      "driver_id" uuid not null,
      "driver_name" text not null,
      "signature_blob" text null,
      "photo_blob" text null,
      "signed_at" timestamptz not null,
      "recorded_at" timestamptz not null default now(),
      "client_key" uuid not null,
      unique ("driver_id", "client_key"),
      unique ("order_id", "leg", "attempt"),
      check (("outcome" = 'HANDED_OVER') = ("signature_blob" is not null))
    )`);
    this.addSql(`create index "order_handovers_order_idx" on "${s}"."order_handovers" ("order_id", "recorded_at")`);
    this.addSql(blobTableSql(s!, 'handover_blobs'));
    // A rental for return waits for a pick-up driver (DELIVERED → FOR_RETURN now releases the one who delivered it).
    this.addSql(`update "${s}"."orders" set "driver_id" = null where "status" = 'FOR_RETURN'`);
  }
}
