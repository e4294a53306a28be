import { PERSON } from './testdata';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { AddStockRequest, AdminProductListQuery, BinListQuery, BinRequest, ProductListQuery, ProductRequest, StockListQuery } from './catalog';
import {
  EmployeeCreateRequest,
  EmployeeListQuery,
  EmployeeUpdateRequest,
  LoginRequest,
  RegisterRequest,
  UserListQuery,
} from './identity';
import { MESSAGES } from './messages';
import { CartAddRequest, CartUpdateRequest, MyOrderListQuery, PlaceOrderRequest } from './ordering';
import { isAllowedText, text } from './text';

const IMAGE = '/api/uploads/0123456789abcdef0123456789abcdef.png';
const UUID = '6f1c2b7e-8a4d-4c1e-9b0a-2d3e4f5a6b7c';

const person = { ...PERSON, middleName: 'Luz', suffix: 'Jr', image: IMAGE };
const register = { username: 'maria.s', password: 'correct-horse-9', ...person };
const employee = { ...register, userType: 'DRIVER', position: 'Driver' };
const { username: _u, password: _p, ...employeeEdit } = employee;
const product = {
  brand: 'Drive',
  name: 'Wheelchair',
  description: 'A folding wheelchair.',
  type: 'FOR_RENT',
  image: IMAGE,
  price: '25.00',
  damageCharges: '100.00',
  variants: [
    { name: 'Standard', price: '25.00', damageCharges: '100.00' },
    { name: 'Large', subVariants: [{ name: 'Blue', price: '30.00', damageCharges: '120.00' }] },
  ],
};
const order = {
  type: 'RENT',
  deliveryAddress: '12 Rizal St',
  deliveryCity: 'Makati',
  deliveryState: 'Metro Manila',
  deliveryZipcode: '121000',
  note: 'Ring twice',
};

type Path = Array<string | number>;

function setAt(obj: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(obj) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1]!] = value;
  return copy;
}

function getAt(obj: unknown, path: Path): unknown {
  return path.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], obj);
}

/** Messages of the issues at exactly this path. */
function messagesAt(schema: z.ZodType, input: unknown, path: Path): string[] {
  const r = schema.safeParse(input);
  if (r.success) return [];
  return r.error.issues.filter((i) => i.path.join('.') === path.join('.')).map((i) => i.message);
}

/** Every text field of every request body and query, with a valid input that holds it. */
const TEXT_FIELDS: Array<[string, z.ZodType, unknown, Path]> = [
  ...(['username', 'password', 'firstName', 'middleName', 'lastName', 'suffix', 'birthDate', 'contactNumber', 'email', 'address', 'city', 'state', 'zipcode', 'image'] as const).map(
    (f): [string, z.ZodType, unknown, Path] => ['RegisterRequest', RegisterRequest, register, [f]],
  ),
  ['LoginRequest', LoginRequest, { username: 'maria.s', password: 'x' }, ['username']],
  ['LoginRequest', LoginRequest, { username: 'maria.s', password: 'x' }, ['password']],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['position']],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['username']],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['password']],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['firstName']],
  ['EmployeeUpdateRequest', EmployeeUpdateRequest, employeeEdit, ['position']],
  ['EmployeeUpdateRequest', EmployeeUpdateRequest, employeeEdit, ['address']],
  ['BinRequest', BinRequest, { name: 'A-01', description: 'Wheelchairs' }, ['name']],
  ['BinRequest', BinRequest, { name: 'A-01', description: 'Wheelchairs' }, ['description']],
  ['ProductRequest', ProductRequest, product, ['brand']],
  ['ProductRequest', ProductRequest, product, ['name']],
  ['ProductRequest', ProductRequest, product, ['description']],
  ['ProductRequest', ProductRequest, product, ['image']],
  ['ProductRequest', ProductRequest, product, ['variants', 0, 'name']],
  ['ProductRequest', ProductRequest, product, ['variants', 1, 'subVariants', 0, 'name']],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryAddress']],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryCity']],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryState']],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryZipcode']],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['note']],
  ['UserListQuery', UserListQuery, { search: 'maria' }, ['search']],
  ['EmployeeListQuery', EmployeeListQuery, { search: 'maria' }, ['search']],
  ['BinListQuery', BinListQuery, { search: 'A-0' }, ['search']],
  ['ProductListQuery', ProductListQuery, { search: 'wheel' }, ['search']],
  ['AdminProductListQuery', AdminProductListQuery, { search: 'wheel' }, ['search']],
];

