import { z } from 'zod';
import { USER_STATUSES, USER_TYPES } from './enums';

/** The envelope every domain event travels in (DESIGN §7). */
export const EventEnvelope = z.object({
  id: z.string().uuid(),
  type: z.string(),
  occurredAt: z.string(),
  source: z.string(),
  aggregateId: z.string(),
  data: z.unknown(),
  version: z.number().int().min(1),
});
export type EventEnvelope<T = unknown> = Omit<z.infer<typeof EventEnvelope>, 'data'> & { data: T };

/** The JetStream stream that carries every domain event. */
export const EVENT_STREAM = 'DME_EVENTS';
export const EVENT_SUBJECTS = ['dme.>'];

export const EVENTS = {
  identity: {
    userRegistered: 'dme.identity.user_registered',
    employeeCreated: 'dme.identity.employee_created',
    userUpdated: 'dme.identity.user_updated',
    userStatusChanged: 'dme.identity.user_status_changed',
    userDeleted: 'dme.identity.user_deleted',
  },
} as const;

const UserSnapshot = z.object({
  id: z.string().uuid(),
  idNumber: z.string(),
  username: z.string(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  suffix: z.string(),
  email: z.string(),
  contactNumber: z.string(),
  userType: z.enum(USER_TYPES),
  status: z.enum(USER_STATUSES),
});

export const EVENT_DATA = {
  [EVENTS.identity.userRegistered]: UserSnapshot,
  [EVENTS.identity.employeeCreated]: UserSnapshot,
  [EVENTS.identity.userUpdated]: UserSnapshot,
  [EVENTS.identity.userStatusChanged]: z.object({
    userId: z.string().uuid(),
    status: z.enum(USER_STATUSES),
    previousStatus: z.enum(USER_STATUSES),
    changedBy: z.string().uuid().nullable(),
  }),
  [EVENTS.identity.userDeleted]: z.object({ userId: z.string().uuid(), deletedBy: z.string().uuid().nullable() }),
} as const;

export type EventType = keyof typeof EVENT_DATA;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_DATA)[T]>;
export type UserSnapshot = z.infer<typeof UserSnapshot>;
