import { describe, expect, it } from 'vitest';
import { ROUTES } from '@dme/contracts';
import { cartCheckout, cartLineName, describeLine, driverPurposes, errorBody, matchLines, orderLines, packingOf, payloadOf, reportRange, segment, successBody, successStatus } from './mapping';
import { LEGACY_BY_PATH, LEGACY_CALLS, legacyDocs } from './table';
import { isLegacyPath } from './index';

const P = '11111111-1111-4111-8111-111111111111';
const V = '22222222-2222-4222-8222-222222222222';
const S = '33333333-3333-4333-8333-333333333333';
const L1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const L2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const L3 = 'cccccccc-cccc-4ccc-8ccc-cccccccccccc';

describe('legacy envelope and status mapping', () => {
  it('200 for reads, creates and deletes; 201 for updates (SPEC §7)', () => {
    expect(successStatus('read')).toBe(200);
    expect(successStatus('create')).toBe(200);
    expect(successStatus('delete')).toBe(200);
    expect(successStatus('update')).toBe(201);
  });

  it('wraps the payload as { status, message: "success", data }', () => {
    expect(successBody('update', { id: 'x' })).toEqual({ status: 201, message: 'success', data: { id: 'x' } });
    expect(successBody('delete', undefined)).toEqual({ status: 200, message: 'success', data: null });
  });

  it('keeps the REST problem and adds message = error = detail (SPEC §7: uploads and reports read `error`)', () => {
    const problem = { type: 'https://dme.example/problems/conflict', title: 'Conflict', status: 409, detail: 'This username is already taken.', instance: '/api/auth/register' };
    expect(errorBody(409, problem, 'Conflict.')).toEqual({ ...problem, message: 'This username is already taken.', error: 'This username is already taken.' });
    const withErrors = { ...problem, status: 400, errors: [{ field: 'email', message: 'Please input your Email!' }] };
    expect(errorBody(400, withErrors, 'x')).toMatchObject({ status: 400, errors: withErrors.errors, message: problem.detail, error: problem.detail });
    const upload = { type: 'https://dme.example/problems/unsupported-media-type', title: 'Unsupported Media Type', status: 415, detail: 'You can only upload JPG or PNG file!' };
    expect(errorBody(415, upload, 'x')).toMatchObject({ error: 'You can only upload JPG or PNG file!', message: 'You can only upload JPG or PNG file!' });
  });

  it('makes a problem of a body that is none', () => {
    expect(errorBody(503, undefined, 'Service Unavailable.')).toMatchObject({ status: 503, detail: 'Service Unavailable.', message: 'Service Unavailable.', error: 'Service Unavailable.', title: 'Error' });
    expect(errorBody(404, [1, 2], 'Not Found.')).toMatchObject({ status: 404, message: 'Not Found.', error: 'Not Found.' });
  });

  it('data is the list of a list, the object of a one-key answer, else the body', () => {
    expect(payloadOf({ items: [1, 2], total: 2 })).toEqual([1, 2]);
    expect(payloadOf({ order: { id: 'o' } })).toEqual({ id: 'o' });
    expect(payloadOf({ batchID: 'b', items: [1] })).toEqual({ batchID: 'b', items: [1] });
    expect(payloadOf({ items: [1], total: '9.00' })).toEqual([1]);
    expect(payloadOf(undefined)).toBeNull();
  });

  it('encodes ids as one path segment, dots included', () => {
    expect(segment('..')).toBe('%2E%2E');
    expect(segment('a/b')).toBe('a%2Fb');
    expect(segment(P)).toBe(P);
  });
});

describe('legacy reports: the default range', () => {
  it('is the last 366 days ending today (both included)', () => {
    expect(reportRange(undefined, undefined, '2026-03-01')).toEqual({ from: '2025-03-01', to: '2026-03-01' });
  });
  it('keeps a range the client sent', () => {
    expect(reportRange('2026-01-01', '2026-01-31', '2026-03-01')).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });
  it('ends a range with only a start at today, or 366 days after it', () => {
    expect(reportRange('2026-02-01', undefined, '2026-03-01')).toEqual({ from: '2026-02-01', to: '2026-03-01' });
    expect(reportRange('2020-01-01', undefined, '2026-03-01')).toEqual({ from: '2020-01-01', to: '2020-12-31' });
  });
  it('starts a range with only an end 365 days before it', () => {
    expect(reportRange(undefined, '2026-01-31', '2026-03-01')).toEqual({ from: '2025-01-31', to: '2026-01-31' });
  });
  it('passes dates that are not dates on (the REST API answers 400)', () => {
    expect(reportRange(undefined, 'garbage', '2026-03-01')).toEqual({ from: 'garbage', to: 'garbage' });
    expect(reportRange('nope', undefined, '2026-03-01')).toEqual({ from: 'nope', to: '2026-03-01' });
  });
});

