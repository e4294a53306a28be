import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

/**
 * The id of a new row (issue 30): a time-ordered UUID (RFC 9562 version 7: the milliseconds since
 * the epoch, then random bits).
 *
 * Rows written one after another get ids that sort one after another, so each insert lands on the
 * last pages of its primary-key index, which stay in PostgreSQL's buffers. With random ids every
 * insert landed on a random page of an index that a year of rows had made larger than the buffers:
 * at a year's size each order's write read and logged several index pages (docs/benchmarks.md,
 * twenty-seventh session).
 *
 * Ids that are secrets or capabilities (sign-in and reset tokens, a report export's file name)
 * stay random (randomUUID): a time-ordered id tells when it was made and has fewer random bits.
 */
export function newId(): string {
  return v7({ random: randomBytes16() });
}

/**
 * 16 random bytes from a pool filled 4 KB at a time (as Node's randomUUID keeps one): the uuid
 * package asks the system for 16 bytes on each id, which was 2.5% of the order service's CPU
 * through a burst of checkouts. Ids made in the same millisecond sort by these bytes, not by
 * when they were made.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
function randomBytes16(): Uint8Array {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 16;
  return pool.subarray(used - 16, used);
}

/**
 * newId in SQL, for ids a statement makes itself (PostgreSQL 15 has no uuidv7()): a random UUID
 * whose first 48 bits are the clock's milliseconds and whose version nibble is 7.
 */
export const NEW_ID_SQL = `encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid`;
