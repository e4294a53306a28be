import { defineEntity, type InferEntity } from '@mikro-orm/core';
import { Migration } from '@mikro-orm/migrations';

/** One row per domain event written in the same transaction as the change (DESIGN §7). */
export const OutboxEntity = defineEntity({
  name: 'OutboxEvent',
  tableName: 'outbox',
  properties: (p) => ({
    id: p.uuid().primary(),
    subject: p.string().length(200),
    payload: p.json<Record<string, unknown>>().columnType('jsonb'),
    createdAt: p.datetime().columnType('timestamptz').onCreate(() => new Date()),
    publishedAt: p.datetime().columnType('timestamptz').nullable(),
  }),
});
export type OutboxEvent = InferEntity<typeof OutboxEntity>;

/** Event ids a consumer has handled, recorded in the same transaction as its effect. */
export const InboxEntity = defineEntity({
  name: 'InboxEvent',
  tableName: 'inbox',
  properties: (p) => ({
    consumer: p.string().length(100).primary(),
    eventId: p.uuid().primary(),
    processedAt: p.datetime().columnType('timestamptz').onCreate(() => new Date()),
  }),
  primaryKeys: ['consumer', 'eventId'],
});

export class PlatformTablesMigration extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table "${s}"."outbox" (
      "id" uuid primary key,
      "seq" bigserial not null unique,
      "subject" varchar(200) not null,
      "payload" jsonb not null,
      "created_at" timestamptz not null default now(),
      "published_at" timestamptz null
    )`);
    this.addSql(`create index "outbox_pending_idx" on "${s}"."outbox" ("seq") where "published_at" is null`);
    this.addSql(`create table "${s}"."inbox" (
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "processed_at" timestamptz not null default now(),
      primary key ("consumer", "event_id")
    )`);
  }
}

/**
 * How many times a consumer's handler failed on an event (one row per consumer and event, only
 * for events that failed). A message's JetStream delivery count also grows when a stopping
 * consumer hands it back or a dead process's ack wait runs out; neither is a failure, so the
 * dead-letter decision counts here instead (consumer.ts). Purged with the inbox (housekeeping).
 */
export class ConsumerFailuresMigration extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create table if not exists "${s}"."consumer_failures" (
      "consumer" varchar(100) not null,
      "event_id" uuid not null,
      "failures" int not null,
      "failed_at" timestamptz not null default now(),
      primary key ("consumer", "event_id")
    )`);
  }
}