describe('legacy orders: nested products → bulk lines', () => {
  it('takes a product that carries its quantity', () => {
    expect(orderLines([{ productID: P, quantity: 2, noOfRentalDays: 3 }], 'RENT')).toEqual([
      { productID: P, productVariantID: null, productSubVariantID: null, quantity: 2, noOfRentalDays: 3 },
    ]);
  });
  it('purchases have no rental days', () => {
    expect(orderLines([{ id: P, quantity: 1, noOfRentalDays: 5 }], 'BUY')).toEqual([{ productID: P, productVariantID: null, productSubVariantID: null, quantity: 1 }]);
  });
  it('nested variants and sub-variants are the lines; days fall back to the level above', () => {
    const lines = orderLines(
      [{ id: P, noOfRentalDays: 7, variants: [{ id: V, quantity: 1 }, { productVariantID: V, subVariants: [{ id: S, quantity: 4, noOfRentalDays: 2 }] }] }],
      'RENT',
    );
    expect(lines).toEqual([
      { productID: P, productVariantID: V, productSubVariantID: null, quantity: 1, noOfRentalDays: 7 },
      { productID: P, productVariantID: V, productSubVariantID: S, quantity: 4, noOfRentalDays: 2 },
    ]);
  });
  it('skips what is not an object', () => {
    expect(orderLines([null, 3, 'x'], 'BUY')).toEqual([]);
  });
  it('driver lists from the status filter', () => {
    expect(driverPurposes('OUT_FOR_DELIVERY')).toEqual(['DELIVERY']);
    expect(driverPurposes('FOR_PICK_UP')).toEqual(['PICKUP']);
    expect(driverPurposes(undefined)).toEqual(['DELIVERY', 'PICKUP']);
    expect(driverPurposes('PENDING')).toEqual([]);
  });
});

describe('legacy orders: products of a normal order → cart lines', () => {
  const C1 = 'dddddddd-dddd-4ddd-8ddd-dddddddddddd';
  const C2 = 'eeeeeeee-eeee-4eee-8eee-eeeeeeeeeeee';
  const C3 = 'ffffffff-ffff-4fff-8fff-ffffffffffff';
  const cart = [
    { id: C1, productID: P, productVariantID: null, productSubVariantID: null, quantity: 2, noOfRentalDays: 3, name: 'Bed' },
    { id: C2, productID: P, productVariantID: V, productSubVariantID: null, quantity: 1, noOfRentalDays: 7, name: 'Bed', variant: { name: 'Wide' } },
    { id: C3, productID: P, productVariantID: V, productSubVariantID: S, quantity: 4, noOfRentalDays: 2, name: 'Bed', variant: { name: 'Wide' }, subVariant: { name: '20 in' } },
  ];
  it('matches flat and nested products by product, variant and sub-variant, each line once, in the order sent', () => {
    const sent = [{ id: P, noOfRentalDays: 7, variants: [{ id: V, subVariants: [{ id: S, quantity: 4, noOfRentalDays: 2 }] }, { id: V, quantity: 1 }] }, { productID: P, quantity: 2, noOfRentalDays: 3 }, { productID: P }];
    expect(cartCheckout(sent, 'RENT', cart)).toEqual({ cartItemIDs: [C3, C2, C1], notInCart: [], changed: [] });
  });
  it('takes a cart line named by its id (an old client sending the cart items themselves)', () => {
    expect(cartCheckout([{ id: C2 }], 'RENT', cart).cartItemIDs).toEqual([C2]);
  });
  it('reports products that are not in the cart by position, with what they name', () => {
    const other = '44444444-4444-4444-8444-444444444444';
    const r = cartCheckout([{ productID: P }, { productID: other, quantity: 1 }, { productID: P, productVariantID: other }, {}], 'RENT', cart);
    expect(r.cartItemIDs).toEqual([C1]);
    expect(r.notInCart.map((n) => n.index)).toEqual([1, 2, 3]);
    expect(describeLine(r.notInCart[0]!.line)).toBe(`Product ${other}`);
    expect(describeLine(r.notInCart[1]!.line)).toBe(`Product ${P} (variant ${other})`);
    expect(describeLine(r.notInCart[2]!.line)).toBe('A product without a productID');
  });
  it('a quantity or rental days other than the cart line\'s is a change (days only for rentals)', () => {
    const r = cartCheckout([{ productID: P, quantity: 5 }, { productID: P, productVariantID: V, noOfRentalDays: 9 }], 'RENT', cart);
    expect(r.changed.map((c) => [c.index, c.item.id, c.field, c.sent])).toEqual([[0, C1, 'quantity', 5], [1, C2, 'noOfRentalDays', 9]]);
    expect(cartCheckout([{ productID: P, quantity: 2, noOfRentalDays: 99 }], 'BUY', cart).changed).toEqual([]);
    expect(cartLineName(cart[2]!)).toBe('Bed (Wide, 20 in)');
    expect(cartLineName(cart[0]!)).toBe('Bed');
  });
});