const BAD: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['a lone high surrogate', '\ud800'],
  ['a lone low surrogate', '\udc00'],
  ['reversed surrogates', '\udc00\ud800'],
];

describe('isAllowedText', () => {
  it('refuses NUL and lone surrogates, anywhere', () => {
    for (const [, bad] of BAD) {
      expect(isAllowedText(bad)).toBe(false);
      expect(isAllowedText(`x${bad}y`)).toBe(false);
      expect(isAllowedText(`xy${bad}`)).toBe(false);
    }
    expect(isAllowedText('x\ud83dy')).toBe(false);
    expect(isAllowedText('\ud83d')).toBe(false);
  });

  it('accepts surrogate pairs, accents, other scripts and ordinary control characters like tab and newline', () => {
    for (const ok of ['', '😀', 'a😀b😀', 'José Ñoño', 'Zoë Ångström', '日本語', 'line 1\nline 2\tend', '\ud83d\ude00']) {
      expect(isAllowedText(ok), ok).toBe(true);
    }
  });
});

describe('text()', () => {
  it('trims, enforces the maximum and the characters, with its messages', () => {
    const s = text({ max: 5, error: 'Please input X!' });
    expect(s.parse('  abc  ')).toBe('abc');
    expect(s.safeParse('abcdef').error?.issues.map((i) => i.message)).toEqual([MESSAGES.common.tooLong]);
    expect(s.safeParse('a\u0000b').error?.issues.map((i) => i.message)).toEqual([MESSAGES.common.textInvalid]);
    expect(s.safeParse(3).error?.issues.map((i) => i.message)).toEqual(['Please input X!']);
    expect(text({ max: 5, trim: false }).parse('  a  ')).toBe('  a  ');
  });
});

describe.each(TEXT_FIELDS.map(([n, ...rest]) => [`${n} ${rest[2].join('.')}`, ...rest] as const))('%s', (_name, schema, valid, path) => {
  it('accepts the valid input', () => {
    expect(schema.safeParse(valid).error?.issues ?? []).toEqual([]);
  });

  it.each(BAD)('refuses %s with the field named in the issue path', (_what, bad) => {
    const value = String(getAt(valid, path));
    for (const v of [`${value.slice(0, 1)}${bad}${value.slice(1)}`, `${value}${bad}`.slice(-Math.max(value.length, 1))]) {
      const r = schema.safeParse(setAt(valid, path, v));
      expect(r.success).toBe(false);
      expect(messagesAt(schema, setAt(valid, path, v), path)).toContain(MESSAGES.common.textInvalid);
    }
  });
});

describe('valid astral characters and accents are accepted as typed', () => {
  const rows: Array<[string, z.ZodType, unknown, Path, string]> = [
    ['RegisterRequest', RegisterRequest, register, ['firstName'], 'José 😀'],
    ['RegisterRequest', RegisterRequest, register, ['middleName'], 'Ñ'],
    ['RegisterRequest', RegisterRequest, register, ['city'], 'Parañaque 🏙️'],
    ['RegisterRequest', RegisterRequest, register, ['address'], 'Calle Ñ 😀'],
    ['RegisterRequest', RegisterRequest, register, ['password'], 'contraseña-😀-9'],
    ['LoginRequest', LoginRequest, { username: 'maria.s', password: 'x' }, ['password'], 'clé 😀'],
    ['BinRequest', BinRequest, { name: 'A-01', description: 'x' }, ['description'], 'Étagère 🧰 près de la porte'],
    ['ProductRequest', ProductRequest, product, ['name'], 'Silla de ruedas 😀'],
    ['ProductRequest', ProductRequest, product, ['variants', 1, 'subVariants', 0, 'name'], 'Azul 💙'],
    ['PlaceOrderRequest', PlaceOrderRequest, order, ['note'], 'Entregar después de las 5 🚚'],
    ['ProductListQuery', ProductListQuery, {}, ['search'], '😀'],
  ];
  it.each(rows.map(([n, ...rest]) => [`${n} ${rest[2].join('.')}`, ...rest] as const))('%s', (_name, schema, valid, path, value) => {
    const r = schema.safeParse(setAt(valid, path, value));
    expect(r.error?.issues ?? []).toEqual([]);
    expect(getAt(r.data, path)).toBe(value);
  });
});

