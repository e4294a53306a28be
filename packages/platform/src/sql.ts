import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import { CONNECTION_OPTIONS } from './db';

/** What node-postgres answers for one statement. */
export interface SqlResult {
  rows: unknown[];
  rowCount: number | null;
}

/** The part of a node-postgres client these helpers use. */
interface PgClient {
  query(config: { name: string; text: string; values: unknown[] }): Promise<SqlResult>;
  /** Simple-protocol query: several statements in one message, no parameters. */
  query(text: string): Promise<SqlResult | SqlResult[]>;
}

interface KnexLike {
  client: {
    acquireConnection(): Promise<PgClient>;
    releaseConnection(connection: PgClient): Promise<unknown>;
  };
}

/**
 * One connection of the ORM's pool, held by the caller for a while (a transaction it runs
 * itself, statement by statement or several statements per message).
 */
export interface SqlConnection {
  readonly kind: 'connection';
  /** The service's schema, as the ORM has it. */
  readonly schema: string | undefined;
  readonly client: PgClient;
}

/** Where a statement runs: an EntityManager (its transaction, if any) or a held connection. */
export type Db = EntityManager | SqlConnection;

function isConnection(db: Db): db is SqlConnection {
  return (db as SqlConnection).kind === 'connection';
}

/** The schema of the service `db` belongs to. */
export function schemaOf(db: Db): string | undefined {
  return isConnection(db) ? db.schema : (db.config.get('schema') as string | undefined);
}

const names = new Map<string, string>();

/** A statement's prepared-statement name: derived from its text, so one name never names two texts. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `dme_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs one SQL statement with `$1`-style parameters as a named prepared statement, on a
 * connection of the ORM's pool, the connection of the transaction `em` is in, or a held one.
 *
 * For the hot paths (checkout, reservations, event batches): MikroORM's `execute` writes the
 * values into the SQL text, so PostgreSQL parses and plans every call again (a reservation's
 * statement took longer to plan than to run); a prepared statement is parsed once per
 * connection and its plan reused. Values are sent as parameters, never spliced into the text.
 */
export async function sql<T>(db: Db, text: string, values: unknown[] = []): Promise<T[]> {
  const result = await run(db, text, values);
  return result.rows as T[];
}

/** As sql(), answering how many rows the statement wrote or read. */
export async function sqlCount(db: Db, text: string, values: unknown[] = []): Promise<number> {
  const result = await run(db, text, values);
  return result.rowCount ?? 0;
}

async function run(db: Db, text: string, values: unknown[]): Promise<SqlResult> {
  if (isConnection(db)) return db.client.query({ name: nameOf(text), text, values });
  // In a transaction, knex hands out the transaction's own connection (and takes it back as a no-op).
  const knex = (db.isInTransaction() ? db.getTransactionContext() : db.getConnection().getKnex()) as unknown as KnexLike;
  return withClient(knex, (client) => client.query({ name: nameOf(text), text, values }));
}

async function withClient<T>(knex: KnexLike, fn: (client: PgClient) => Promise<T>): Promise<T> {
  const client = await knex.client.acquireConnection();
  try {
    return await fn(client);
  } finally {
    await knex.client.releaseConnection(client);
  }
}

/**
 * Runs several statements in one message (PostgreSQL's simple protocol: no parameters, so
 * nothing but constants and values the caller has checked may be written into `text`), and
 * answers each statement's result. A transaction's `begin` rides along with its first
 * statement, and its `commit` with its last, instead of a round trip each.
 */
export async function sqlScript(db: SqlConnection, text: string): Promise<SqlResult[]> {
  const result = await db.client.query(text);
  return Array.isArray(result) ? result : [result];
}

/** Where held connections come from: the ORM's pool, or a pool of their own (see backgroundPool). */
export interface ConnectionSource {
  withConnection<T>(fn: (db: SqlConnection) => Promise<T>): Promise<T>;
}

/** Gives `fn` a connection in a clean state back to its pool: a transaction `fn` left open is rolled back. */
async function holding<T>(client: PgClient, schema: string | undefined, fn: (db: SqlConnection) => Promise<T>): Promise<T> {
  try {
    return await fn({ kind: 'connection', schema, client });
  } catch (err) {
    // Outside a transaction PostgreSQL only warns; inside one, this ends it.
    await client.query('rollback').catch(() => undefined);
    throw err;
  }
}

/**
 * Holds one connection for `fn`, from `source` or else the ORM's pool. `fn` owns what happens
 * on it; if it fails with a transaction open, the transaction is rolled back before the
 * connection goes back.
 */
export async function withConnection<T>(em: EntityManager, fn: (db: SqlConnection) => Promise<T>, source?: ConnectionSource): Promise<T> {
  if (source) return source.withConnection(fn);
  const schema = em.config.get('schema') as string | undefined;
  return withClient(em.getConnection().getKnex() as unknown as KnexLike, (client) => holding(client, schema, fn));
}

/**
 * A small pool of its own for a service's background work (the outbox relay, event batches):
 * under load the ORM's pool has a queue of request statements, and an event waiting in it for
 * a connection is an event late (DESIGN §12: commit to consumer p99 < 200 ms).
 */
export function backgroundPool(url: string, schema: string, max = 2, onError: (err: Error) => void = () => undefined): ConnectionSource & { end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 60_000, application_name: `${schema}-background`, options: CONNECTION_OPTIONS });
  // A connection that breaks while idle is dropped by the pool; without a listener it would end the process.
  pool.on('error', onError);
  return {
    async withConnection(fn) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await holding(client as unknown as PgClient, schema, fn);
      } catch (err) {
        // A connection whose rollback failed is not given back for reuse.
        broken = (await client.query('select 1').then(() => undefined, (e: Error) => e)) ?? undefined;
        throw err;
      } finally {
        client.release(broken);
      }
    },
    end: () => pool.end(),
  };
}

/** Single-quoted SQL literal of a value the caller has already checked (uuids, names of its own). */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A `uuid[]` literal of ids that are checked to be uuids (so they can go into a script). */
export function uuidArrayLiteral(ids: readonly string[]): string {
  for (const id of ids) if (!UUID.test(id)) throw new Error(`not a uuid: ${id}`);
  return `'{${ids.join(',')}}'::uuid[]`;
}

/**
 * Optional equality filters for a list query (`?` placeholders, the ORM's execute): one
 * `column = ?` for each pair whose value is given, in order; the caller adds its other conditions.
 */
export function equalsFilters(pairs: ReadonlyArray<readonly [column: string, value: string | undefined]>): { conds: string[]; params: unknown[] } {
  const given = pairs.filter(([, v]) => v !== undefined);
  return { conds: given.map(([col]) => `${col} = ?`), params: given.map(([, v]) => v) };
}

/**
 * A document number's running part as SQL text: the value zero-padded to `width` digits and never
 * cut (`lpad` alone cuts: the millionth order would have been numbered like the 100,000th). The
 * expression is used twice: give a column or a parameter, never `nextval(…)` itself.
 */
export function paddedNumberSql(expr: string, width = 6): string {
  return `lpad((${expr})::text, greatest(${width}, length((${expr})::text)), '0')`;
}
