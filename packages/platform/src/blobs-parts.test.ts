import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@dme/testing';
import { BLOB_PART_BYTES, blobPartsTableSql, blobTableSql, partsOf, pgBlobStore, pgPartedBlobStore } from './blobs';
import { createOrm, migrate, type Orm } from './db';

// Large files (a year's report export) stored and read a part at a time, on real PostgreSQL.
const SCHEMA = 'blob_parts_test';
let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
const q = <T = unknown>(text: string, params: unknown[] = []) => orm.em.fork().execute<T[]>(text, params);

beforeAll(async () => {
  db = await createTestDatabase('blob_parts');
  orm = await createOrm({ url: db.url, schema: SCHEMA, entities: [], migrations: [] });
  await migrate(orm, SCHEMA, db.url);
  await q(blobTableSql(SCHEMA));
  await q(blobPartsTableSql(SCHEMA));
});
afterAll(async () => {
  await orm?.close();
  await db?.drop();
});

/** `bytes` as a stream of chunks of the given sizes (cycled). */
function chunked(bytes: Buffer, sizes: number[]): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    chunks.push(bytes.subarray(at, at + n));
    at += n;
  }
  return Readable.from(chunks);
}

async function readAll(body: Readable): Promise<{ bytes: Buffer; chunks: number[] }> {
  const got: Buffer[] = [];
  for await (const c of body) got.push(c as Buffer);
  return { bytes: Buffer.concat(got), chunks: got.map((c) => c.length) };
}

describe('files stored in parts', () => {
  it('cuts a stream into parts of exactly the part size, the last one shorter, losing no byte', async () => {
    const bytes = randomBytes(10_000);
    const parts: Buffer[] = [];
    for await (const p of partsOf(chunked(bytes, [1, 999, 4096, 7, 3000]), 1024)) parts.push(p);
    expect(parts.map((p) => p.length)).toEqual([...Array(9).fill(1024), 10_000 - 9 * 1024]);
    expect(Buffer.concat(parts).equals(bytes)).toBe(true);
    const exact: Buffer[] = [];
    for await (const p of partsOf(chunked(randomBytes(2048), [2048]), 1024)) exact.push(p);
    expect(exact.map((p) => p.length)).toEqual([1024, 1024]);
  });

  it('a file of 2.5 parts, written from a stream of small chunks, comes back byte for byte, a part at a time', async () => {
    const store = pgPartedBlobStore(orm.em);
    const bytes = randomBytes(Math.floor(2.5 * BLOB_PART_BYTES));
    expect(await store.putStream('export-a.xlsx', 'application/test', chunked(bytes, [65_536, 1000]))).toBe(bytes.length);
    expect(await q(`select part, length(data) as n from ${SCHEMA}.blobs_parts where name = 'export-a.xlsx' order by part`)).toEqual([
      { part: 0, n: BLOB_PART_BYTES },
      { part: 1, n: BLOB_PART_BYTES },
      { part: 2, n: bytes.length - 2 * BLOB_PART_BYTES },
    ]);
    const opened = await store.open('export-a.xlsx');
    expect(opened).toMatchObject({ contentType: 'application/test', size: bytes.length });
    const got = await readAll(opened!.body);
    expect(got.chunks).toEqual([BLOB_PART_BYTES, BLOB_PART_BYTES, bytes.length - 2 * BLOB_PART_BYTES]);
    expect(got.bytes.equals(bytes)).toBe(true);
    expect(await store.open('export-none.xlsx')).toBeUndefined();
  });

  it('a source that fails midway stores nothing (no file, no part)', async () => {
    const store = pgPartedBlobStore(orm.em);
    async function* failing() {
      yield randomBytes(BLOB_PART_BYTES + 10);
      throw new Error('the disk went away');
    }
    await expect(store.putStream('export-b.xlsx', 'application/test', failing())).rejects.toThrow('the disk went away');
    expect(await store.open('export-b.xlsx')).toBeUndefined();
    expect(await q(`select 1 from ${SCHEMA}.blobs_parts where name = 'export-b.xlsx'`)).toHaveLength(0);
  });

  it('a file stored whole (put) opens as one part; deleting a file deletes its parts', async () => {
    const whole = randomBytes(5000);
    await pgBlobStore(orm.em).put('export-c.xlsx', 'application/test', whole);
    const opened = await pgPartedBlobStore(orm.em).open('export-c.xlsx');
    expect((await readAll(opened!.body)).bytes.equals(whole)).toBe(true);
    await pgPartedBlobStore(orm.em).putStream('export-d.xlsx', 'application/test', chunked(randomBytes(BLOB_PART_BYTES + 1), [4096]));
    await q(`delete from ${SCHEMA}.blobs where name = 'export-d.xlsx'`);
    expect(await q(`select 1 from ${SCHEMA}.blobs_parts where name = 'export-d.xlsx'`)).toHaveLength(0);
  });
});
