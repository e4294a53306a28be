import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, listen, testNatsUrl, type TestServer } from '@dme/testing';
import { createHttpApp, setReadiness } from './http';
import { createLogger } from './logger';
import { createOrm, type Orm } from './db';
import { connectNats, type NatsConnection } from './nats';
import { natsUp, postgresUp } from './service';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let orm: Orm;
let nc: NatsConnection;
let server: TestServer;

beforeAll(async () => {
  db = await createTestDatabase('health');
  orm = await createOrm({ url: db.url, schema: 'health', entities: [], migrations: [] });
  nc = await connectNats(testNatsUrl(), 'health-test');
  const app = createHttpApp({ name: 'health-test', logger: createLogger('health-test', 'silent') });
  setReadiness(app, async () => ({ postgresql: await postgresUp(orm), nats: await natsUp(nc) }));
  server = await listen(app);
});
afterAll(async () => {
  await server?.close();
  await orm?.close().catch(() => undefined);
  await db?.drop();
});

describe('health', () => {
  it('/health/live names the process; /health/ready is 200 while PostgreSQL and NATS answer', async () => {
    const live = (await (await fetch(`${server.url}/health/live`)).json()) as { status: string; pid: number };
    expect(live).toMatchObject({ status: 'ok', pid: process.pid });
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', pid: process.pid, checks: { postgresql: 'up', nats: 'up' } });
  });

  it('/health/ready is 503 naming the dependency that is down, while /health/live stays 200', async () => {
    await nc.close();
    const natsDown = await fetch(`${server.url}/health/ready`);
    expect(natsDown.status).toBe(503);
    expect(await natsDown.json()).toMatchObject({ status: 'not ready', checks: { postgresql: 'up', nats: 'down' } });
    await orm.close();
    expect(await postgresUp(orm)).toBe('down');
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
  });
});
