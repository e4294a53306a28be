import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from './logger';
import { startPeriodic, type PollingLoop } from './polling';
import { qualified } from './outbox';

/**
 * Counts of a table's rows per key (an order's type and status, a payment's status), kept by the
 * table's own triggers (issue 30: a staff list's tabs count up to a million rows on every request
 * otherwise).
 *
 * A change of a row's keys (or a row added or deleted) appends a signed count to the changes table
 * (statement-level triggers: one row per key a statement touched, whatever its size); appending
 * never waits on another transaction, so writers do not queue on a counter row. The count of a key
 * is its row in `<counts>` plus the changes not yet folded in; the service folds them in every few
 * seconds (one replica at a time), so reads add a handful of rows.
 */
export interface KeptCounts {
  /** The table counted. */
  table: string;
  /** The table of counts (its trigger function: `<counts>_changed`). */
  counts: string;
  /** The table of the changes not folded in yet. */
  changes: string;
  /** The columns counted by (each a short text column of the table). */
  keys: readonly string[];
  /** Their SQL types in the counts tables. */
  types: readonly string[];
  /** The triggers' names: `<triggers>_insert`, `_update`, `_delete`. */
  triggers: string;
  /** The table's primary key column, which pairs a row before and after an update (default "id"). */
  id?: string;
  /** A column whose rows are counted only while it is null (a closed account's `deleted_at`); default: every row. */
  whileNull?: string;
}

/**
 * A kept count declared by its table, a name and the columns counted by (each with its SQL type in
 * the counts tables), its tables and triggers named after them: `<name>_counts`,
 * `<name>_count_changes`, triggers `<table>_counted`.
 */
export function keptCounts(d: { table: string; name: string; keys: Readonly<Record<string, string>>; id?: string; whileNull?: string }): KeptCounts {
  const k: KeptCounts = { table: d.table, counts: `${d.name}_counts`, changes: `${d.name}_count_changes`, keys: Object.keys(d.keys), types: Object.values(d.keys), triggers: `${d.table}_counted` };
  return { ...k, ...(d.id ? { id: d.id } : {}), ...(d.whileNull ? { whileNull: d.whileNull } : {}) };
}

const list = (cols: readonly string[], prefix = '') => cols.map((c) => `${prefix}"${c}"`).join(', ');
/**
 * The rows a kept count is read from: its folded counts and the changes not folded in yet
 * (`counts` and `changes` are the tables' qualified names); their sum per key is the count.
 */
const keptRows = (k: KeptCounts, counts: string, changes: string) => `(select ${list(k.keys)}, n from ${counts} union all select ${list(k.keys)}, n from ${changes}) x`;
/** The condition of the rows counted (` where …`), none when every row counts. */
const onlyCounted = (k: KeptCounts) => (k.whileNull ? ` where "${k.whileNull}" is null` : '');

/** The migration statements that create the counts, their changes and the triggers, and count the rows already there. */
export function keptCountsSql(schema: string, k: KeptCounts): string[] {
  const s = `"${schema}"`;
  const keys = list(k.keys);
  const columns = k.keys.map((c, i) => `"${c}" ${k.types[i]} not null`).join(', ');
  const by = k.keys.map((_, i) => i + 1).join(', ');
  // Without `whileNull` every row counts, and the statements are those the first kept counts were made by.
  const counted = (alias: string) => (k.whileNull ? ` and ${alias}"${k.whileNull}" is null` : '');
  const state = (alias: string) => (k.whileNull ? `, ${alias}"${k.whileNull}" is null` : '');
  const changed = `(${list(k.keys, 'r.')}${state('r.')}) is distinct from (${list(k.keys, 'a.')}${state('a.')})`;
  return [
    `create table ${s}."${k.counts}" (${columns}, "n" bigint not null, primary key (${keys}))`,
    `create table ${s}."${k.changes}" ("id" bigserial primary key, ${columns}, "n" bigint not null)`,
    `create function ${s}."${k.counts}_changed"() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into ${s}."${k.changes}" (${keys}, "n") select ${keys}, count(*) from added${onlyCounted(k)} group by ${by};
        elsif tg_op = 'DELETE' then
          insert into ${s}."${k.changes}" (${keys}, "n") select ${keys}, -count(*) from removed${onlyCounted(k)} group by ${by};
        else
          insert into ${s}."${k.changes}" (${keys}, "n")
          select ${keys}, sum("n") from (
              select ${list(k.keys, 'r.')}, -1 as "n" from removed r join added a using ("${k.id ?? 'id'}") where ${changed}${counted('r.')}
              union all
              select ${list(k.keys, 'a.')}, 1 from removed r join added a using ("${k.id ?? 'id'}") where ${changed}${counted('a.')}) x
           group by ${by};
        end if;
        return null;
      end $$`,
    `create trigger "${k.triggers}_insert" after insert on ${s}."${k.table}" referencing new table as added for each statement execute function ${s}."${k.counts}_changed"()`,
    `create trigger "${k.triggers}_update" after update on ${s}."${k.table}" referencing old table as removed new table as added for each statement execute function ${s}."${k.counts}_changed"()`,
    `create trigger "${k.triggers}_delete" after delete on ${s}."${k.table}" referencing old table as removed for each statement execute function ${s}."${k.counts}_changed"()`,
    `insert into ${s}."${k.counts}" (${keys}, "n") select ${keys}, count(*) from ${s}."${k.table}"${onlyCounted(k)} group by ${by}`,
  ];
}

