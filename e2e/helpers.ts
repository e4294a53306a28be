import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD } from './fixtures';

/** A small valid PNG (solid colour), made here. */
export function makePng(size = 8): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const raw = Buffer.alloc((size * 3 + 1) * size, 0x7a);
  for (let y = 0; y < size; y++) raw[y * (size * 3 + 1)] = 0;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

export function person(username: string) {
  return {
    username,
    password: 'e2e-password-1',
    firstName: 'Elena',
    middleName: '',
    lastName: 'Torres',
    suffix: '',
    birthDate: '1985-06-15',
    gender: 'FEMALE',
    contactNumber: '+63 917 000 1111',
    email: `${username}@example.com`,
    address: '5 Mabini St',
    city: 'Quezon City',
    state: 'Metro Manila',
    zipcode: '110100',
  };
}

/** Registers a customer through the API (with an uploaded image), for tests that need a fresh one. */
export async function registerByApi(request: APIRequestContext, username = uniqueName('cust')) {
  const upload = await request.post('/api/uploads', { multipart: { image: { name: 'me.png', mimeType: 'image/png', buffer: makePng() } } });
  const { imagePath } = (await upload.json()) as { imagePath: string };
  const body = { ...person(username), image: imagePath };
  const res = await request.post('/api/auth/register', { data: body });
  if (res.status() !== 201) throw new Error(`register failed: ${res.status()} ${await res.text()}`);
  const { user } = (await res.json()) as { user: { id: string } };
  return { ...body, id: user.id };
}

/** Signs in through the real login form and waits for the role's home page. */
export async function signInAs(page: Page, username: string, password = DEMO_PASSWORD, home?: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  if (home) await page.waitForURL(`**${home}`);
}
