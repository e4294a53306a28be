import { connectNats, createLogger, createOrm, migrate, type NatsConnection, type Orm } from '@dme/platform';
import {
  createTestDatabase,
  listen,
  serviceClient,
  testNatsUrl,
  TEST_INTERNAL_TOKEN,
  TINY_PNG,
  validPerson,
  type TestServer,
} from '@dme/testing';
import { startUploads, type UploadsFixture } from '@dme/testing/uploads';
import { startTestSmtp, type TestSmtp } from '@dme/testing/smtp';
import { IdentityEnv, type IdentityConfig } from '../config';
import { createApp, migrations, SessionEntity, UserEntity } from '../app';
import { identityMailRelay, type RunningMailRelay } from '../modules/messages/relay';
import { createEmployee } from '../modules/users/user.service';

export interface Replica {
  orm: Orm;
  server: TestServer;
  api: ReturnType<typeof serviceClient>;
  /** This replica's mail relay, sending to `smtp` (kicked after a commit that queued messages). */
  mail: RunningMailRelay;
  close: () => Promise<void>;
}

export interface Harness extends Replica {
  config: IdentityConfig;
  admin: { userId: string; userType: 'SUPERADMIN'; username: string };
  /** The catalog's real uploads-exist responder (on a private subject). */
  uploads: UploadsFixture;
  /** The path of an image that was really uploaded. */
  image: string;
  /** validPerson() with an image that exists (validPerson's own default does not). */
  person: (overrides?: Record<string, unknown>) => ReturnType<typeof validPerson>;
  /** Another identity replica: its own ORM (pool) and HTTP app on the same database. */
  startReplica: () => Promise<Replica>;
  /** The harness's NATS connection. */
  nc: NatsConnection;
  /** The real SMTP server the mail relay sends to; every message parsed back. */
  smtp: TestSmtp;
  /** Waits until `n` messages to `to` arrived (15 s at most) and answers them. */
  mailTo: (to: string, n?: number) => Promise<TestSmtp['received']>;
}

/**
 * An identity service on its own fresh database, booted in-process, with NATS and uploads. Its
 * limit per address on registration and the account links is out of the way (as the test stack
 * sets it, scripts/lib/testenv.ts) unless `env` sets REGISTER_MAX_PER_IP (register-limit.test.ts).
 */
export async function startIdentity(env: Record<string, string> = {}): Promise<Harness> {
  const db = await createTestDatabase('identity');
  const smtp = await startTestSmtp();
  const config = IdentityEnv.parse({ DATABASE_URL: db.url, INTERNAL_TOKEN: TEST_INTERNAL_TOKEN, SMTP_URL: smtp.url, FORGOT_PASSWORD_MIN_MS: '0', REGISTER_MAX_PER_IP: '100000', ...env });
  const nc: NatsConnection = await connectNats(testNatsUrl(), 'identity-test');
  const uploads = await startUploads(nc);
  const image = await uploads.store(TINY_PNG);
  const logger = createLogger('identity-test', 'silent');
  const replicas: Replica[] = [];

  async function boot(): Promise<Replica> {
    const orm = await createOrm({ url: db.url, schema: 'identity', entities: [UserEntity, SessionEntity], migrations });
    await migrate(orm, 'identity', db.url);
    const mail = identityMailRelay({ orm, config, logger, intervalMs: 200 })!;
    const server = await listen(createApp({ orm, config, logger, nc, uploadsSubject: uploads.subject, afterMail: () => mail.kick() }));
    const replica: Replica = {
      orm,
      server,
      api: serviceClient(server.url),
      mail,
      close: async () => {
        await server.close();
        await mail.stop();
        await orm.close();
      },
    };
    replicas.push(replica);
    return replica;
  }

  const first = await boot();
  const adminRow = await createEmployee(first.orm.em.fork(), {
    ...validPerson({ username: 'boss', image }),
    userType: 'SUPERADMIN',
    position: 'Owner',
  } as never);
  return {
    ...first,
    config,
    admin: { userId: adminRow.id, userType: 'SUPERADMIN', username: 'boss' },
    uploads,
    image,
    person: (overrides = {}) => validPerson({ image, ...overrides }),
    startReplica: boot,
    nc,
    smtp,
    mailTo: async (to, n = 1) => {
      const mine = () => smtp.received.filter((m) => m.envelopeTo.includes(to));
      const deadline = Date.now() + 15_000;
      while (mine().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return mine();
    },
    close: async () => {
      for (const r of replicas.reverse()) await r.close();
      await smtp.stop();
      await uploads.close();
      await nc.drain();
      await db.drop();
    },
  };
}

export function cookieOf(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0]!;
}