/**
 * The counts by the last key, of the rows whose other keys are as given (`where`: a value, or
 * undefined for any): the folded counts plus the changes not folded in yet, read in one snapshot, so
 * exact at the moment of the read. Keys holding none are left out.
 */
export async function readKeptCounts(em: EntityManager, k: KeptCounts, where: Record<string, string | undefined> = {}): Promise<Record<string, number>> {
  const by = k.keys[k.keys.length - 1]!;
  const filters = Object.entries(where).filter(([, v]) => v !== undefined);
  for (const [key] of filters) if (!k.keys.includes(key)) throw new Error(`${k.counts} is not counted by ${key}`);
  const rows = await em.execute<Array<{ key: string; n: number }>>(
    `select "${by}" as key, sum(n)::int as n
       from ${keptRows(k, qualified(em, k.counts), qualified(em, k.changes))}
      ${filters.length ? `where ${filters.map(([c]) => `"${c}" = ?`).join(' and ')}` : ''}
      group by "${by}" having sum(n) <> 0`,
    filters.map(([, v]) => v),
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.n]));
}

/**
 * Folds the counts' changes into their rows (one statement: a reader sees the changes or their
 * sum, never both or neither). One replica at a time (an advisory lock; another skips its round).
 * Answers how many changes were folded.
 */
export async function foldKeptCounts(em: EntityManager, k: KeptCounts): Promise<number> {
  return em.transactional(async (tem) => {
    const [lock] = await tem.execute<Array<{ ok: boolean }>>(`select pg_try_advisory_xact_lock(hashtext(?)) as ok`, [`${qualified(tem, k.counts)}:fold`]);
    if (!lock?.ok) return 0;
    const keys = list(k.keys);
    const [done] = await tem.execute<Array<{ n: number }>>(
      `with moved as (delete from ${qualified(tem, k.changes)} returning ${keys}, n),
            summed as (insert into ${qualified(tem, k.counts)} as c (${keys}, n) select ${keys}, sum(n) from moved group by ${k.keys.map((_, i) => i + 1).join(', ')}
                         on conflict (${keys}) do update set n = c.n + excluded.n returning 1)
       select (select count(*) from moved)::int as n`,
    );
    return done?.n ?? 0;
  });
}

/** Folds the counts' changes every few seconds (every replica runs it; one folds at a time). */
export function startKeptCountFold(opts: { em: EntityManager; counts: KeptCounts; logger: Logger; everyMs?: number }): PollingLoop {
  return startPeriodic(() => foldKeptCounts(opts.em.fork(), opts.counts), {
    logger: opts.logger,
    everyMs: opts.everyMs,
    failure: `${opts.counts.counts}: folding their changes failed, will retry`,
  });
}

/**
 * A query answering each key whose kept count (folded plus changes) is not the count of its rows:
 * none when the counts are exact. For checks of data written in bulk (the year's generator).
 */
export function keptCountsDriftSql(schema: string, k: KeptCounts): string {
  const s = `"${schema}"`;
  const keys = list(k.keys);
  const by = k.keys.map((_, i) => i + 1).join(', ');
  return `with kept as (select ${keys}, sum(n) as n from ${keptRows(k, `${s}."${k.counts}"`, `${s}."${k.changes}"`)} group by ${by} having sum(n) <> 0),
               counted as (select ${keys}, count(*) as n from ${s}."${k.table}"${onlyCounted(k)} group by ${by})
          select ${keys}, kept.n as kept, counted.n as counted from kept full join counted using (${keys}) where kept.n is distinct from counted.n`;
}
