/**
 * THE mapping of the old client's `.php` calls (SPEC §7) onto the REST routes (issue 12), one row
 * per legacy method + path: what it does (its success status), who may call it (the access of
 * the REST route it maps to, from the route table), its query and body as the old client sends
 * them, the REST routes it calls, and the handler that translates. Served as documentation at
 * /api/docs/legacy and as the 'legacy' tag of /api/openapi.json.
 *
 * Fields the old client sends but must not decide (totalAmount, createdBy, customerID,
 * accommodatedBy, overallTotal, extraCharge, dueDate, statuses on payment update...) are declared
 * as anything (`ignored`) and never forwarded: the server computes them.
 */
import { z } from 'zod';
import {
  AddressFields,
  AddStockRequest,
  BinRequest,
  BulkLine,
  CATALOG_MESSAGES,
  CART_TYPES,
  CartAddRequest,
  ConfirmPaymentRequest,
  CreateRequestBody,
  EMPLOYEE_TYPES,
  EmployeeUpdateRequest,
  LoginRequest,
  manilaDate,
  ORDER_STATUSES,
  ORDER_TYPES,
  PAYMENT_STATUSES,
  PRODUCT_TYPES,
  ProductRequest,
  RegisterRequest,
  RENTAL_MESSAGES,
  RETURN_STATUSES,
  ROUTES,
  StatusChangeRequest,
  text,
  UpdateRequestBody,
  USER_TYPE_FILTER_VALUES,
  USER_TYPES,
  type Access,
  type RouteId,
} from '@dme/contracts';
import { randomUUID } from 'node:crypto';
import { badRequest, conflict, forbidden, HttpProblem } from '@dme/platform';
import type { Caller, Rest } from './client';
import {
  cartCheckout,
  cartLineName,
  describeLine,
  driverPurposes,
  LEGACY_REPORTS,
  matchLines,
  orderLines,
  packingOf,
  payloadOf,
  reportRange,
  type CartLineRef,
  type LegacyKind,
  type LineRefOfOrder,
} from './mapping';

/** What a handler gets: the query, the body as sent (validated), the REST API, the request headers. */
export interface LegacyInput {
  query: URLSearchParams;
  body: Record<string, unknown>;
  raw?: { contentType: string; bytes: Buffer };
  rest: Rest;
  header: (name: string) => string;
}

export interface LegacyCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  kind: LegacyKind;
  /** Who may call it: checked before the body is read (as the gateway does), and again by every REST route it calls. */
  access: Access;
  summary: string;
  /** The REST routes it calls (documentation: each with its permission). */
  rest: RouteId[];
  query?: z.ZodObject;
  /** A JSON body (validated with this schema before any REST call), multipart, or a body that is read by nobody. */
  body?: z.ZodType | 'multipart' | 'ignored';
  handle: (input: LegacyInput) => Promise<unknown>;
}

// ---------------------------------------------------------------- helpers

const ignored = z.unknown().optional();
const uuid = z.string().uuid({ error: 'Not found.' });
const idQuery = z.object({ id: uuid });
const MAX_PAGES = 10;