describe('legacy requests: products → order line ids', () => {
  const lines = [
    { id: L1, productID: P, productVariantID: null, productSubVariantID: null },
    { id: L2, productID: P, productVariantID: V, productSubVariantID: null },
    { id: L3, productID: P, productVariantID: V, productSubVariantID: S },
  ];
  it('by line id', () => {
    expect(matchLines([{ id: L2 }, { lineID: L3 }, L1], lines)).toEqual({ lineIDs: [L2, L3, L1], unmatched: [] });
  });
  it('by product, variant and sub-variant (exactly)', () => {
    expect(matchLines([{ productID: P, productVariantID: V, productSubVariantID: S }, { productID: P }], lines)).toEqual({ lineIDs: [L3, L1], unmatched: [] });
    expect(matchLines([{ product: { id: P }, variant: { id: V } }], lines)).toEqual({ lineIDs: [L2], unmatched: [] });
  });
  it('each line once; unknown products reported by position', () => {
    expect(matchLines([{ id: L1 }, { productID: P }, { productID: V }, 7], lines)).toEqual({ lineIDs: [L1], unmatched: [2, 3] });
  });
  it('packing: the serial codes of each line', () => {
    expect(packingOf([{ id: L1, serialCodes: ['A-1', { serialCode: 'A-2' }] }, { productID: P, productVariantID: V, serialCodes: ['B-1'] }, { id: L3 }], lines)).toEqual([
      { lineID: L1, serialCodes: ['A-1', 'A-2'] },
      { lineID: L2, serialCodes: ['B-1'] },
    ]);
  });
});

describe('the legacy table', () => {
  it('has every call of SPEC §7 once, each naming REST routes of the route table', () => {
    const names = LEGACY_CALLS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(names).size).toBe(names.length);
    for (const want of [
      'POST /users/create.php', 'POST /users/login.php', 'GET /users/get_all.php', 'GET /users/get.php', 'PATCH /users/update.php', 'DELETE /users/delete.php',
      'POST /upload/upload.php',
      'POST /warehousebins/create.php', 'GET /warehousebins/get_all.php', 'GET /warehousebins/get.php', 'PATCH /warehousebins/update.php', 'DELETE /warehousebins/delete.php',
      'POST /products/create.php', 'GET /products/get_all.php', 'GET /products/get.php', 'PATCH /products/update.php', 'DELETE /products/delete.php',
      'POST /stocks/create.php', 'GET /stocks/get_all.php', 'GET /stocks/get.php', 'PATCH /stocks/update.php', 'DELETE /stocks/delete.php',
      'POST /cart/create.php', 'GET /cart/get_all.php', 'DELETE /cart/delete.php',
      'POST /orders/create.php', 'GET /orders/get_all.php', 'GET /orders/get.php', 'PATCH /orders/update.php', 'DELETE /orders/delete.php',
      'PATCH /orders_product_serial_code/update.php',
      'POST /requests/create.php', 'GET /requests/get_all.php', 'PATCH /requests/update.php',
      'GET /payments/get_all.php', 'GET /payments/get.php', 'GET /payment_records/get_all.php', 'PATCH /payments/update.php',
      'GET /reports/purchased_products_sales.php', 'GET /reports/rental_products_sales.php', 'GET /reports/purchased_products_invoice.php',
      'GET /reports/rental_products_unpaid_invoice.php', 'GET /reports/rental_products_partial_invoice.php',
    ]) expect(names).toContain(want);
    for (const c of LEGACY_CALLS) for (const id of c.rest) expect(ROUTES[id], `${c.path} → ${id}`).toBeDefined();
    expect(LEGACY_BY_PATH.get('/orders/update.php')?.get('PATCH')?.kind).toBe('update');
  });

  it('documents each call with its REST routes and their permissions', () => {
    const docs = legacyDocs();
    const stocks = docs.calls.find((c) => c.path === '/stocks/create.php')!;
    expect(stocks.rest).toEqual([{ id: 'stocksCreate', method: 'POST', path: '/api/stocks', access: 'stock:create' }]);
    expect(docs.calls.find((c) => c.path === '/payments/update.php')!.successStatus).toBe(201);
  });

  it('answers .php paths at the root only', () => {
    expect(isLegacyPath('/users/login.php')).toBe(true);
    expect(isLegacyPath('/x.php')).toBe(true);
    expect(isLegacyPath('/api/users/login.php')).toBe(false);
    expect(isLegacyPath('/remotes/mf-shop/a.php')).toBe(false);
    expect(isLegacyPath('/users/login')).toBe(false);
  });
});
