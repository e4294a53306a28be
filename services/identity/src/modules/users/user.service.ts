import { IsolationLevel, type EntityManager } from '@mikro-orm/postgresql';
import {
  ageOn,
  EmployeeCreateRequest,
  EmployeeUpdateRequest,
  EMPLOYEE_TYPES,
  EVENTS,
  MESSAGES,
  RegisterRequest,
  type User,
  type UserSnapshot,
  type UserStatus,
  type UserType,
} from '@dme/contracts';
import { bumpAggregateVersion, conflict, HttpProblem, isUniqueViolation, notFound, qualified, recordEvent, containsPattern, readKeptCounts, newId } from '@dme/platform';
import type { z } from 'zod';
import { UserEntity, type UserRow } from './user.entity';
import { hashPassword } from './password';
import { SessionEntity } from '../sessions/session.entity';
import { USER_COUNTS } from './counts';

export const SOURCE = 'identity';

type Register = z.output<typeof RegisterRequest>;
type EmployeeCreate = z.output<typeof EmployeeCreateRequest>;
type EmployeeUpdate = z.output<typeof EmployeeUpdateRequest>;

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    idNumber: row.idNumber,
    username: row.username,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    suffix: row.suffix,
    birthDate: row.birthDate,
    age: Math.max(0, ageOn(row.birthDate)),
    gender: row.gender,
    contactNumber: row.contactNumber,
    email: row.email,
    address: row.address,
    city: row.city,
    state: row.state,
    zipcode: row.zipcode,
    image: row.image,
    status: row.status,
    userType: row.userType,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toSnapshot(row: UserRow): UserSnapshot {
  return {
    id: row.id,
    idNumber: row.idNumber,
    username: row.username,
    firstName: row.firstName,
    middleName: row.middleName,
    lastName: row.lastName,
    suffix: row.suffix,
    email: row.email,
    contactNumber: row.contactNumber,
    userType: row.userType,
    status: row.status,
  };
}

const isEmployeeType = (t: string) => (EMPLOYEE_TYPES as readonly string[]).includes(t);

async function nextAccountNumber(em: EntityManager, kind: 'customer' | 'employee'): Promise<string> {
  const seq = qualified(em, `${kind}_number_seq`);
  const rows = await em.execute<Array<{ n: string }>>(`select nextval('${seq}') as n`);
  const n = String(rows[0]!.n).padStart(6, '0');
  return kind === 'customer' ? `CUS-${n}` : `EMP-${n}`;
}

async function assertUsernameFree(em: EntityManager, username: string): Promise<void> {
  const rows = await em.execute<Array<{ id: string }>>(
    `select id from ${qualified(em, 'users')} where lower(username) = lower(?) limit 1`,
    [username],
  );
  if (rows.length > 0) throw usernameTaken();
}

/** A 409 naming the username field, so the form keeps the message on the field (SPEC §7 409). */
function usernameTaken(): HttpProblem {
  return new HttpProblem(409, MESSAGES.common.usernameTaken, [{ field: 'username', message: MESSAGES.common.usernameTaken }]);
}

type PersonInput = Omit<Register, 'username' | 'password' | 'age'>;

function personFields(input: PersonInput) {
  return {
    firstName: input.firstName,
    middleName: input.middleName,
    lastName: input.lastName,
    suffix: input.suffix,
    birthDate: input.birthDate,
    gender: input.gender,
    contactNumber: input.contactNumber,
    email: input.email,
    address: input.address,
    city: input.city,
    state: input.state,
    zipcode: input.zipcode,
    image: input.image,
  };
}

/** Work done in the transaction that creates a user, after the row is written (e.g. queue its verification e-mail). */
export type WithinCreate = (tem: EntityManager, user: UserRow) => Promise<void>;

