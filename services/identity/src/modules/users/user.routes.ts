import { EMPLOYEE_TYPES } from '@dme/contracts';
import { assertUploadsExist, type HandlersOf, type Logger, type NatsConnection } from '@dme/platform';
import { em } from '../auth/auth.routes';
import { announceRevocation } from '../sessions/revocation';
import { sendVerification, type AccountConfig } from '../accounts/accounts';
import type { UserRow } from './user.entity';
import type { ACCOUNT_ROUTES } from '../accounts/accounts.routes';
import type { MESSAGE_ROUTES } from '../messages/admin.routes';

type AccountRoute = (typeof ACCOUNT_ROUTES)[number];
type MessageRoute = (typeof MESSAGE_ROUTES)[number];
import { createEmployee, deleteUser, findUser, listUsers, setStatus, toUser, updateEmployee, updateProfile } from './user.service';

type UserHandlers = Omit<HandlersOf<'identity'>, 'authRegister' | 'authLogin' | 'authLogout' | 'authMe' | AccountRoute | MessageRoute>;

export interface UserDeps {
  /** A customer's changed address gets a confirmation link (issue 24). */
  account: AccountConfig;
  /** Called after a transaction that queued messages committed (kicks the mail relay). */
  afterMail: () => void;
  afterCommit: () => void;
  /** For asking the catalog whether an uploaded image exists. */
  nc: NatsConnection;
  uploadsSubject?: string;
  /** For announcing ended sessions (SESSION_REVOKED_SUBJECT). */
  logger: Logger;
}

export function userHandlers({ afterCommit, nc, uploadsSubject, logger, account, afterMail }: UserDeps): UserHandlers {
  const confirmNewAddress = (tem: Parameters<typeof sendVerification>[0], user: UserRow) => sendVerification(tem, account, user);
  // Each change below is committed when its service call returns; announced before the answer,
  // so no gateway serves the user's sessions from its cache afterwards (DESIGN §9).
  const revoke = (userId: string, reason: 'deactivated' | 'deleted' | 'updated') => announceRevocation({ nc, logger }, { userId, reason });
  const list = async (...args: Parameters<typeof listUsers>) => {
    const { items, total } = await listUsers(...args);
    return { items: items.map(toUser), total };
  };
  return {
    usersList: (ctx, { query }) =>
      list(em(ctx), {
        ...(query.userType ? { userTypes: [query.userType] } : {}),
        ...(query.search ? { search: query.search } : {}),
        limit: query.limit,
        offset: query.offset,
      }),
    usersGet: async (ctx, { params }) => ({ user: toUser(await findUser(em(ctx), params.id)) }),
    async usersUpdate(ctx, { params, body }) {
      await assertUploadsExist(nc, { image: body.image }, uploadsSubject);
      const user = await updateProfile(em(ctx), params.id, body, 'customer', confirmNewAddress);
      afterCommit();
      afterMail();
      return { user: toUser(user) };
    },
    async authMeUpdate(ctx, { body, principal }) {
      await assertUploadsExist(nc, { image: body.image }, uploadsSubject);
      const user = await updateProfile(em(ctx), principal.userId, body, 'any', confirmNewAddress);
      afterCommit();
      afterMail();
      return { user: toUser(user) };
    },
    async usersSetStatus(ctx, { params, body, principal }) {
      const user = await setStatus(em(ctx), params.id, body.status, principal.userId);
      afterCommit();
      if (body.status === 'DEACTIVATED') await revoke(user.id, 'deactivated');
      return { user: toUser(user) };
    },
    async usersDelete(ctx, { params, principal }) {
      await deleteUser(em(ctx), params.id, principal.userId);
      afterCommit();
      await revoke(params.id, 'deleted');
      return undefined;
    },

    employeesList: (ctx, { query }) =>
      list(em(ctx), {
        userTypes: query.userType ? [query.userType] : EMPLOYEE_TYPES,
        ...(query.search ? { search: query.search } : {}),
        limit: query.limit,
        offset: query.offset,
      }),
    async employeesCreate(ctx, { body }) {
      await assertUploadsExist(nc, { image: body.image }, uploadsSubject);
      const user = await createEmployee(em(ctx), body);
      afterCommit();
      return { user: toUser(user) };
    },
    employeesGet: async (ctx, { params }) => ({ user: toUser(await findUser(em(ctx), params.id, 'employee')) }),
    async employeesUpdate(ctx, { params, body, principal }) {
      await assertUploadsExist(nc, { image: body.image }, uploadsSubject);
      const user = await updateEmployee(em(ctx), params.id, body, principal.userId);
      afterCommit();
      // The user type may have changed: cached sessions must not keep the old role.
      await revoke(user.id, 'updated');
      return { user: toUser(user) };
    },
    async employeesSetStatus(ctx, { params, body, principal }) {
      const user = await setStatus(em(ctx), params.id, body.status, principal.userId, 'employee');
      afterCommit();
      if (body.status === 'DEACTIVATED') await revoke(user.id, 'deactivated');
      return { user: toUser(user) };
    },
    async employeesDelete(ctx, { params, principal }) {
      await deleteUser(em(ctx), params.id, principal.userId, 'employee');
      afterCommit();
      await revoke(params.id, 'deleted');
      return undefined;
    },
  };
}
