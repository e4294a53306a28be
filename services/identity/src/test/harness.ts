import { createLogger, createOrm, migrate, type Orm } from '@dme/platform';
import { createTestDatabase, listen, serviceClient, TEST_INTERNAL_TOKEN, validPerson, type TestServer } from '@dme/testing';
import { IdentityEnv } from '../config';
import { createApp, migrations, SessionEntity, UserEntity } from '../app';
import { createEmployee } from '../modules/users/user.service';

export interface Harness {
  orm: Orm;
  server: TestServer;
  api: ReturnType<typeof serviceClient>;
  admin: { userId: string; userType: 'SUPERADMIN'; username: string };
  close: () => Promise<void>;
}

/** An identity service on its own fresh database, booted in-process. */
export async function startIdentity(env: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase('identity');
  const config = IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, ...env });
  const orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations });
  await migrate(orm, 'identity', db.url);
  const server = await listen(createApp({ orm, config, logger: createLogger('identity-test', 'silent') }));
  const adminRow = await createEmployee(orm.em.fork(), {
    ...validPerson({ username: 'boss' }),
    userType: 'SUPERADMIN',
    position: 'Owner',
  } as never);
  return {
    orm,
    server,
    api: serviceClient(server.url),
    admin: { userId: adminRow.id, userType: 'SUPERADMIN', username: 'boss' },
    close: async () => {
      await server.close();
      await orm.close();
      await db.drop();
    },
  };
}

export function cookieOf(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0]!;
}