async function createUser(
  em: EntityManager,
  input: PersonInput & { username: string; password: string },
  userType: UserType,
  position: string,
  within?: WithinCreate,
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return em.transactional(async (tem) => {
    await assertUsernameFree(tem, input.username);
    const kind = userType === 'CUSTOMER' ? 'customer' : 'employee';
    const now = new Date();
    const user = tem.create(UserEntity, {
      id: newId(),
      idNumber: await nextAccountNumber(tem, kind),
      username: input.username,
      passwordHash,
      ...personFields(input),
      status: 'ACTIVE',
      userType,
      position,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      // Staff accounts are made by the superadmin with a known address; customers prove theirs.
      emailVerifiedAt: userType === 'CUSTOMER' ? null : now,
      remindersEnabled: true,
    });
    tem.persist(user);
    recordEvent(tem, SOURCE, {
      type: userType === 'CUSTOMER' ? EVENTS.identity.userRegistered : EVENTS.identity.employeeCreated,
      aggregateId: user.id,
      data: toSnapshot(user),
      version: 1, // a new user is version 1 (the column's default); every later event bumps it
    });
    try {
      await tem.flush();
    } catch (err) {
      if (isUniqueViolation(err)) throw usernameTaken();
      throw err;
    }
    await within?.(tem, user);
    return user;
  });
}

/** A visitor registers: always an ACTIVE customer (SPEC §4). */
export function registerCustomer(em: EntityManager, input: Register, within?: WithinCreate): Promise<UserRow> {
  return createUser(em, input, 'CUSTOMER', '', within);
}

export function createEmployee(em: EntityManager, input: EmployeeCreate): Promise<UserRow> {
  return createUser(em, input, input.userType, input.position);
}

export async function findUser(em: EntityManager, id: string, scope: 'any' | 'employee' = 'any'): Promise<UserRow> {
  const user = await em.findOne(UserEntity, { id, deletedAt: null });
  if (!user || (scope === 'employee' && !isEmployeeType(user.userType))) throw notFound('User not found.');
  return user;
}

export async function updateEmployee(em: EntityManager, id: string, input: EmployeeUpdate, actorId: string): Promise<UserRow> {
  return em.transactional(async (tem) => {
    // Bumped (and the row locked) before reading, so concurrent changes get versions in commit
    // order and each event describes the row as its own transaction leaves it.
    const version = await bumpUserVersion(tem, id);
    const user = await findUser(tem, id, 'employee');
    if (user.id === actorId && user.userType !== input.userType) {
      throw conflict('You cannot change your own user type.');
    }
    tem.assign(user, { ...personFields(input), userType: input.userType, position: input.position, updatedAt: new Date() });
    recordEvent(tem, SOURCE, { type: EVENTS.identity.userUpdated, aggregateId: user.id, data: toSnapshot(user), version });
    await tem.flush();
    return user;
  });
}

/**
 * A person's profile changed (SPEC §7 users/update.php): a customer by the superadmin
 * (scope 'customer': a staff member's id answers 404, staff are edited as employees), or anyone's
 * own (scope 'any'). Username, password, user type and status are not touched here.
 */
export async function updateProfile(em: EntityManager, id: string, input: PersonInput, scope: 'customer' | 'any', onEmailChanged?: WithinCreate): Promise<UserRow> {
  return em.transactional(async (tem) => {
    const version = await bumpUserVersion(tem, id);
    const user = await findUser(tem, id);
    if (scope === 'customer' && user.userType !== 'CUSTOMER') throw notFound('User not found.');
    // A customer's new address is unconfirmed until its owner follows the link sent to it (issue 24).
    const emailChanged = user.userType === 'CUSTOMER' && user.email.toLowerCase() !== input.email.toLowerCase();
    tem.assign(user, { ...personFields(input), updatedAt: new Date(), ...(emailChanged ? { emailVerifiedAt: null } : {}) });
    if (emailChanged) await onEmailChanged?.(tem, user);
    recordEvent(tem, SOURCE, { type: EVENTS.identity.userUpdated, aggregateId: user.id, data: toSnapshot(user), version });
    await tem.flush();
    return user;
  });
}

