import type { EntityManager } from '@mikro-orm/postgresql';
import { STOCK_STATUS_INVENTORY, UNIT_MESSAGES, type BinAudit, type BinAuditListResponse, type StockStatus } from '@dme/contracts';
import { badRequest, HttpProblem, notFound, qualified, sql, type Principal, newId } from '@dme/platform';
import { appendCustody } from '../custody/custody';

/** The statuses of a unit that is in the warehouse: one a bin is expected to hold. */
const IN_WAREHOUSE = (Object.entries(STOCK_STATUS_INVENTORY) as Array<[StockStatus, 'IN' | 'OUT']>).filter(([, place]) => place === 'IN').map(([s]) => s);

interface Scanned {
  serial_code: string;
  product_name: string;
  status: StockStatus;
  bin_id: string;
  bin_name: string;
}

interface AuditRow {
  id: string;
  bin_id: string;
  bin_name: string;
  by_name: string | null;
  at: string;
  result: Omit<BinAudit, 'id' | 'binID' | 'binName' | 'by' | 'at'>;
}

const auditOf = (r: AuditRow): BinAudit => ({ id: r.id, binID: r.bin_id, binName: r.bin_name, by: r.by_name, at: new Date(r.at).toISOString(), ...r.result });

/**
 * A physical audit of a bin (issue 26): every label in it scanned, compared with what the bin
 * should hold (its units in the warehouse). Found: expected and scanned; wrong bin: scanned here
 * but recorded in another (or out: the scan says it is here); missing: expected, not scanned;
 * unknown: codes that are no unit. Kept with who and when; nothing moves (moving a unit found in
 * the wrong bin is one more click: `moveUnit`).
 */
export async function auditBin(em: EntityManager, binId: string, codes: readonly string[], who: Principal): Promise<BinAudit> {
  const t = (n: string) => qualified(em, n);
  const [bin] = await sql<{ id: string; name: string }>(em, `select id, name from ${t('warehouse_bins')} where id = $1`, [binId]);
  if (!bin) throw notFound('Warehouse bin not found.');
  const scanned = [...new Set(codes.map((c) => c.trim().toUpperCase()).filter(Boolean))];
  const unitCols = `i.serial_code, p.name as product_name, i.status, i.warehouse_bin_id as bin_id, b.name as bin_name
       from ${t('stock_items')} i join ${t('products')} p on p.id = i.product_id join ${t('warehouse_bins')} b on b.id = i.warehouse_bin_id`;
  const expected = await sql<Scanned>(em, `select ${unitCols} where i.warehouse_bin_id = $1 and i.status in (select unnest($2::text[])) order by i.serial_code`, [binId, IN_WAREHOUSE]);
  const seen = await sql<Scanned>(em, `select ${unitCols} where i.serial_code = any($1::text[]) order by i.serial_code`, [scanned]);
  const unit = (u: Scanned) => ({ serialCode: u.serial_code, productName: u.product_name, status: u.status, binName: u.bin_name });
  const expectedCodes = new Set(expected.map((u) => u.serial_code));
  const seenCodes = new Set(seen.map((u) => u.serial_code));
  const result = {
    expected: expected.length,
    scanned: scanned.length,
    found: seen.filter((u) => expectedCodes.has(u.serial_code)).map(unit),
    wrongBin: seen.filter((u) => !expectedCodes.has(u.serial_code)).map(unit),
    missing: expected.filter((u) => !seenCodes.has(u.serial_code)).map(unit),
    unknown: scanned.filter((c) => !seenCodes.has(c)).sort(),
  };
  const id = newId();
  await sql(em, `insert into ${t('bin_audits')} (id, bin_id, by_user_id, by_name, scanned, result) values ($1, $2, $3, $4, $5::jsonb, $6::jsonb)`, [
    id,
    binId,
    who.userId,
    who.username,
    JSON.stringify(scanned),
    JSON.stringify(result),
  ]);
  const [row] = await sql<AuditRow>(em, `select a.id, a.bin_id, b.name as bin_name, a.by_name, a.at, a.result from ${t('bin_audits')} a join ${t('warehouse_bins')} b on b.id = a.bin_id where a.id = $1`, [id]);
  return auditOf(row!);
}

/** A bin's audits, newest first. */
export async function binAudits(em: EntityManager, binId: string, limit: number, offset: number): Promise<BinAuditListResponse> {
  const t = (n: string) => qualified(em, n);
  const rows = await sql<AuditRow & { total: number }>(
    em,
    `select a.id, a.bin_id, b.name as bin_name, a.by_name, a.at, a.result, count(*) over ()::int as total
       from ${t('bin_audits')} a join ${t('warehouse_bins')} b on b.id = a.bin_id where a.bin_id = $1 order by a.at desc limit $2 offset $3`,
    [binId, limit, offset],
  );
  return { items: rows.map(auditOf), total: rows[0]?.total ?? 0 };
}

/**
 * Moves a unit in the warehouse to another bin (issue 26: one found in the wrong bin by an audit,
 * or put elsewhere): its status does not change; its chain of custody gets MOVED, naming the bin it
 * is in now. A unit out (rented, sold, lost, gone) cannot be moved.
 */
export async function moveUnit(em: EntityManager, code: string, binId: string, who: Principal): Promise<void> {
  await em.transactional(async (tem) => {
    const t = (n: string) => qualified(tem, n);
    const [bin] = await sql<{ id: string }>(tem, `select id from ${t('warehouse_bins')} where id = $1`, [binId]);
    if (!bin) throw badRequest(UNIT_MESSAGES.binUnknown, [{ field: 'warehouseBinID', message: UNIT_MESSAGES.binUnknown }]);
    const [unit] = await sql<{ id: string; status: StockStatus; warehouse_bin_id: string }>(tem, `select id, status, warehouse_bin_id from ${t('stock_items')} where serial_code = $1 for update`, [
      code.trim().toUpperCase(),
    ]);
    if (!unit) throw notFound(UNIT_MESSAGES.notFound);
    if (STOCK_STATUS_INVENTORY[unit.status] !== 'IN') throw new HttpProblem(409, UNIT_MESSAGES.notInWarehouse(code.trim().toUpperCase()));
    if (unit.warehouse_bin_id === binId) return;
    await sql(tem, `update ${t('stock_items')} set warehouse_bin_id = $2, updated_at = now() where id = $1`, [unit.id, binId]);
    await appendCustody(tem, [unit.id], { kind: 'MOVED', by: { userId: who.userId, name: who.username } });
  });
}
