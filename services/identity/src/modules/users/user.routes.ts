import { EMPLOYEE_TYPES } from '@dme/contracts';
import { assertUploadsExist, type HandlersOf, type NatsConnection } from '@dme/platform';
import { em } from '../auth/auth.routes';
import { createEmployee, deleteUser, findUser, listUsers, setStatus, toUser, updateEmployee } from './user.service';

type UserHandlers = Omit<HandlersOf<'identity'>, 'authRegister' | 'authLogin' | 'authLogout' | 'authMe'>;

export interface UserDeps {
  afterCommit: () => void;
  /** For asking the catalog whether an uploaded image exists. */
  nc: NatsConnection;
  uploadsSubject?: string;
}

export function userHandlers({ afterCommit, nc, uploadsSubject }: UserDeps): UserHandlers {
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
    async usersSetStatus(ctx, { params, body, principal }) {
      const user = await setStatus(em(ctx), params.id, body.status, principal.userId);
      afterCommit();
      return { user: toUser(user) };
    },
    async usersDelete(ctx, { params, principal }) {
      await deleteUser(em(ctx), params.id, principal.userId);
      afterCommit();
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
      return { user: toUser(user) };
    },
    async employeesSetStatus(ctx, { params, body, principal }) {
      const user = await setStatus(em(ctx), params.id, body.status, principal.userId, 'employee');
      afterCommit();
      return { user: toUser(user) };
    },
    async employeesDelete(ctx, { params, principal }) {
      await deleteUser(em(ctx), params.id, principal.userId, 'employee');
      afterCommit();
      return undefined;
    },
  };
}
