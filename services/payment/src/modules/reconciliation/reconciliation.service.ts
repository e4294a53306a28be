import {
  manilaDate,
  PAYMENT_MESSAGES,
  toCents,
  type PaymentType,
  type ReconciliationRun,
  type ReconciliationRunResponse,
  type ReconciliationRunsResponse,
  type RefundKind,
  type RefundStatus,
} from '@dme/contracts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound, PollingLoop, qualified, runExclusive, sql, type Db, type Logger, newId } from '@dme/platform';
import { figuresOf, PAYMENT_COLUMNS, type PaymentRow } from '../payments/payment.store';
import { reconcile, type Finding } from './checks';

/**
 * The daily reconciliation (issue 29): every payment's records and refunds checked against its
 * terms (checks.ts), the run and its mismatches kept for accounting's screen and the metric.
 *
 * Replica-safe: the DAILY run of a Manila day is one row (a unique index); the schedule's round
 * that runs it holds an advisory lock, so one replica at a time tries, and a second replica's
 * insert of the same day writes nothing. A run left RUNNING by a process that died is taken over
 * by the next round after RUN_STALE_MINUTES (its mismatches are written again).
 */

export const RUN_STALE_MINUTES = 15;
const BATCH = 500;

interface RunRow {
  id: string;
  day: string;
  kind: ReconciliationRun['kind'];
  status: ReconciliationRun['status'];
  started_at: Date;
  finished_at: Date | null;
  checked: number;
  mismatches: number;
  started_by_name: string | null;
}

const RUN_COLUMNS = `r.id, r.day::text as day, r.kind, r.status, r.started_at, r.finished_at, r.checked, r.mismatches, r.started_by_name`;

function runOf(r: RunRow): ReconciliationRun {
  return {
    id: r.id,
    day: r.day,
    kind: r.kind,
    status: r.status,
    startedAt: new Date(r.started_at).toISOString(),
    finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    checked: r.checked,
    mismatches: r.mismatches,
    startedByName: r.started_by_name,
  };
}

type CheckedRow = PaymentRow & {
  charges: Array<{ type: PaymentType; amount: string; deposit: string; cycle: number | null }>;
  refunds: Array<{ kind: RefundKind; amount: string; status: RefundStatus }>;
};

/** Checks every payment (in pages, by id) into run `runId`; answers how many were checked and mismatched. */
async function checkAll(db: Db, runId: string): Promise<{ checked: number; mismatches: number }> {
  const t = (n: string) => qualified(db, n);
  await sql(db, `delete from ${t('reconciliation_mismatches')} where run_id = $1`, [runId]);
  let after = '00000000-0000-0000-0000-000000000000';
  let checked = 0;
  let n = 0;
  for (;;) {
    const rows = await sql<CheckedRow>(
      db,
      `select ${PAYMENT_COLUMNS},
              (select coalesce(json_agg(json_build_object('type', c.type, 'amount', c.amount::text, 'deposit', c.deposit::text, 'cycle', c.cycle)), '[]'::json)
                 from ${t('payment_records')} c where c.payment_id = p.id) as charges,
              (select coalesce(json_agg(json_build_object('kind', f.kind, 'amount', f.amount::text, 'status', f.status)), '[]'::json)
                 from ${t('payment_refunds')} f where f.payment_id = p.id) as refunds
         from ${t('payments')} p where p.id > $1 order by p.id limit $2`,
      [after, BATCH],
    );
    if (rows.length === 0) break;
    const found: Array<{ row: CheckedRow; finding: Finding }> = [];
    for (const row of rows) {
      const findings = reconcile(
        figuresOf(row),
        row.charges.map((c) => ({ type: c.type, amount: toCents(c.amount), deposit: toCents(c.deposit), cycle: c.cycle })),
        row.refunds.map((r) => ({ kind: r.kind, amount: toCents(r.amount), status: r.status })),
      );
      for (const finding of findings) found.push({ row, finding });
    }
    if (found.length > 0) {
      await sql(
        db,
        `insert into ${t('reconciliation_mismatches')} (run_id, n, payment_id, order_number, "check", expected, actual, detail)
         select $1, $2 + x.i, x.payment_id, x.order_number, x."check", x.expected, x.actual, x.detail
           from jsonb_to_recordset($3::jsonb) as x(i int, payment_id uuid, order_number text, "check" text, expected text, actual text, detail text)`,
        [runId, n, JSON.stringify(found.map((f, i) => ({ i, payment_id: f.row.id, order_number: f.row.order_number, ...f.finding })))],
      );
      n += found.length;
    }
    checked += rows.length;
    after = rows[rows.length - 1]!.id;
  }
  return { checked, mismatches: n };
}

/** Runs the checks into a run row already RUNNING and marks it DONE (or FAILED, rethrowing). */
async function complete(db: Db, runId: string): Promise<void> {
  const runs = qualified(db, 'reconciliation_runs');
  try {
    const { checked, mismatches } = await checkAll(db, runId);
    await sql(db, `update ${runs} set status = 'DONE', finished_at = now(), checked = $2, mismatches = $3 where id = $1`, [runId, checked, mismatches]);
  } catch (err) {
    await sql(db, `update ${runs} set status = 'FAILED', finished_at = now() where id = $1`, [runId]).catch(() => undefined);
    throw err;
  }
}