// ---- maxima: every text a request stores fits the PostgreSQL column (or columns) that holds it

/** Widths of the varchar columns, as "<service>.<table>.<column>", read from the migrations. */
function columnWidths(): Map<string, number> {
  const root = fileURLToPath(new URL('../../../services', import.meta.url));
  const widths = new Map<string, number>();
  for (const service of readdirSync(root)) {
    let files: string[];
    try {
      files = readdirSync(join(root, service, 'src', 'migrations'));
    } catch {
      continue;
    }
    for (const file of files.filter((f) => f.endsWith('.ts')).sort()) {
      const source = readFileSync(join(root, service, 'src', 'migrations', file), 'utf8');
      for (const table of source.matchAll(/create table "\$\{s\}"\."(\w+)" \(([\s\S]*?)\)`\)/g)) {
        for (const col of table[2]!.matchAll(/"(\w+)" varchar\((\d+)\)/g)) {
          widths.set(`${service}.${table[1]}.${col[1]}`, Number(col[2]));
        }
      }
      // Later migrations may add or retype a column.
      for (const m of source.matchAll(/alter table "\$\{s\}"\."(\w+)" (?:add column|alter column) "(\w+)" (?:type )?varchar\((\d+)\)/g)) {
        widths.set(`${service}.${m[1]}.${m[2]}`, Number(m[3]));
      }
    }
  }
  return widths;
}

const letters = (n: number) => 'a'.repeat(n);
/** For fields that take ASCII only (usernames). */
const ascii = (n: number) => 'b'.repeat(n);
const email = (n: number) => `${'a'.repeat(Math.max(1, n - '@example.com'.length))}@example.com`;
const imagePath = (n: number) => `${IMAGE.slice(0, -4)}${'a'.repeat(Math.max(0, n - IMAGE.length))}.png`;
const zipcode = (n: number) => '1'.repeat(n);

/** [schema name, schema, valid input, field, columns that store it, value of a given length, whether the column width itself is accepted]. */
const STORED: Array<[string, z.ZodType, unknown, Path, string[], (n: number) => string, boolean]> = [
  ['RegisterRequest', RegisterRequest, register, ['username'], ['identity.users.username', 'order.customers.username'], ascii, true],
  ['RegisterRequest', RegisterRequest, register, ['firstName'], ['identity.users.first_name', 'order.customers.first_name'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['middleName'], ['identity.users.middle_name', 'order.customers.middle_name'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['lastName'], ['identity.users.last_name', 'order.customers.last_name'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['suffix'], ['identity.users.suffix', 'order.customers.suffix'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['contactNumber'], ['identity.users.contact_number', 'order.customers.contact_number'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['email'], ['identity.users.email', 'order.customers.email'], email, false],
  ['RegisterRequest', RegisterRequest, register, ['address'], ['identity.users.address'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['city'], ['identity.users.city'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['state'], ['identity.users.state'], letters, true],
  ['RegisterRequest', RegisterRequest, register, ['zipcode'], ['identity.users.zipcode'], zipcode, true],
  ['RegisterRequest', RegisterRequest, register, ['image'], ['identity.users.image'], imagePath, false],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['position'], ['identity.users.position'], letters, true],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['username'], ['identity.users.username'], ascii, true],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['firstName'], ['identity.users.first_name'], letters, true],
  ['EmployeeCreateRequest', EmployeeCreateRequest, employee, ['address'], ['identity.users.address'], letters, true],
  ['EmployeeUpdateRequest', EmployeeUpdateRequest, employeeEdit, ['position'], ['identity.users.position'], letters, true],
  ['EmployeeUpdateRequest', EmployeeUpdateRequest, employeeEdit, ['email'], ['identity.users.email'], email, false],
  ['EmployeeUpdateRequest', EmployeeUpdateRequest, employeeEdit, ['image'], ['identity.users.image'], imagePath, false],
  ['BinRequest', BinRequest, { name: 'A-01', description: 'x' }, ['name'], ['catalog.warehouse_bins.name'], letters, true],
  ['BinRequest', BinRequest, { name: 'A-01', description: 'x' }, ['description'], ['catalog.warehouse_bins.description'], letters, true],
  ['ProductRequest', ProductRequest, product, ['name'], ['catalog.products.name', 'order.products.name', 'order.order_lines.product_name'], letters, true],
  ['ProductRequest', ProductRequest, product, ['brand'], ['catalog.products.brand', 'order.products.brand'], letters, true],
  ['ProductRequest', ProductRequest, product, ['description'], ['catalog.products.description'], letters, true],
  ['ProductRequest', ProductRequest, product, ['image'], ['catalog.products.image', 'order.products.image', 'order.order_lines.product_image'], imagePath, false],
  ['ProductRequest', ProductRequest, product, ['variants', 0, 'name'], ['catalog.variants.name', 'order.order_lines.variant_name'], letters, true],
  ['ProductRequest', ProductRequest, product, ['variants', 1, 'subVariants', 0, 'name'], ['catalog.sub_variants.name', 'order.order_lines.sub_variant_name'], letters, true],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryAddress'], ['order.orders.delivery_address'], letters, true],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryCity'], ['order.orders.delivery_city'], letters, true],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryState'], ['order.orders.delivery_state'], letters, true],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['deliveryZipcode'], ['order.orders.delivery_zipcode'], zipcode, true],
  ['PlaceOrderRequest', PlaceOrderRequest, order, ['note'], ['order.orders.note'], letters, true],
];

describe('each maximum fits its PostgreSQL column', () => {
  const widths = columnWidths();

  it('reads the column widths from the migrations', () => {
    expect(widths.get('catalog.products.image')).toBe(300);
    expect(widths.get('identity.users.address')).toBe(12);
    expect(widths.get('order.orders.note')).toBe(500);
  });

  it.each(STORED.map(([n, ...rest]) => [`${n} ${rest[2].join('.')}`, ...rest] as const))('%s', (_name, schema, valid, path, columns, valueOf, widthAccepted) => {
    const width = Math.min(
      ...columns.map((c) => {
        const w = widths.get(c);
        expect(w, `column ${c}`).toBeDefined();
        return w!;
      }),
    );
    const over = valueOf(width + 1);
    expect(over.length).toBe(width + 1);
    expect(messagesAt(schema, setAt(valid, path, over), path).length, `${width + 1} characters`).toBeGreaterThan(0);
    if (widthAccepted) {
      const full = valueOf(width);
      expect(messagesAt(schema, setAt(valid, path, full), path), `${width} characters`).toEqual([]);
      // Lengths count characters as PostgreSQL does: an emoji (two UTF-16 units) is one.
      if (valueOf === letters) {
        expect(messagesAt(schema, setAt(valid, path, '😀'.repeat(width)), path)).toEqual([]);
        expect(messagesAt(schema, setAt(valid, path, '😀'.repeat(width + 1)), path).length).toBeGreaterThan(0);
      }
    }
  });
});

// ---- numbers are numbers

const NOT_JSON_NUMBERS: unknown[] = ['3', '0x10', '1e3', ' 3', '', true, false, [1], {}, null, Number.NaN, Number.POSITIVE_INFINITY];

describe('numeric body fields take JSON numbers only', () => {
  const cartAdd = { type: 'RENT', productID: UUID, quantity: 2, noOfRentalDays: 3 };
  const bulk = { ...order, typeOfOrder: 'BULK', lines: [{ productID: UUID, quantity: 2, noOfRentalDays: 3 }] };
  const stock = { productID: UUID, warehouseBinID: UUID, quantity: 5 };
  const cases: Array<[string, z.ZodType, unknown, Path]> = [
    ['CartAddRequest', CartAddRequest, cartAdd, ['quantity']],
    ['CartAddRequest', CartAddRequest, cartAdd, ['noOfRentalDays']],
    ['CartUpdateRequest', CartUpdateRequest, { quantity: 1, noOfRentalDays: 2 }, ['quantity']],
    ['CartUpdateRequest', CartUpdateRequest, { quantity: 1, noOfRentalDays: 2 }, ['noOfRentalDays']],
    ['PlaceOrderRequest', PlaceOrderRequest, bulk, ['lines', 0, 'quantity']],
    ['PlaceOrderRequest', PlaceOrderRequest, bulk, ['lines', 0, 'noOfRentalDays']],
    ['AddStockRequest', AddStockRequest, stock, ['quantity']],
  ];

  it.each(cases.map(([n, ...rest]) => [`${n} ${rest[2].join('.')}`, ...rest] as const))('%s', (_name, schema, valid, path) => {
    expect(schema.safeParse(valid).error?.issues ?? []).toEqual([]);
    expect(getAt(schema.parse(valid), path)).toBe(getAt(valid, path));
    for (const bad of [...NOT_JSON_NUMBERS, 1.5, 0, -1, 100_000]) {
      expect(messagesAt(schema, setAt(valid, path, bad), path).length, JSON.stringify(bad) ?? String(bad)).toBeGreaterThan(0);
    }
  });

  it('keeps the messages of each field', () => {
    expect(messagesAt(CartAddRequest, setAt(cartAdd, ['quantity'], '3'), ['quantity'])).toEqual(['Quantity must be at least 1.']);
    expect(messagesAt(CartAddRequest, setAt(cartAdd, ['quantity'], 501), ['quantity'])).toEqual(['Quantity must be at most 500.']);
    expect(messagesAt(CartAddRequest, setAt(cartAdd, ['noOfRentalDays'], '3'), ['noOfRentalDays'])).toEqual(['Rental days must be at least 1.']);
    expect(messagesAt(AddStockRequest, setAt(stock, ['quantity'], undefined), ['quantity'])).toEqual(['Please input Quantity!']);
    expect(messagesAt(AddStockRequest, setAt(stock, ['quantity'], ''), ['quantity'])).toEqual(['Please input Quantity!']);
    expect(messagesAt(AddStockRequest, setAt(stock, ['quantity'], '5'), ['quantity'])).toEqual(['Quantity must be a whole number from 1 to 500.']);
    expect(messagesAt(AddStockRequest, setAt(stock, ['quantity'], 501), ['quantity'])).toEqual(['Quantity must be a whole number from 1 to 500.']);
  });

  it('money stays a two-decimal string, or a finite number with at most two decimals', () => {
    const at = (v: unknown) => ProductRequest.safeParse({ ...product, price: v });
    expect(at('25.00').data?.price).toBe(2500);
    expect(at(' 25.5 ').data?.price).toBe(2550);
    expect(at(25).data?.price).toBe(2500);
    expect(at(25.5).data?.price).toBe(2550);
    for (const bad of ['0x10', '1e3', '25.001', 25.001, '-1', '', 'a\u0000', true, [1], null, Number.NaN, Number.POSITIVE_INFINITY, 1e21]) {
      expect(at(bad).success, String(bad)).toBe(false);
    }
  });
});

describe('numbers in query strings are plain decimal digits', () => {
  const queries: Array<[string, z.ZodType]> = [
    ['UserListQuery', UserListQuery],
    ['EmployeeListQuery', EmployeeListQuery],
    ['BinListQuery', BinListQuery],
    ['ProductListQuery', ProductListQuery],
    ['AdminProductListQuery', AdminProductListQuery],
    ['StockListQuery', StockListQuery],
    ['MyOrderListQuery', MyOrderListQuery],
  ];

  it.each(queries)('%s: limit and offset', (_name, schema) => {
    expect(schema.parse({})).toMatchObject({ limit: 100, offset: 0 });
    expect(schema.parse({ limit: '10', offset: '20' })).toMatchObject({ limit: 10, offset: 20 });
    expect(schema.parse({ limit: '100', offset: '0' })).toMatchObject({ limit: 100, offset: 0 });
    for (const bad of ['0x10', '1e3', ' 3', '3 ', '+3', '-1', '1.0', '', '0', '101', '1234567890', ['1', '2'], 10, true]) {
      expect(messagesAt(schema, { limit: bad }, ['limit']).length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
    for (const bad of ['0x10', '1e3', ' 3', '-1', '1.5', '', ['1'], 5]) {
      expect(messagesAt(schema, { offset: bad }, ['offset']).length, JSON.stringify(bad)).toBeGreaterThan(0);
    }
  });
});
