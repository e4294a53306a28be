/**
 * Cross-site request forgery against the running stack (issue 22, gateway/src/csrf.ts): a request
 * that changes something, sent from another origin (or a sibling subdomain: same site, not same
 * origin), is refused with a 403 problem and changes nothing; the same request from the shop's own
 * origin, or without any Origin (not a browser), is carried out. Reads are answered from anywhere.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { validPerson } from '@dme/testing';
import { uploadImage } from './lib/api';
import { env } from './lib/env';
import { call, expectOk, type Answer } from './lib/legacy';

const FOREIGN = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
const SIBLING = { origin: 'https://blog.shop.example', 'sec-fetch-site': 'same-site' };
let own: Record<string, string>;
let cookie = '';
let productID = '';

function expectRefused(a: Answer, what: string): void {
  expect(a.status, `${what}: ${JSON.stringify(a.body)}`).toBe(403);
  expect(a.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(a.body).toMatchObject({ status: 403, title: 'Cross-origin request refused', detail: expect.stringMatching(/another website/) });
}

const cartLines = async () => ((await call('GET', '/api/cart?type=BUY', { cookie })).body as { items: Array<{ id: string; productID: string }> }).items;

beforeAll(async () => {
  own = { origin: new URL(env.baseUrl).origin, 'sec-fetch-site': 'same-origin' };
  const image = await uploadImage();
  const person = validPerson({ image });
  expect((await call('POST', '/api/auth/register', { body: person })).status).toBe(201);
  const login = await call('POST', '/api/auth/login', { body: { username: person.username, password: person.password } });
  cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  // A product for sale in stock that needs no variant choice.
  const list = (await call('GET', '/api/products?type=FOR_SALE&limit=100')).body as { items: Array<{ id: string; availableQuantity: number }> };
  for (const card of list.items.filter((p) => p.availableQuantity > 0)) {
    const detail = (await call('GET', `/api/products/${card.id}`)).body as { product: { variants: unknown[] } };
    if (detail.product.variants.length === 0) {
      productID = card.id;
      break;
    }
  }
  expect(productID, 'a product for sale in stock without variants').not.toBe('');
});

describe('cross-site requests against the stack', () => {
  it('a cart add from another origin or a sibling subdomain is refused and not made; from the own origin or without Origin it is', async () => {
    const body = { productID, type: 'BUY', quantity: 1 };
    expectRefused(await call('POST', '/api/cart', { cookie, body, headers: FOREIGN }), 'cross-site');
    expectRefused(await call('POST', '/api/cart', { cookie, body, headers: SIBLING }), 'same-site');
    expectRefused(await call('POST', '/api/cart', { cookie, body, headers: { origin: 'https://evil.example' } }), 'Origin only');
    expect(await cartLines()).toEqual([]);
    expect((await call('POST', '/api/cart', { cookie, body, headers: own })).status).toBe(201);
    expect((await call('POST', '/api/cart', { cookie, body })).status).toBe(201);
    const lines = await cartLines();
    expect(lines.map((l) => l.productID)).toEqual([productID]);
    expectRefused(await call('DELETE', `/api/cart/${lines[0]!.id}`, { cookie, headers: FOREIGN }), 'DELETE cross-site');
    expect(await cartLines()).toHaveLength(1);
    // Reads are answered from anywhere: they change nothing.
    expect((await call('GET', '/api/cart?type=BUY', { cookie, headers: FOREIGN })).status).toBe(200);
    expect((await call('DELETE', `/api/cart/${lines[0]!.id}`, { cookie, headers: own })).status).toBeLessThan(300);
  });

  it('the legacy .php calls too: refused in their own error shape, nothing added', async () => {
    const body = { productID, productVariantID: null, productSubVariantID: null, quantity: 1, noOfRentalDays: null, type: 'BUY' };
    const refused = await call('POST', '/cart/create.php', { cookie, body, headers: FOREIGN });
    expectRefused(refused, 'cart/create.php');
    expect(refused.body.message).toBe(refused.body.detail);
    expect(refused.body.error).toBe(refused.body.detail);
    expectRefused(await call('POST', '/users/login.php', { body: { username: 'customer', password: env.demoPassword }, headers: SIBLING }), 'login.php same-site');
    expect(await cartLines()).toEqual([]);
    const added = expectOk(await call('POST', '/cart/create.php', { cookie, body, headers: own }), 200, 'cart/create.php from the own origin');
    expect((await call('DELETE', `/cart/delete.php?id=${added.id}`, { cookie, headers: own })).status).toBe(200);
  });

  it('a logout from another origin does not end the session; from the own origin it does', async () => {
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: FOREIGN }), 'logout cross-site');
    expectRefused(await call('POST', '/api/auth/logout', { cookie, headers: SIBLING }), 'logout same-site');
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(200);
    expect((await call('POST', '/api/auth/logout', { cookie, headers: own })).status).toBeLessThan(300);
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(401);
  });
});