/** A run asked for by accounting now: checked at once; its result and mismatches. */
export async function startManualRun(db: Db, byName: string, now: Date = new Date()): Promise<ReconciliationRunResponse> {
  const id = newId();
  await sql(db, `insert into ${qualified(db, 'reconciliation_runs')} (id, day, kind, status, started_by_name) values ($1, $2::date, 'MANUAL', 'RUNNING', $3)`, [
    id,
    manilaDate(now),
    byName,
  ]);
  await complete(db, id);
  return getRun(db, id);
}

/**
 * Today's DAILY run (Manila), once: done by the first housekeeping pass of the day; a pass finding
 * it RUNNING for longer than RUN_STALE_MINUTES (its process died) runs it again. Answers the run
 * id when this pass ran it, else null.
 */
export async function runDailyReconciliation(db: Db, logger: Logger, now: Date = new Date()): Promise<string | null> {
  const runs = qualified(db, 'reconciliation_runs');
  const day = manilaDate(now);
  const [fresh] = await sql<{ id: string }>(
    db,
    `insert into ${runs} (id, day, kind, status) values ($1, $2::date, 'DAILY', 'RUNNING') on conflict (day) where kind = 'DAILY' do nothing returning id`,
    [newId(), day],
  );
  const [stale] = fresh
    ? []
    : await sql<{ id: string }>(
        db,
        `update ${runs} set started_at = now(), status = 'RUNNING', finished_at = null
          where kind = 'DAILY' and day = $1::date
            and (status = 'FAILED' or (status = 'RUNNING' and started_at < now() - make_interval(mins => $2)))
          returning id`,
        [day, RUN_STALE_MINUTES],
      );
  const id = fresh?.id ?? stale?.id;
  if (!id) return null;
  await complete(db, id);
  const [run] = await sql<{ checked: number; mismatches: number }>(db, `select checked, mismatches from ${runs} where id = $1`, [id]);
  const log = { day, checked: run?.checked, mismatches: run?.mismatches };
  if (run && run.mismatches > 0) logger.warn(log, 'reconciliation: mismatches found');
  else logger.info(log, 'reconciliation: done');
  return id;
}

/**
 * The DAILY run's schedule: a round at start (a day whose run is missing gets it at once) and every
 * `everyMs` (10 minutes), in every replica; each round under the lock, so one runs it.
 */
export function startReconciliationSchedule(opts: { em: EntityManager; logger: Logger; everyMs?: number }): PollingLoop {
  const loop = new PollingLoop(
    async () => {
      await runExclusive(opts.em, 'reconciliation:payment', (em) => runDailyReconciliation(em, opts.logger));
      return 0; // never "more to do at once"
    },
    { intervalMs: opts.everyMs ?? 10 * 60_000, batchSize: 1, logger: opts.logger, failure: 'reconciliation: a round failed, will retry' },
  );
  loop.start();
  return loop;
}

/** The newest runs first (the screen's list), and the newest finished run's mismatches. */
export async function listRuns(db: Db, limit = 30): Promise<ReconciliationRunsResponse> {
  const [rows, mismatches] = await Promise.all([
    sql<RunRow>(db, `select ${RUN_COLUMNS} from ${qualified(db, 'reconciliation_runs')} r order by r.started_at desc, r.id limit $1`, [limit]),
    latestMismatches(db),
  ]);
  return { items: rows.map(runOf), mismatches };
}

/** One run and its mismatches; 404 when unknown. */
export async function getRun(db: Db, id: string): Promise<ReconciliationRunResponse> {
  const [row] = await sql<RunRow>(db, `select ${RUN_COLUMNS} from ${qualified(db, 'reconciliation_runs')} r where r.id = $1`, [id]);
  if (!row) throw notFound(PAYMENT_MESSAGES.reconciliationNotFound);
  const mismatches = await sql<{ payment_id: string; order_number: string; check: ReconciliationRunResponse['mismatches'][number]['check']; expected: string; actual: string; detail: string }>(
    db,
    `select payment_id, order_number, "check", expected, actual, detail from ${qualified(db, 'reconciliation_mismatches')} where run_id = $1 order by n`,
    [id],
  );
  return {
    run: runOf(row),
    mismatches: mismatches.map((m) => ({ paymentId: m.payment_id, orderNumber: m.order_number, check: m.check, expected: m.expected, actual: m.actual, detail: m.detail })),
  };
}

/** The mismatches of the newest finished run (the metric; 0 before any run). */
export async function latestMismatches(db: Db): Promise<number> {
  const [row] = await sql<{ mismatches: number }>(
    db,
    `select mismatches from ${qualified(db, 'reconciliation_runs')} where status = 'DONE' order by finished_at desc limit 1`,
    [],
  );
  return row?.mismatches ?? 0;
}
