import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified } from './outbox';
import { sql } from './sql';

/** A stored file: its bytes, its content type, when it was stored. */
export interface Blob {
  data: Buffer;
  contentType: string;
  createdAt: Date;
}

/**
 * Where uploaded files live (issue 14): one small interface, so that every replica of a service
 * reads what another stored. PostgreSQL-backed here (`npm start` needs nothing more); an object
 * store driver would implement the same three calls.
 */
export interface BlobStore {
  /** Stores a file under a name; a name already stored keeps its first content (names are unique by construction). */
  put(name: string, contentType: string, data: Buffer): Promise<void>;
  get(name: string): Promise<Blob | undefined>;
  /** The names that are not stored. */
  missing(names: string[]): Promise<string[]>;
}

/** The `blobs` table of a service's schema, for its migration (what pgBlobStore reads and writes). */
export function blobTableSql(schema: string, table = 'blobs'): string {
  return `create table "${schema}"."${table}" ("name" text primary key, "content_type" text not null, "size" int not null, "data" bytea not null, "created_at" timestamptz not null default now())`;
}

/** Files in a `blobs` table of the service's own schema (created by the service's migration). */
export function pgBlobStore(em: EntityManager, table = 'blobs'): BlobStore {
  const t = qualified(em, table);
  const run = <T extends object[]>(sql: string, params: unknown[]) => em.fork().getConnection().execute<T>(sql, params);
  return {
    async put(name, contentType, data) {
      await run(`insert into ${t} (name, content_type, size, data) values (?, ?, ?, ?) on conflict (name) do nothing`, [name, contentType, data.length, data]);
    },
    async get(name) {
      const rows = await run<Array<{ data: Buffer; content_type: string; created_at: Date }>>(`select data, content_type, created_at from ${t} where name = ?`, [name]);
      const r = rows[0];
      return r ? { data: r.data, contentType: r.content_type, createdAt: new Date(r.created_at) } : undefined;
    },
    async missing(names) {
      if (names.length === 0) return [];
      const rows = await run<Array<{ name: string }>>(`select name from ${t} where name in (${names.map(() => '?').join(', ')})`, names);
      const found = new Set(rows.map((r) => r.name));
      return names.filter((n) => !found.has(n));
    },
  };
}

/**
 * The parts table beside a `blobs` table, for files too large to hold whole in memory (a year's
 * report export): each part one row of at most BLOB_PART_BYTES, deleted with its file.
 */
export function blobPartsTableSql(schema: string, table = 'blobs'): string {
  return `create table "${schema}"."${table}_parts" ("name" text not null references "${schema}"."${table}" ("name") on delete cascade, "part" int not null, "data" bytea not null, primary key ("name", "part"))`;
}

/** The size of a stored part (1 MiB): what a process holds of a large file at a time. */
export const BLOB_PART_BYTES = 1 << 20;

/** A stored file opened for reading: its parts come one at a time. */
export interface OpenedBlob {
  contentType: string;
  size: number;
  createdAt: Date;
  body: Readable;
}

/** Large files in a blobs table and its parts table (blobPartsTableSql): written and read a part at a time. */
export interface PartedBlobStore {
  /** Stores the bytes of `source` under a name, part by part, in one transaction (the file is there whole or not at all); answers its size. */
  putStream(name: string, contentType: string, source: AsyncIterable<Uint8Array>): Promise<number>;
  /** A stored file as a stream of its parts (a file stored whole by `put` as one part), or undefined. */
  open(name: string): Promise<OpenedBlob | undefined>;
}

/** Cuts a stream of chunks into parts of exactly `size` bytes (the last one shorter). */
export async function* partsOf(source: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of source) {
    let rest = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    while (heldBytes + rest.length >= size) {
      const take = size - heldBytes;
      yield Buffer.concat([...held, rest.subarray(0, take)]);
      held = [];
      heldBytes = 0;
      rest = rest.subarray(take);
    }
    if (rest.length > 0) {
      held.push(Buffer.from(rest));
      heldBytes += rest.length;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}

/** Large files in the `blobs` table of the service's own schema and its `_parts` table (both from the service's migrations). */
export function pgPartedBlobStore(em: EntityManager, table = 'blobs'): PartedBlobStore {
  const t = qualified(em, table);
  const parts = qualified(em, `${table}_parts`);
  return {
    async putStream(name, contentType, source) {
      return em.fork().transactional(async (tem) => {
        await sql(tem, `insert into ${t} (name, content_type, size, data) values ($1, $2, 0, ''::bytea)`, [name, contentType]);
        let size = 0;
        let n = 0;
        for await (const part of partsOf(source, BLOB_PART_BYTES)) {
          await sql(tem, `insert into ${parts} (name, part, data) values ($1, $2, $3)`, [name, n++, part]);
          size += part.length;
        }
        await sql(tem, `update ${t} set size = $2 where name = $1`, [name, size]);
        return size;
      });
    },
    async open(name) {
      const [row] = await sql<{ content_type: string; size: number; created_at: Date; parts: number }>(
        em,
        `select content_type, size, created_at, (select count(*)::int from ${parts} p where p.name = b.name) as parts from ${t} b where name = $1`,
        [name],
      );
      if (!row) return undefined;
      const fork = em.fork();
      async function* read(): AsyncGenerator<Buffer> {
        if (row!.parts === 0) {
          const [whole] = await sql<{ data: Buffer }>(fork, `select data from ${t} where name = $1`, [name]);
          if (whole) yield whole.data;
          return;
        }
        for (let i = 0; i < row!.parts; i++) {
          const [part] = await sql<{ data: Buffer }>(fork, `select data from ${parts} where name = $1 and part = $2`, [name, i]);
          if (!part) throw new Error(`blob ${name}: part ${i} is missing`);
          yield part.data;
        }
      }
      return { contentType: row.content_type, size: row.size, createdAt: new Date(row.created_at), body: Readable.from(read()) };
    },
  };
}
