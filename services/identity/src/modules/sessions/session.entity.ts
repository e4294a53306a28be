import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** A sign-in session. Only the SHA-256 of the random token is stored. */
export const SessionEntity = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: (p) => ({
    id: p.uuid().primary(),
    tokenHash: p.string().length(64).unique(),
    userId: p.uuid().index(),
    createdAt: p.datetime().columnType('timestamptz'),
    lastSeenAt: p.datetime().columnType('timestamptz'),
    expiresAt: p.datetime().columnType('timestamptz'),
    ip: p.string().length(64).default(''),
    userAgent: p.string().length(300).default(''),
  }),
});
export type SessionRow = InferEntity<typeof SessionEntity>;
