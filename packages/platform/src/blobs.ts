import type { EntityManager } from '@mikro-orm/postgresql';
import { qualified } from './outbox';

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