/** A query value; empty counts as absent (the old client sends `?type=` for "all"). */
function opt(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

function need(q: URLSearchParams, name: string): string {
  const v = opt(q, name);
  if (v === undefined) throw badRequest(`The ${name} query parameter is required.`, [{ field: name, message: `The ${name} query parameter is required.` }]);
  return v;
}

const has = (c: Caller | undefined, permission: string) => Boolean(c?.permissions.includes(permission));

/** Every page of a paginated REST list (up to MAX_PAGES × 100 items: the old lists are unpaginated). */
async function all(rest: Rest, id: RouteId, query: Record<string, string | undefined> = {}): Promise<unknown[]> {
  const items: unknown[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const r = await rest.call(id, { query: { ...query, limit: '100', offset: String(items.length) } });
    const body = r.body as { items: unknown[]; total: number };
    items.push(...body.items);
    if (body.items.length === 0 || items.length >= body.total) break;
  }
  return items;
}

const data = async (p: Promise<{ body: unknown }>) => payloadOf((await p).body);

/** Keeps the keys of `from` that `keys` names (and that were sent). */
function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

const PERSON = ['firstName', 'middleName', 'lastName', 'suffix', 'birthDate', 'gender', 'contactNumber', 'email', 'address', 'city', 'state', 'zipcode', 'image'] as const;

/** The old client's Idempotency-Key when it sends one, else a new one for this call. */
const idempotencyKey = (input: LegacyInput) => input.header('idempotency-key') || randomUUID();

type Order = { id: string; customerID: string; status: string; requests: unknown[]; products: LineRefOfOrder[] };

/** An order as the caller may read it: staff, driver or its customer (REST decides 401/403/404). */
async function readOrder(rest: Rest, id: string): Promise<Order> {
  const me = await rest.me();
  const route: RouteId = has(me, 'order:read') ? 'staffOrdersGet' : has(me, 'order:drive') ? 'driverOrdersGet' : 'myOrdersGet';
  return ((await rest.call(route, { params: { id } })).body as { order: Order }).order;
}

/** A filter naming another user than the caller: refused (a customer or driver lists their own only). */
function ownOnly(me: Caller | undefined, userID: string | undefined, what: string): void {
  if (userID !== undefined && me && userID !== me.user.id) throw forbidden(`You can only see your own ${what}.`);
}

// ---------------------------------------------------------------- schemas of the old bodies

const UserCreateBody = RegisterRequest.extend({
  userType: z.enum(USER_TYPES, { error: 'Unknown user type.' }).optional(),
  position: text({ max: 80 }).optional(),
  status: ignored,
  id: ignored,
  idNumber: ignored,
  loginStatus: ignored,
});

/** The full user as the old client sends it: a customer's userType and empty position too (the employee route checks its own). */
const UserUpdateBody = EmployeeUpdateRequest.partial().extend({
  userType: z.enum(USER_TYPES, { error: 'Unknown user type.' }).optional(),
  position: text({ max: 80 }).optional(),
  status: StatusChangeRequest.shape.status.optional(),
  id: ignored,
  idNumber: ignored,
  username: ignored,
  password: ignored,
  loginStatus: ignored,
  createdAt: ignored,
  updatedAt: ignored,
});

const CartCreateBody = z.object({
  ...CartAddRequest.shape,
  noOfRentalDays: BulkLine.shape.noOfRentalDays.nullable(),
  createdBy: ignored,
});

const OrderSub = z.object({
  id: uuid.optional(),
  productSubVariantID: uuid.optional(),
  quantity: BulkLine.shape.quantity.optional(),
  noOfRentalDays: BulkLine.shape.noOfRentalDays.nullable(),
});
const OrderVariant = OrderSub.omit({ productSubVariantID: true }).extend({
  productVariantID: uuid.optional(),
  subVariants: z.array(OrderSub).max(100).optional(),
});
const OrderProduct = z.object({
  id: uuid.optional(),
  productID: uuid.optional(),
  productVariantID: uuid.nullish(),
  productSubVariantID: uuid.nullish(),
  quantity: BulkLine.shape.quantity.optional(),
  noOfRentalDays: BulkLine.shape.noOfRentalDays.nullable(),
  variants: z.array(OrderVariant).max(100).optional(),
});
const OrderCreateBody = z.object({
  type: z.enum(ORDER_TYPES, { error: 'Please choose rent or buy.' }),
  /** BULK: the products are the order; absent, null or empty: the checkout of those cart lines. */
  typeOfOrder: z.enum(['BULK', ''], { error: 'typeOfOrder is BULK for a bulk order, or left out for an order from the cart.' }).nullish(),
  totalAmount: ignored,
  createdBy: ignored,
  customerID: ignored,
  status: ignored,
  ...AddressFields,
  products: z.array(OrderProduct, { error: 'Add at least one product to the order.' }).min(1, { error: 'Add at least one product to the order.' }).max(100),
});

const OrderUpdateBody = z.object({
  status: z.enum(ORDER_STATUSES, { error: 'Unknown status.' }),
  products: ignored,
  driverID: ignored,
  totalAmount: ignored,
  customerID: ignored,
  type: ignored,
  totalPartialPayment: ignored,
});

const RequestProduct = z.object({
  id: uuid.optional(),
  lineID: uuid.optional(),
  productID: uuid.optional(),
  productVariantID: uuid.nullish(),
  productSubVariantID: uuid.nullish(),
});
const RequestCreateBody = z.object({
  type: CreateRequestBody.shape.type,
  orderID: uuid.optional(),
  products: z.array(RequestProduct, { error: RENTAL_MESSAGES.selectProduct }).min(1, { error: RENTAL_MESSAGES.selectProduct }).max(100),
  note: CreateRequestBody.shape.note,
});

const RequestUpdateBody = z.object({ status: UpdateRequestBody.shape.status, orderID: uuid });

const PaymentUpdateBody = z.object({
  ...ConfirmPaymentRequest.shape,
  noteForFull: ConfirmPaymentRequest.shape.note.optional(),
  status: ignored,
  type: ignored,
  accommodatedBy: ignored,
  overallTotal: ignored,
  orderStatus: ignored,
  orderType: ignored,
  orderID: ignored,
  extraCharge: ignored,
  dueDate: ignored,
});

const SerialUpdateBody = z.object({ status: z.enum(RETURN_STATUSES, { error: 'Mark the serial code OK, LOST or DAMAGED.' }) });

// ---------------------------------------------------------------- the table

const calls: LegacyCall[] = [
  // ---- users
  {
    method: 'POST', path: '/users/create.php', kind: 'create', access: 'public', rest: ['authRegister', 'employeesCreate'],
    summary: 'A customer (anonymous or CUSTOMER userType) → POST /api/auth/register; a staff userType → POST /api/employees (the superadmin). 409 on a taken username',
    body: UserCreateBody,
    handle: async ({ rest, body }) => {
      const staff = typeof body.userType === 'string' && (EMPLOYEE_TYPES as readonly string[]).includes(body.userType);
      const person = pick(body, ['username', 'password', ...PERSON, 'age']);
      if (staff) return data(rest.call('employeesCreate', { body: { ...person, userType: body.userType, position: body.position } }));
      return data(rest.call('authRegister', { body: person }));
    },
  },
  {
    method: 'POST', path: '/users/login.php', kind: 'create', access: 'public', rest: ['authLogin'],
    summary: 'POST /api/auth/login: sets the session cookie; data = the user fields (and permissions)',
    body: LoginRequest,
    handle: async ({ rest, body }) => {
      const r = (await rest.call('authLogin', { body: pick(body, ['username', 'password']) })).body as Caller;
      return { ...r.user, permissions: r.permissions };
    },
  },
  {
    method: 'GET', path: '/users/get_all.php', kind: 'read', access: 'user:read', rest: ['usersList', 'employeesList'],
    summary: 'GET /api/users?userType= (customers, or everyone without userType); a staff userType → GET /api/employees?userType=',
    query: z.object({ userType: z.enum(USER_TYPE_FILTER_VALUES).optional() }),
    handle: async ({ rest, query }) => {
      const userType = opt(query, 'userType');
      const staff = userType !== undefined && (EMPLOYEE_TYPES as readonly string[]).includes(userType);
      return all(rest, staff ? 'employeesList' : 'usersList', { userType });
    },
  },
  {
    method: 'GET', path: '/users/get.php', kind: 'read', access: 'user:read', rest: ['usersGet'],
    summary: 'GET /api/users/:id (customers and staff)', query: idQuery,
    handle: ({ rest, query }) => data(rest.call('usersGet', { params: { id: need(query, 'id') } })),
  },
  {
    method: 'PATCH', path: '/users/update.php', kind: 'update', access: 'authenticated',
    rest: ['authMeUpdate', 'usersGet', 'usersUpdate', 'usersSetStatus', 'employeesUpdate', 'employeesSetStatus'],
    summary: 'Full user sent. A changed status → PATCH /api/users/:id/status (or /api/employees/:id/status); else the profile: PATCH /api/auth/me (own), PATCH /api/users/:id (a customer), PATCH /api/employees/:id (staff)',
    query: idQuery, body: UserUpdateBody,
    handle: async ({ rest, query, body }) => {
      const id = need(query, 'id');
      const me = await rest.requireMe();
      const own = id === me.user.id;
      const target = own ? me.user : ((await rest.call('usersGet', { params: { id } })).body as Caller).user;
      const staff = target.userType !== 'CUSTOMER';
      // Fields not sent keep their values (the old client sends the full user anyway).
      const merged = { ...pick(target, PERSON), ...pick(body, PERSON) };
      if (body.status !== undefined && body.status !== target.status) {
        return data(rest.call(staff ? 'employeesSetStatus' : 'usersSetStatus', { params: { id }, body: { status: body.status } }));
      }
      if (own) return data(rest.call('authMeUpdate', { body: merged }));
      if (!staff) return data(rest.call('usersUpdate', { params: { id }, body: merged }));
      return data(rest.call('employeesUpdate', { params: { id }, body: { ...merged, ...pick(target, ['userType', 'position']), ...pick(body, ['userType', 'position']) } }));
    },
  },
  {
    method: 'DELETE', path: '/users/delete.php', kind: 'delete', access: 'user:manage', rest: ['usersDelete'],
    summary: 'DELETE /api/users/:id (customers and staff; accounts with history are closed)', query: idQuery,
    handle: async ({ rest, query }) => {
      const id = need(query, 'id');
      await rest.call('usersDelete', { params: { id } });
      return { id };
    },
  },
  // ---- upload
  {
    method: 'POST', path: '/upload/upload.php', kind: 'create', access: 'public', rest: ['uploadsCreate'],
    summary: 'POST /api/uploads (multipart field "image"); data = the uploaded item with its imagePath',
    body: 'multipart',
    handle: ({ rest, raw }) => data(rest.call('uploadsCreate', { raw: raw! })),
  },
  // ---- warehouse bins
  {
    method: 'POST', path: '/warehousebins/create.php', kind: 'create', access: ROUTES.binsCreate.access, rest: ['binsCreate'],
    summary: 'POST /api/warehouse-bins', body: BinRequest,
    handle: ({ rest, body }) => data(rest.call('binsCreate', { body: pick(body, ['name', 'description']) })),
  },
  {
    method: 'GET', path: '/warehousebins/get_all.php', kind: 'read', access: ROUTES.binsList.access, rest: ['binsList'],
    summary: 'GET /api/warehouse-bins (every page)',
    handle: ({ rest }) => all(rest, 'binsList'),
  },
  {
    method: 'GET', path: '/warehousebins/get.php', kind: 'read', access: ROUTES.binsGet.access, rest: ['binsGet'],
    summary: 'GET /api/warehouse-bins/:id', query: idQuery,
    handle: ({ rest, query }) => data(rest.call('binsGet', { params: { id: need(query, 'id') } })),
  },
  {
    method: 'PATCH', path: '/warehousebins/update.php', kind: 'update', access: ROUTES.binsUpdate.access, rest: ['binsUpdate'],
    summary: 'PATCH /api/warehouse-bins/:id', query: idQuery, body: BinRequest,
    handle: ({ rest, query, body }) => data(rest.call('binsUpdate', { params: { id: need(query, 'id') }, body: pick(body, ['name', 'description']) })),
  },
  {
    method: 'DELETE', path: '/warehousebins/delete.php', kind: 'delete', access: ROUTES.binsDelete.access, rest: ['binsDelete'],
    summary: 'DELETE /api/warehouse-bins/:id (409 while it holds stock)', query: idQuery,
    handle: async ({ rest, query }) => {
      const id = need(query, 'id');
      await rest.call('binsDelete', { params: { id } });
      return { id };
    },
  },
  // ---- products
  {
    method: 'POST', path: '/products/create.php', kind: 'create', access: ROUTES.productsCreate.access, rest: ['productsCreate'],
    summary: 'POST /api/products', body: ProductRequest,
    handle: ({ rest, body }) => data(rest.call('productsCreate', { body })),
  },
  {
    method: 'GET', path: '/products/get_all.php', kind: 'read', access: 'public', rest: ['adminProductsList', 'productsList'],
    summary: 'Staff with product:manage → GET /api/admin/products?type= (counts per variant); everyone else → GET /api/products?type= (the shop list)',
    query: z.object({ type: z.enum(PRODUCT_TYPES).optional() }),
    handle: async ({ rest, query }) => {
      const staff = has(await rest.me(), 'product:manage');
      return all(rest, staff ? 'adminProductsList' : 'productsList', { type: opt(query, 'type') });
    },
  },
  {
    method: 'GET', path: '/products/get.php', kind: 'read', access: 'public', rest: ['adminProductsGet', 'productsGet'],
    summary: 'Staff with product:manage → GET /api/admin/products/:id; everyone else → GET /api/products/:id', query: idQuery,
    handle: async ({ rest, query }) => {
      const staff = has(await rest.me(), 'product:manage');
      return data(rest.call(staff ? 'adminProductsGet' : 'productsGet', { params: { id: need(query, 'id') } }));
    },
  },
  {
    method: 'PATCH', path: '/products/update.php', kind: 'update', access: ROUTES.productsUpdate.access, rest: ['productsUpdate'],
    summary: 'PATCH /api/products/:id', query: idQuery, body: ProductRequest,
    handle: ({ rest, query, body }) => data(rest.call('productsUpdate', { params: { id: need(query, 'id') }, body })),
  },
  {
    method: 'DELETE', path: '/products/delete.php', kind: 'delete', access: ROUTES.productsDelete.access, rest: ['productsDelete'],
    summary: 'DELETE /api/products/:id (archived instead when it has stock or orders)', query: idQuery,
    handle: ({ rest, query }) => data(rest.call('productsDelete', { params: { id: need(query, 'id') } })),
  },
  // ---- stocks
  {
    method: 'POST', path: '/stocks/create.php', kind: 'create', access: ROUTES.stocksCreate.access, rest: ['stocksCreate'],
    summary: 'POST /api/stocks (serial-coded items; data = { batchID, items })', body: AddStockRequest,
    handle: ({ rest, body }) => data(rest.call('stocksCreate', { body: pick(body, ['productID', 'warehouseBinID', 'quantity', 'productVariantID', 'productSubVariantID']) })),
  },
  {
    method: 'GET', path: '/stocks/get_all.php', kind: 'read', access: ROUTES.stocksList.access, rest: ['stocksList'],
    summary: 'GET /api/stocks?productID&productVariantID&productSubVariantID&warehouseBinID (every page)',
    query: z.object({ productID: uuid.optional(), productVariantID: uuid.optional(), productSubVariantID: uuid.optional(), warehouseBinID: uuid.optional() }),
    handle: ({ rest, query }) =>
      all(rest, 'stocksList', {
        productID: opt(query, 'productID'),
        productVariantID: opt(query, 'productVariantID'),
        productSubVariantID: opt(query, 'productSubVariantID'),
        warehouseBinID: opt(query, 'warehouseBinID'),
      }),
  },
  {
    method: 'GET', path: '/stocks/get.php', kind: 'read', access: ROUTES.stocksGet.access, rest: ['stocksGet'],
    summary: 'GET /api/stocks/:id', query: idQuery,
    handle: ({ rest, query }) => data(rest.call('stocksGet', { params: { id: need(query, 'id') } })),
  },
  ...(['update', 'delete'] as const).map(
    (what): LegacyCall => ({
      method: what === 'update' ? 'PATCH' : 'DELETE', path: `/stocks/${what}.php`, kind: what, access: ROUTES.stocksCreate.access, rest: ['stocksGet'],
      summary: `409: stock cannot be ${what === 'update' ? 'modified' : 'deleted'} after submission (SPEC §5), after the permission check of POST /api/stocks and GET /api/stocks/:id (404)`,
      query: idQuery, body: what === 'update' ? 'ignored' : undefined,
      handle: async ({ rest, query }) => {
        await rest.call('stocksGet', { params: { id: need(query, 'id') } });
        throw conflict(CATALOG_MESSAGES.stock.warning);
      },
    }),
  ),
  // ---- cart (the caller's own)
  {
    method: 'POST', path: '/cart/create.php', kind: 'create', access: ROUTES.cartAdd.access, rest: ['cartAdd'],
    summary: 'POST /api/cart (createdBy ignored: the cart is the caller\'s)', body: CartCreateBody,
    handle: ({ rest, body }) =>
      data(rest.call('cartAdd', {
        body: {
          ...pick(body, ['productID', 'productVariantID', 'productSubVariantID', 'quantity', 'type']),
          ...(body.type === 'RENT' && body.noOfRentalDays !== null ? { noOfRentalDays: body.noOfRentalDays } : {}),
        },
      })),
  },
  {
    method: 'GET', path: '/cart/get_all.php', kind: 'read', access: ROUTES.cartList.access, rest: ['cartList'],
    summary: 'GET /api/cart?type= (userID must be the caller: 403 otherwise)',
    query: z.object({ userID: uuid.optional(), type: z.enum(CART_TYPES) }),
    handle: async ({ rest, query }) => {
      const r = await rest.call('cartList', { query: { type: opt(query, 'type') } });
      ownOnly(await rest.me(), opt(query, 'userID'), 'cart');
      return payloadOf(r.body);
    },
  },
  {
    method: 'DELETE', path: '/cart/delete.php', kind: 'delete', access: ROUTES.cartRemove.access, rest: ['cartRemove'],
    summary: 'DELETE /api/cart/:id', query: idQuery,
    handle: async ({ rest, query }) => {
      const id = need(query, 'id');
      await rest.call('cartRemove', { params: { id } });
      return { id };
    },
  },
  // ---- orders
  {
    method: 'POST', path: '/orders/create.php', kind: 'create', access: ROUTES.ordersPlace.access, rest: ['cartList', 'ordersPlace'],
    summary:
      'typeOfOrder BULK → POST /api/orders as a BULK order with lines from the nested products (the cart is not touched). Otherwise the checkout of cart lines: ' +
      'GET /api/cart?type, each product (product / variant / sub-variant, or a cart line id) matched to its cart line, then POST /api/orders { cartItemIDs } (those lines leave the cart); ' +
      'a product not in the cart → 400 naming it, a quantity or rental days other than the cart line\'s → 409. Idempotency-Key: the client\'s or a new one; totalAmount and createdBy ignored: the server computes the total',
    body: OrderCreateBody,
    handle: async (input) => {
      const { rest, body } = input;
      const type = body.type as 'BUY' | 'RENT';
      const products = body.products as unknown[];
      const address = pick(body, ['deliveryAddress', 'deliveryCity', 'deliveryState', 'deliveryZipcode', 'note']);
      const headers = { 'idempotency-key': idempotencyKey(input) };
      if (body.typeOfOrder === 'BULK') {
        return data(rest.call('ordersPlace', { body: { type, typeOfOrder: 'BULK', lines: orderLines(products, type), ...address }, headers }));
      }
      const cart = payloadOf((await rest.call('cartList', { query: { type } })).body) as CartLineRef[];
      const { cartItemIDs, notInCart, changed } = cartCheckout(products, type, cart);
      if (notInCart.length) {
        const where = type === 'RENT' ? 'your rental cart' : 'your purchase cart';
        const names = notInCart.map((n) => describeLine(n.line));
        throw badRequest(
          `${names.length === 1 ? `${names[0]} is` : `${names.join('; ')} are`} not in ${where}. An order without typeOfOrder BULK orders lines of the cart: add ${names.length === 1 ? 'it' : 'them'} to the cart first, or send typeOfOrder BULK.`,
          notInCart.map((n) => ({ field: `products.${n.index}`, message: `${describeLine(n.line)} is not in ${where}.` })),
        );
      }
      if (changed.length) {
        const what = (c: (typeof changed)[number]) =>
          c.field === 'quantity' ? `${cartLineName(c.item)} is in your cart with quantity ${c.item.quantity}, not ${c.sent}` : `${cartLineName(c.item)} is in your cart for ${c.item.noOfRentalDays} rental days, not ${c.sent}`;
        throw new HttpProblem(
          409,
          `Your cart has changed: ${changed.map(what).join('; ')}. Reload the cart and confirm the order again.`,
          changed.map((c) => ({ field: `products.${c.index}.${c.field}`, message: `${what(c)}.` })),
        );
      }
      return data(rest.call('ordersPlace', { body: { type, cartItemIDs, ...address }, headers }));
    },
  },
  {
    method: 'GET', path: '/orders/get_all.php', kind: 'read', access: 'authenticated', rest: ['staffOrdersList', 'driverOrdersList', 'myOrdersList'],
    summary: 'Staff → GET /api/orders?type&status (userID filters the customer); a driver → GET /api/driver/orders?purpose (OUT_FOR_DELIVERY → DELIVERY, FOR_PICK_UP → PICKUP); a customer → GET /api/my/orders?type&status (userID / driverID must be the caller)',
    query: z.object({ type: z.enum(ORDER_TYPES).optional(), status: z.enum(ORDER_STATUSES).optional(), driverID: uuid.optional(), userID: uuid.optional() }),
    handle: async ({ rest, query }) => {
      const me = await rest.me();
      const type = opt(query, 'type');
      const status = opt(query, 'status');
      const userID = opt(query, 'userID');
      if (has(me, 'order:read')) {
        const items = (await all(rest, 'staffOrdersList', { type, status })) as Array<{ customerID: string }>;
        return userID ? items.filter((o) => o.customerID === userID) : items;
      }
      if (has(me, 'order:drive')) {
        ownOnly(me, opt(query, 'driverID'), 'deliveries');
        const out: Array<{ type: string; status: string }> = [];
        for (const purpose of driverPurposes(status)) out.push(...((await all(rest, 'driverOrdersList', { purpose })) as typeof out));
        return out.filter((o) => (!type || o.type === type) && (!status || o.status === status));
      }
      const items = await all(rest, 'myOrdersList', { type, status });
      ownOnly(me, userID, 'orders');
      return items;
    },
  },
  {
    method: 'GET', path: '/orders/get.php', kind: 'read', access: 'authenticated', rest: ['staffOrdersGet', 'driverOrdersGet', 'myOrdersGet'],
    summary: 'Staff → GET /api/orders/:id; a driver → GET /api/driver/orders/:id; a customer → GET /api/my/orders/:id (another\'s → 404). Each product\'s serialCodes are SPEC §3 serial code entries: id, serialCode, productID, status (OK/LOST/DAMAGED once returned), updatedAt (return time), inventoryType, warehouseBin { name }, createdAt', query: idQuery,
    handle: ({ rest, query }) => readOrder(rest, need(query, 'id')),
  },
  {
    method: 'PATCH', path: '/orders/update.php', kind: 'update', access: 'authenticated', rest: ['ordersTransition', 'staffOrdersGet'],
    summary: 'POST /api/orders/:id/transitions { to: status } as the process table allows the caller (403/409 otherwise); to TO_SHIP the products\' serialCodes are the packing (without them, the codes saved while scanning, GET /api/orders/:id/packing). driverID, totalAmount, customerID, totalPartialPayment ignored',
    query: idQuery, body: OrderUpdateBody,
    handle: async ({ rest, query, body }) => {
      const id = need(query, 'id');
      let packing: ReturnType<typeof packingOf> | undefined;
      if (body.status === 'TO_SHIP' && Array.isArray(body.products)) {
        const order = ((await rest.call('staffOrdersGet', { params: { id } })).body as { order: Order }).order;
        packing = packingOf(body.products, order.products);
      }
      return data(rest.call('ordersTransition', { params: { id }, body: { to: body.status, ...(packing?.length ? { packing } : {}) } }));
    },
  },
  {
    method: 'DELETE', path: '/orders/delete.php', kind: 'delete', access: 'authenticated', rest: ['ordersTransition'],
    summary: 'A cancellation: POST /api/orders/:id/transitions { to: CANCELLED } (the owner or staff, while PENDING or FOR_PAYMENT; 409 otherwise)', query: idQuery,
    handle: ({ rest, query }) => data(rest.call('ordersTransition', { params: { id: need(query, 'id') }, body: { to: 'CANCELLED' } })),
  },
  {
    method: 'PATCH', path: '/orders_product_serial_code/update.php', kind: 'update', access: ROUTES.orderSerialReturn.access, rest: ['orderSerialReturn'],
    summary: 'POST /api/orders/:id/serials/:serialCode/return { status } (productID ignored)',
    query: z.object({ id: uuid, serialCode: text({ max: 40 }), productID: uuid.optional() }), body: SerialUpdateBody,
    handle: ({ rest, query, body }) =>
      data(rest.call('orderSerialReturn', { params: { id: need(query, 'id'), serialCode: need(query, 'serialCode') }, body: { status: body.status } })),
  },
  // ---- requests
  {
    method: 'POST', path: '/requests/create.php', kind: 'create', access: ROUTES.myOrderRequestsCreate.access, rest: ['myOrdersGet', 'myOrderRequestsCreate'],
    summary: 'GET /api/my/orders/:id, the products sent matched to its lines (by line id, or product / variant / sub-variant), then POST /api/my/orders/:id/requests { type, lineIDs, note }',
    query: z.object({ id: uuid.optional() }), body: RequestCreateBody,
    handle: async ({ rest, query, body }) => {
      const id = opt(query, 'id') ?? (typeof body.orderID === 'string' ? body.orderID : undefined);
      if (!id) throw badRequest('The id query parameter (the order) is required.', [{ field: 'id', message: 'The id query parameter (the order) is required.' }]);
      const order = ((await rest.call('myOrdersGet', { params: { id } })).body as { order: Order }).order;
      const { lineIDs, unmatched } = matchLines(body.products as unknown[], order.products);
      if (unmatched.length) throw badRequest(RENTAL_MESSAGES.unknownLine, unmatched.map((i) => ({ field: `products.${i}`, message: RENTAL_MESSAGES.unknownLine })));
      return data(rest.call('myOrderRequestsCreate', { params: { id }, body: { type: body.type, lineIDs, note: body.note ?? '' } }));
    },
  },
  {
    method: 'GET', path: '/requests/get_all.php', kind: 'read', access: 'authenticated', rest: ['staffOrdersGet', 'myOrdersGet'],
    summary: "The order's requests: staff → GET /api/orders/:id, a customer → GET /api/my/orders/:id (id = the order)", query: idQuery,
    handle: async ({ rest, query }) => (await readOrder(rest, need(query, 'id'))).requests,
  },
  {
    method: 'PATCH', path: '/requests/update.php', kind: 'update', access: ROUTES.orderRequestsUpdate.access, rest: ['orderRequestsUpdate'],
    summary: 'PATCH /api/orders/:orderID/requests/:id { status } (ON_PROGRESS, then DONE)', query: idQuery, body: RequestUpdateBody,
    handle: ({ rest, query, body }) =>
      data(rest.call('orderRequestsUpdate', { params: { id: String(body.orderID), requestId: need(query, 'id') }, body: { status: body.status } })),
  },
  // ---- payments
  {
    method: 'GET', path: '/payments/get_all.php', kind: 'read', access: ROUTES.paymentsList.access, rest: ['paymentsList'],
    summary: 'GET /api/payments?status= (every page)', query: z.object({ status: z.enum(PAYMENT_STATUSES).optional() }),
    handle: ({ rest, query }) => all(rest, 'paymentsList', { status: opt(query, 'status') }),
  },
  {
    method: 'GET', path: '/payments/get.php', kind: 'read', access: ROUTES.paymentsGet.access, rest: ['paymentsGet', 'paymentsByOrder'],
    summary: 'GET /api/payments/:id, or with ?orderID GET /api/orders/:orderID/payment',
    query: z.object({ id: uuid.optional(), orderID: uuid.optional() }),
    handle: ({ rest, query }) => {
      const id = opt(query, 'id');
      if (id) return data(rest.call('paymentsGet', { params: { id } }));
      return data(rest.call('paymentsByOrder', { params: { id: need(query, 'orderID') } }));
    },
  },
  {
    method: 'GET', path: '/payment_records/get_all.php', kind: 'read', access: ROUTES.paymentsGet.access, rest: ['paymentsGet'],
    summary: "The payment's records: GET /api/payments/:paymentID", query: z.object({ paymentID: uuid }),
    handle: async ({ rest, query }) => ((await rest.call('paymentsGet', { params: { id: need(query, 'paymentID') } })).body as { payment: { records: unknown[] } }).payment.records,
  },
  {
    method: 'PATCH', path: '/payments/update.php', kind: 'update', access: ROUTES.paymentsConfirm.access, rest: ['paymentsConfirm'],
    summary: 'POST /api/payments/:id/confirm { invoiceNumber, receiptNumber, note (or noteForFull) } with an Idempotency-Key; status, type, accommodatedBy, overallTotal, extraCharge, dueDate, orderStatus... ignored: the server computes them',
    query: idQuery, body: PaymentUpdateBody,
    handle: (input) => {
      const { rest, query, body } = input;
      const note = body.note !== undefined && body.note !== '' ? body.note : (body.noteForFull ?? '');
      return data(rest.call('paymentsConfirm', {
        params: { id: need(query, 'id') },
        body: { invoiceNumber: body.invoiceNumber, receiptNumber: body.receiptNumber, note },
        headers: { 'idempotency-key': idempotencyKey(input) },
      }));
    },
  },
  // ---- reports
  ...Object.entries(LEGACY_REPORTS).map(
    ([file, report]): LegacyCall => ({
      method: 'GET', path: `/reports/${file}.php`, kind: 'read', access: ROUTES.reportsGet.access, rest: ['reportsGet'],
      summary: `GET /api/reports/${report}?from&to (default: the last 366 days ending today in Manila); every page of rows`,
      query: z.object({ from: z.string().optional(), to: z.string().optional() }),
      handle: async ({ rest, query }) => {
        const range = reportRange(opt(query, 'from'), opt(query, 'to'), manilaDate());
        let first: { rows: unknown[]; total: number } | undefined;
        const rows: unknown[] = [];
        for (let page = 0; page < MAX_PAGES; page++) {
          const r = (await rest.call('reportsGet', { params: { report }, query: { ...range, limit: '500', offset: String(rows.length) } })).body as { rows: unknown[]; total: number };
          first ??= r;
          rows.push(...r.rows);
          if (r.rows.length === 0 || rows.length >= r.total) break;
        }
        return { ...first, rows };
      },
    }),
  ),
];

export const LEGACY_CALLS: readonly LegacyCall[] = calls;

/** Legacy call by path, then by method. */
export const LEGACY_BY_PATH: ReadonlyMap<string, ReadonlyMap<string, LegacyCall>> = (() => {
  const m = new Map<string, Map<string, LegacyCall>>();
  for (const c of calls) {
    const byMethod = m.get(c.path) ?? new Map<string, LegacyCall>();
    if (byMethod.has(c.method)) throw new Error(`legacy table: ${c.method} ${c.path} twice`);
    byMethod.set(c.method, c);
    m.set(c.path, byMethod);
  }
  return m;
})();

/** The table as documentation (GET /api/docs/legacy). */
export function legacyDocs() {
  return {
    title: 'Legacy .php API (SPEC §7) over the REST API',
    description:
      'Each old call is translated into calls of the REST routes through this gateway (same session cookie, permissions, object checks, validation and totals). ' +
      'Success: 200 for reads, creates and deletes, 201 for updates, body { status, message: "success", data }. ' +
      'Errors: the REST status and problem+json body, plus `message` and `error` (both = detail; an upload and the reports are read by `error`). Unknown .php path: 404; wrong method: 405.',
    calls: calls.map((c) => ({
      method: c.method,
      path: c.path,
      successStatus: c.kind === 'update' ? 201 : 200,
      access: c.access,
      summary: c.summary,
      query: c.query ? Object.keys(c.query.shape) : [],
      rest: c.rest.map((id) => ({ id, method: ROUTES[id].method, path: ROUTES[id].path, access: ROUTES[id].access })),
    })),
  };
}