export interface ListFilter {
  userTypes?: readonly string[];
  search?: string;
  limit: number;
  offset: number;
}

/**
 * A page of the open accounts (of the given types, matching the search), newest first, with their
 * total. Unsearched, the total is the kept counts' (USER_COUNTS), read in the page's snapshot, so
 * it is the page's; a search counts its matches (trigram indexes, migration 0006).
 */
export async function listUsers(em: EntityManager, f: ListFilter): Promise<{ items: UserRow[]; total: number }> {
  const where: Record<string, unknown> = { deletedAt: null };
  if (f.userTypes) where.userType = { $in: [...f.userTypes] };
  const options = { orderBy: { createdAt: 'desc', id: 'asc' }, limit: f.limit, offset: f.offset } as const;
  if (f.search) {
    const like = containsPattern(f.search);
    where.$or = [
      { username: { $ilike: like } },
      { firstName: { $ilike: like } },
      { lastName: { $ilike: like } },
      { idNumber: { $ilike: like } },
    ];
    const [items, total] = await em.findAndCount(UserEntity, where, options);
    return { items, total };
  }
  return em.transactional(
    async (tem) => {
      const items = await tem.find(UserEntity, where, options);
      const counts = await readKeptCounts(tem, USER_COUNTS);
      const total = Object.entries(counts).reduce((sum, [type, n]) => (!f.userTypes || f.userTypes.includes(type) ? sum + n : sum), 0);
      return { items, total };
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

/**
 * Activates or deactivates a user. Deactivation ends every session of the user in the same
 * transaction, so their next request is refused at once (DESIGN §9).
 */
export async function setStatus(
  em: EntityManager,
  id: string,
  status: UserStatus,
  actorId: string,
  scope: 'any' | 'employee' = 'any',
): Promise<UserRow> {
  if (id === actorId) throw conflict(MESSAGES.user.cannotChangeSelf);
  return em.transactional(async (tem) => {
    const version = await bumpUserVersion(tem, id);
    const user = await findUser(tem, id, scope);
    const previous = user.status;
    if (previous === status) return user;
    user.status = status;
    user.updatedAt = new Date();
    if (status === 'DEACTIVATED') await tem.nativeDelete(SessionEntity, { userId: user.id });
    recordEvent(tem, SOURCE, {
      type: EVENTS.identity.userStatusChanged,
      aggregateId: user.id,
      data: { userId: user.id, status, previousStatus: previous, changedBy: actorId },
      version,
    });
    await tem.flush();
    return user;
  });
}

/**
 * Deletes a user account (docs/decisions.md): the account is closed, not erased. It disappears
 * from lists and lookups, cannot sign in, its sessions end, and its username stays reserved,
 * because orders, payments and reports keep referring to it.
 */
export async function deleteUser(em: EntityManager, id: string, actorId: string, scope: 'any' | 'employee' = 'any'): Promise<void> {
  if (id === actorId) throw conflict(MESSAGES.user.cannotChangeSelf);
  await em.transactional(async (tem) => {
    const version = await bumpUserVersion(tem, id);
    const user = await findUser(tem, id, scope);
    user.deletedAt = new Date();
    user.status = 'DEACTIVATED';
    user.updatedAt = new Date();
    await tem.nativeDelete(SessionEntity, { userId: user.id });
    recordEvent(tem, SOURCE, { type: EVENTS.identity.userDeleted, aggregateId: user.id, data: { userId: user.id, deletedBy: actorId }, version });
    await tem.flush();
  });
}

/**
 * Bumps the user's version and locks the row for the rest of the transaction; 0 when there is no
 * such row (the caller's lookup then answers 404). A change that turns out to be a no-op skips a
 * number, which is harmless: read models only compare versions.
 */
async function bumpUserVersion(em: EntityManager, id: string): Promise<number> {
  return (await bumpAggregateVersion(em, 'users', id)) ?? 0;
}
