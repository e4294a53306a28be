/**
 * A rental line's due date in SQL: the terms rule `lineDueDate` (the delivered date on the Manila
 * calendar plus the rental days), for the database's copy of it below. rentals.test.ts checks the
 * two agree at the Manila-midnight edges. Everywhere else calls `lineDueDate`.
 */
export const LINE_DUE = `((o.delivered_at at time zone 'Asia/Manila')::date + l.no_of_rental_days)`;

/** A rental's due date: the earliest of its rental lines' (`o` the order); null before delivery. */
const RENTAL_DUE = (schema: string, orderId: string) =>
  `(select min(${LINE_DUE}) from "${schema}"."order_lines" l where l.order_id = ${orderId} and l.no_of_rental_days is not null)`;

/**
 * The rental's due date kept on the order (`orders.due_on`, issue 30: the ongoing rentals' tabs
 * filter and sort a year of rentals by it; computing it from the lines for every rental of a tab
 * took 0.2-0.4 s at 100,000 rentals). The table's triggers keep it, whoever writes: set when the
 * delivered time is (the delivery), moved when a line's days change (an extension, an early end).
 * Statements for a migration: the column filled for the rentals already delivered, the triggers.
 * A writer inserting delivered rentals with their lines (the scale generator) writes it itself.
 */
export function rentalDueOnSql(schema: string): string[] {
  const s = `"${schema}"`;
  return [
    `alter table ${s}."orders" add column "due_on" date null`,
    `update ${s}."orders" o set "due_on" = ${RENTAL_DUE(schema, 'o.id')} where o.delivered_at is not null`,
    `create function ${s}."keep_rental_due_on"() returns trigger language plpgsql as $$
     begin
       if tg_table_name = 'orders' then
         new.due_on := (select ${RENTAL_DUE(schema, 'o.id')} from (select new.id, new.delivered_at) o);
         return new;
       end if;
       update ${s}."orders" o set due_on = ${RENTAL_DUE(schema, 'o.id')} where o.id = new.order_id and o.delivered_at is not null;
       return null;
     end $$`,
    `create trigger "orders_keep_due_on" before update of "delivered_at" on ${s}."orders"
       for each row when (new.delivered_at is distinct from old.delivered_at) execute function ${s}."keep_rental_due_on"()`,
    `create trigger "order_lines_keep_due_on" after update of "no_of_rental_days" on ${s}."order_lines"
       for each row when (new.no_of_rental_days is distinct from old.no_of_rental_days) execute function ${s}."keep_rental_due_on"()`,
  ];
}
