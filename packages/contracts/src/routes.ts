import { z } from 'zod';
import type { Access } from './permissions';
import {
  EmployeeCreateRequest,
  EmployeeListQuery,
  EmployeeUpdateRequest,
  AccountMessageResponse,
  ChangePasswordRequest,
  ForgotPasswordRequest,
  PreferencesRequest,
  PreferencesResponse,
  IdParams,
  Pagination,
  LoginRequest,
  MeResponse,
  ProfileUpdateRequest,
  RegisterRequest,
  ResetPasswordRequest,
  StatusChangeRequest,
  TokenRequest,
  UserListQuery,
  UserListResponse,
  UserResponse,
} from './identity';
import { MessageIdParams, MessageListQuery, MessageListResponse, MessageResponse } from './outbox-messages';
import { UploadNameParams, UploadResponse } from './uploads';
import { AtRiskResponse, AvailabilityBatchQuery, AvailabilityBatchResponse, AvailabilityQuery, AvailabilityResponse, CalendarQuery, CalendarResponse, DowntimeCreateRequest, DowntimeResponse } from './bookings';
import {
  AddStockRequest,
  AddStockResponse,
  AdminProductListQuery,
  BinListQuery,
  BinListResponse,
  BinRequest,
  BinResponse,
  ProductCardListResponse,
  ProductDeleteResponse,
  ProductListQuery,
  ProductListResponse,
  ProductRequest,
  ProductResponse,
  QrQuery,
  SerialParams,
  StockItemResponse,
  StockListQuery,
  StockListResponse,
} from './catalog';
import {
  CartAddRequest,
  CartItemResponse,
  CartQuery,
  CartResponse,
  CartUpdateRequest,
  MyOrderListQuery,
  OrderListResponse,
  OrderResponse,
  ExtendRentalResponse,
  PackingLineParams,
  PackingProgressResponse,
  PackingScanRequest,
  PackingSerialParams,
  PlaceOrderRequest,
  OrderQuoteRequest,
  OrderQuoteResponse,
  StaffOrderListQuery,
  TransitionRequest,
} from './ordering';
import { LateFeeWaiverRequest } from './rental-terms';
import {
  ConfirmPaymentRequest,
  OrderIdParams,
  PaymentListQuery,
  PaymentListResponse,
  PaymentResponse,
  ReconciliationRunResponse,
  ReconciliationRunsResponse,
  RecordInvoiceParams,
  RecordRefundRequest,
  RefundParams,
} from './payments';
import {
  CreateRequestBody,
  EndRentalEarlyBody,
  ExtendRentalBody,
  StaffRequestBody,
  DriverOrderListQuery,
  DriverScanRequest,
  HandoverResponse,
  DriverScanResponse,
  NoticeListResponse,
  OngoingRentalListQuery,
  OngoingRentalListResponse,
  OrderRequestResponse,
  RequestParams,
  SerialReturnParams,
  SerialReturnRequest,
  UpdateRequestBody,
} from './rentals';
import { HANDOVER_LIMITS } from './handover-constants';
import { AssignableDriversResponse, AssignmentRequest, DriverDayResponse, DriverStopOrderRequest } from './driver-day';
import { HandoverFileParams, HandoverRequest, TicketParams } from './handovers';
import { ExportParams, ReportExportResponse, ReportParams, ReportQuery, ReportRange, ReportResponse } from './reports';
import { BinAuditListResponse, BinAuditRequest, BinAuditResponse, CustodyExportQuery, OrderCustodyParams, RecallCreateRequest, RecallListQuery, RecallListResponse, RecallParams, RecallResponse, RecallSettleRequest, RecallUnitParams, UnitBoardQuery, UnitBoardResponse, UnitParams, UnitMoveRequest, UnitResponse, UnitStepRequest } from './units';

export const SERVICES = ['identity', 'catalog', 'order', 'payment', 'reporting'] as const;
export type ServiceName = (typeof SERVICES)[number];

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Rate limits the gateway applies to a route (beyond the global body limits). */
export type RateLimitName = 'login' | 'register' | 'upload';

export interface RouteDef {
  method: HttpMethod;
  /** Koa-style path, e.g. /api/users/:id. Services serve the same path. */
  path: string;
  service: ServiceName;
  /** Who may call it. Required: the gateway refuses to start with a route that has none. */
  access: Access;
  summary: string;
  tag: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** A raw (non-JSON) body, e.g. multipart; the service parses it. */
  rawBody?: 'multipart';
  response?: z.ZodType;
  /** Status of a successful answer (200 unless stated). */
  status?: number;
  /** A binary answer (files). */
  binary?: string;
  rateLimit?: RateLimitName;
  /** A JSON body larger than the usual JSON_BODY_LIMIT this route takes, in bytes (a hand-over's images). */
  jsonLimit?: number;
}

const NoContent = undefined;

/**
 * Every API route of the product. The gateway proxies and authorizes from this table, the
 * services mount their handlers by its keys, and the OpenAPI document is generated from it.
 */
export const ROUTES = {
  // ---- identity: auth
  authRegister: {
    method: 'POST', path: '/api/auth/register', service: 'identity', access: 'public', tag: 'auth',
    summary: 'Register a customer account', body: RegisterRequest, response: UserResponse, status: 201,
    rateLimit: 'register',
  },
  authLogin: {
    method: 'POST', path: '/api/auth/login', service: 'identity', access: 'public', tag: 'auth',
    summary: 'Sign in; sets the session cookie', body: LoginRequest, response: MeResponse, rateLimit: 'login',
  },
  authLogout: {
    method: 'POST', path: '/api/auth/logout', service: 'identity', access: 'public', tag: 'auth',
    summary: 'Sign out; ends the session and clears the cookie', status: 204, response: NoContent,
  },
  authMe: {
    method: 'GET', path: '/api/auth/me', service: 'identity', access: 'authenticated', tag: 'auth',
    summary: 'The signed-in user and their permissions', response: MeResponse,
  },
  authMeUpdate: {
    method: 'PATCH', path: '/api/auth/me', service: 'identity', access: 'authenticated', tag: 'auth',
    summary: 'Update my own profile (name, birth date, contact, address, image)', body: ProfileUpdateRequest, response: UserResponse,
  },
  // ---- identity: accounts (issue 24)
  authForgotPassword: {
    method: 'POST', path: '/api/auth/forgot-password', service: 'identity', access: 'public', tag: 'auth',
    summary: 'E-mail a password-reset link (the same answer whether the address has an account)', body: ForgotPasswordRequest,
    response: AccountMessageResponse, status: 202, rateLimit: 'register',
  },
  authResetPassword: {
    method: 'POST', path: '/api/auth/reset-password', service: 'identity', access: 'public', tag: 'auth',
    summary: "Set a new password with a reset link's token (once, within 30 minutes); ends every session of the account",
    body: ResetPasswordRequest, response: AccountMessageResponse, rateLimit: 'register',
  },
  authVerifyEmail: {
    method: 'POST', path: '/api/auth/verify-email', service: 'identity', access: 'public', tag: 'auth',
    summary: "Confirm an e-mail address with a confirmation link's token (once)", body: TokenRequest, response: AccountMessageResponse,
    rateLimit: 'register',
  },
  authResendVerification: {
    method: 'POST', path: '/api/auth/me/verification-email', service: 'identity', access: 'authenticated', tag: 'auth',
    summary: 'Send me a new e-mail confirmation link', response: AccountMessageResponse, status: 202,
  },
  authUnsubscribe: {
    method: 'POST', path: '/api/auth/unsubscribe', service: 'identity', access: 'public', tag: 'auth',
    summary: "Turn reminders off with the signed one-click link of a reminder e-mail (order and payment e-mails still come)",
    body: TokenRequest, response: AccountMessageResponse, rateLimit: 'register',
  },
  authPreferences: {
    method: 'PUT', path: '/api/auth/me/preferences', service: 'identity', access: 'authenticated', tag: 'auth',
    summary: 'Set my e-mail choices (reminders on or off)', body: PreferencesRequest, response: PreferencesResponse,
  },
  authChangePassword: {
    method: 'POST', path: '/api/auth/me/password', service: 'identity', access: 'authenticated', tag: 'auth',
    summary: 'Change my password (the current one is asked); my other sessions end', body: ChangePasswordRequest, response: AccountMessageResponse,
  },
  // ---- identity: users (customers and staff)
  usersList: {
    method: 'GET', path: '/api/users', service: 'identity', access: 'user:read', tag: 'users',
    summary: 'List users, optionally by user type', query: UserListQuery, response: UserListResponse,
  },
  usersGet: {
    method: 'GET', path: '/api/users/:id', service: 'identity', access: 'user:read', tag: 'users',
    summary: 'One user', params: IdParams, response: UserResponse,
  },
  usersUpdate: {
    method: 'PATCH', path: '/api/users/:id', service: 'identity', access: 'user:manage', tag: 'users',
    summary: "Update a customer's profile (the superadmin); staff are edited as employees", params: IdParams, body: ProfileUpdateRequest,
    response: UserResponse,
  },
  usersSetStatus: {
    method: 'PATCH', path: '/api/users/:id/status', service: 'identity', access: 'user:manage', tag: 'users',
    summary: 'Activate or deactivate a user (deactivation ends their sessions at once)',
    params: IdParams, body: StatusChangeRequest, response: UserResponse,
  },
  usersDelete: {
    method: 'DELETE', path: '/api/users/:id', service: 'identity', access: 'user:manage', tag: 'users',
    summary: 'Delete a user (see docs/decisions.md: accounts with history are closed, not erased)',
    params: IdParams, status: 204,
  },
  // ---- identity: employees
  employeesList: {
    method: 'GET', path: '/api/employees', service: 'identity', access: 'employee:read', tag: 'employees',
    summary: 'List employees', query: EmployeeListQuery, response: UserListResponse,
  },
  employeesCreate: {
    method: 'POST', path: '/api/employees', service: 'identity', access: 'employee:manage', tag: 'employees',
    summary: 'Create an employee', body: EmployeeCreateRequest, response: UserResponse, status: 201,
  },
  employeesGet: {
    method: 'GET', path: '/api/employees/:id', service: 'identity', access: 'employee:read', tag: 'employees',
    summary: 'One employee', params: IdParams, response: UserResponse,
  },
  employeesUpdate: {
    method: 'PATCH', path: '/api/employees/:id', service: 'identity', access: 'employee:manage', tag: 'employees',
    summary: 'Edit an employee (not username or password)', params: IdParams, body: EmployeeUpdateRequest,
    response: UserResponse,
  },
  employeesSetStatus: {
    method: 'PATCH', path: '/api/employees/:id/status', service: 'identity', access: 'employee:manage',
    tag: 'employees', summary: 'Activate or deactivate an employee', params: IdParams, body: StatusChangeRequest,
    response: UserResponse,
  },
  employeesDelete: {
    method: 'DELETE', path: '/api/employees/:id', service: 'identity', access: 'employee:manage', tag: 'employees',
    summary: 'Delete an employee', params: IdParams, status: 204,
  },
  // ---- identity: messages (issue 24)
  messagesList: {
    method: 'GET', path: '/api/messages', service: 'identity', access: 'message:read', tag: 'messages',
    summary: 'Every e-mail the shop sent or will send, newest first, by status and template, searched by recipient or subject',
    query: MessageListQuery, response: MessageListResponse,
  },
  messagesGet: {
    method: 'GET', path: '/api/messages/:id', service: 'identity', access: 'message:read', tag: 'messages',
    summary: 'One e-mail with its HTML and text bodies, Message-ID and the last SMTP answer', params: MessageIdParams,
    response: MessageResponse,
  },
  messagesResend: {
    method: 'POST', path: '/api/messages/:id/resend', service: 'identity', access: 'message:manage', tag: 'messages',
    summary: 'Queue a FAILED e-mail again, under the same Message-ID (409 unless it failed)', params: MessageIdParams,
    response: MessageResponse,
  },
  // ---- catalog: uploads (media)
  uploadsCreate: {
    method: 'POST', path: '/api/uploads', service: 'catalog', access: 'public', tag: 'uploads',
    summary: 'Upload one JPG or PNG image (multipart field "image")', rawBody: 'multipart',
    response: UploadResponse, status: 201, rateLimit: 'upload',
  },
  uploadsGet: {
    method: 'GET', path: '/api/uploads/:name', service: 'catalog', access: 'public', tag: 'uploads',
    summary: 'An uploaded image', params: UploadNameParams, binary: 'image/*',
  },
  // ---- catalog: warehouse bins
  binsList: {
    method: 'GET', path: '/api/warehouse-bins', service: 'catalog', access: 'bin:read', tag: 'warehouse-bins',
    summary: 'List warehouse bins with their stock count', query: BinListQuery, response: BinListResponse,
  },
  binsCreate: {
    method: 'POST', path: '/api/warehouse-bins', service: 'catalog', access: 'bin:manage', tag: 'warehouse-bins',
    summary: 'Create a warehouse bin', body: BinRequest, response: BinResponse, status: 201,
  },
  binsGet: {
    method: 'GET', path: '/api/warehouse-bins/:id', service: 'catalog', access: 'bin:read', tag: 'warehouse-bins',
    summary: 'One warehouse bin', params: IdParams, response: BinResponse,
  },
  binsUpdate: {
    method: 'PATCH', path: '/api/warehouse-bins/:id', service: 'catalog', access: 'bin:manage', tag: 'warehouse-bins',
    summary: 'Edit a warehouse bin', params: IdParams, body: BinRequest, response: BinResponse,
  },
  binsDelete: {
    method: 'DELETE', path: '/api/warehouse-bins/:id', service: 'catalog', access: 'bin:manage', tag: 'warehouse-bins',
    summary: 'Delete an empty warehouse bin (409 when it holds stock)', params: IdParams, status: 204,
  },
  binsStocks: {
    method: 'GET', path: '/api/warehouse-bins/:id/stocks', service: 'catalog', access: 'stock:read', tag: 'warehouse-bins',
    summary: 'Stock items in a bin', params: IdParams, query: StockListQuery, response: StockListResponse,
  },
  // ---- catalog: products (reads are public)
  productsList: {
    method: 'GET', path: '/api/products', service: 'catalog', access: 'public', tag: 'products',
    summary: 'Shop list and search: products by type, ranked text search (typo-tolerant), price range and availability filters, with price range, availability and sold quantity',
    query: ProductListQuery, response: ProductCardListResponse,
  },
  productsGet: {
    method: 'GET', path: '/api/products/:id', service: 'catalog', access: 'public', tag: 'products',
    summary: 'A product with its variants, sub-variants, prices and counts', params: IdParams, response: ProductResponse,
  },
  productsCreate: {
    method: 'POST', path: '/api/products', service: 'catalog', access: 'product:manage', tag: 'products',
    summary: 'Create a product with optional variants and sub-variants', body: ProductRequest, response: ProductResponse,
    status: 201,
  },
  productsUpdate: {
    method: 'PATCH', path: '/api/products/:id', service: 'catalog', access: 'product:manage', tag: 'products',
    summary: 'Edit a product (variants keep their ids; the first variant cannot be renamed)', params: IdParams,
    body: ProductRequest, response: ProductResponse,
  },
  productsDelete: {
    method: 'DELETE', path: '/api/products/:id', service: 'catalog', access: 'product:manage', tag: 'products',
    summary: 'Delete a product, or archive it when it has stock (history is kept)', params: IdParams,
    response: ProductDeleteResponse,
  },
  adminProductsList: {
    method: 'GET', path: '/api/admin/products', service: 'catalog', access: 'product:manage', tag: 'products',
    summary: 'Staff list of products with counts per variant and sub-variant (archived on request)',
    query: AdminProductListQuery, response: ProductListResponse,
  },
  adminProductsGet: {
    method: 'GET', path: '/api/admin/products/:id', service: 'catalog', access: 'product:manage', tag: 'products',
    summary: 'A product for staff (archived included)', params: IdParams, response: ProductResponse,
  },
  // ---- catalog: stock
  stocksList: {
    method: 'GET', path: '/api/stocks', service: 'catalog', access: 'stock:read', tag: 'stocks',
    summary: 'Stock items by product, variant, sub-variant, bin or status', query: StockListQuery, response: StockListResponse,
  },
  stocksCreate: {
    method: 'POST', path: '/api/stocks', service: 'catalog', access: 'stock:create', tag: 'stocks',
    summary: 'Add stock: creates serial-coded items (quantities cannot be changed afterwards)', body: AddStockRequest,
    response: AddStockResponse, status: 201,
  },
  stocksGet: {
    method: 'GET', path: '/api/stocks/:id', service: 'catalog', access: 'stock:read', tag: 'stocks',
    summary: 'One stock item by id', params: IdParams, response: StockItemResponse,
  },
  stocksBySerial: {
    method: 'GET', path: '/api/stocks/by-serial/:serialCode', service: 'catalog', access: 'stock:read', tag: 'stocks',
    summary: 'The stock item with this serial code (packing checks each scan against its line)', params: SerialParams,
    response: StockItemResponse,
  },
  stocksQr: {
    method: 'GET', path: '/api/stocks/:id/qr.png', service: 'catalog', access: 'stock:read', tag: 'stocks',
    summary: 'QR label of a stock item as a PNG (QR_Code.png)', params: IdParams, query: QrQuery, binary: 'image/png',
  },
  stockBatchLabels: {
    method: 'GET', path: '/api/stock-batches/:id/labels.pdf', service: 'catalog', access: 'stock:read', tag: 'stocks',
    summary: 'A printable A4 sheet of QR labels for one Add Stock batch', params: IdParams, binary: 'application/pdf',
  },
  // ---- catalog: units between rentals and their chain of custody (issue 26)
  unitsBoard: {
    method: 'GET', path: '/api/units', service: 'catalog', access: 'stock:read', tag: 'units',
    summary: 'The units board: units on their way back to the shelf (to clean, to inspect, to put away), damaged, in repair and on hold, with counts per column',
    query: UnitBoardQuery, response: UnitBoardResponse,
  },
  unitsGet: {
    method: 'GET', path: '/api/units/:serialCode', service: 'catalog', access: 'stock:read', tag: 'units',
    summary: 'One unit by its serial code: its status, the steps it can take, its repairs and its whole chain of custody',
    params: UnitParams, response: UnitResponse,
  },
  unitsStep: {
    method: 'POST', path: '/api/units/:serialCode/steps', service: 'catalog', access: 'unit:process', tag: 'units',
    summary: "A step of a unit between rentals (clean, inspect against the product's checklist, put away, repair, hold, release, scrap, found, write off), as the stock-item table allows from its status",
    params: UnitParams, body: UnitStepRequest, response: UnitResponse,
  },
  unitsCustody: {
    method: 'GET', path: '/api/units/:serialCode/custody', service: 'catalog', access: 'stock:read', tag: 'units',
    summary: "One serial's chain of custody as CSV, or as GS1 EPCIS 2.0 JSON-LD (ObjectEvents, CBV bizStep and disposition)",
    params: UnitParams, query: CustodyExportQuery, binary: 'text/csv',
  },
  orderCustody: {
    method: 'GET', path: '/api/custody/orders/:orderId', service: 'catalog', access: 'stock:read', tag: 'units',
    summary: "The chain of custody of every unit packed for one order, as CSV or GS1 EPCIS 2.0 JSON-LD",
    params: OrderCustodyParams, query: CustodyExportQuery, binary: 'text/csv',
  },
  binsAuditsCreate: {
    method: 'POST', path: '/api/warehouse-bins/:id/audits', service: 'catalog', access: 'unit:process', tag: 'units',
    summary: 'A physical audit of a bin: every label scanned in it, compared with what it should hold (found, in the wrong bin, missing, unknown), kept with who and when',
    params: IdParams, body: BinAuditRequest, response: BinAuditResponse, status: 201,
  },
  binsAuditsList: {
    method: 'GET', path: '/api/warehouse-bins/:id/audits', service: 'catalog', access: 'stock:read', tag: 'units',
    summary: "A bin's audits, newest first", params: IdParams, query: Pagination, response: BinAuditListResponse,
  },
  unitsMove: {
    method: 'POST', path: '/api/units/:serialCode/move', service: 'catalog', access: 'unit:process', tag: 'units',
    summary: 'Move a unit in the warehouse to another bin (its history says so); its status does not change', params: UnitParams, body: UnitMoveRequest, response: UnitResponse,
  },
  recallsList: {
    method: 'GET', path: '/api/recalls', service: 'catalog', access: 'recall:manage', tag: 'recalls',
    summary: 'Recalls, newest first, with the state of their units', query: RecallListQuery, response: RecallListResponse,
  },
  recallsCreate: {
    method: 'POST', path: '/api/recalls', service: 'catalog', access: 'recall:manage', tag: 'recalls',
    summary: 'Open a recall of a product level, a list of serial codes and/or the units received between two days: units in the warehouse go on hold at once, units with customers are listed and their customers told',
    body: RecallCreateRequest, response: RecallResponse, status: 201,
  },
  recallsGet: {
    method: 'GET', path: '/api/recalls/:id', service: 'catalog', access: 'recall:manage', tag: 'recalls',
    summary: 'One recall with every unit, where it stands and with whom', params: RecallParams, response: RecallResponse,
  },
  recallsSettle: {
    method: 'POST', path: '/api/recalls/:id/units/:serialCode/settle', service: 'catalog', access: 'recall:manage', tag: 'recalls',
    summary: "Settle a recalled unit staff cannot release or scrap themselves (a customer's unit replaced or collected, a lost one), saying how",
    params: RecallUnitParams, body: RecallSettleRequest, response: RecallResponse,
  },
  recallsClose: {
    method: 'POST', path: '/api/recalls/:id/close', service: 'catalog', access: 'recall:manage', tag: 'recalls',
    summary: 'Close a recall once every unit of it is resolved', params: RecallParams, response: RecallResponse,
  },
  // ---- catalog: dated rentals (issue 25)
  productsAvailability: {
    method: 'GET', path: '/api/products/:id/availability', service: 'catalog', access: 'public', tag: 'bookings',
    summary: 'Units of a rental product level free per day, and the days a rental of a quantity for some days may start',
    params: IdParams, query: AvailabilityQuery, response: AvailabilityResponse,
  },
  availabilityBatch: {
    method: 'GET', path: '/api/availability', service: 'catalog', access: 'public', tag: 'bookings',
    summary: "The shop's grid: for a page of rental products, the days a rental may start at some level of each",
    query: AvailabilityBatchQuery, response: AvailabilityBatchResponse,
  },
  myBookingNotices: {
    method: 'GET', path: '/api/my/booking-notices', service: 'catalog', access: 'order:read-own', tag: 'bookings',
    summary: 'My bookings at risk (the unit booked for me is still out past its due date with the rental before) and recalls concerning a unit I have', response: NoticeListResponse,
  },
  productsCalendar: {
    method: 'GET', path: '/api/products/:id/calendar', service: 'catalog', access: 'stock:read', tag: 'bookings',
    summary: 'Staff calendar: every unit of a rental product with its bookings, turnaround, downtime and overdue days',
    params: IdParams, query: CalendarQuery, response: CalendarResponse,
  },
  bookingsAtRisk: {
    method: 'GET', path: '/api/bookings/at-risk', service: 'catalog', access: 'stock:read', tag: 'bookings',
    summary: 'Bookings whose unit is still out past its due date into their days, with another free unit to pack instead',
    response: AtRiskResponse,
  },
  downtimeCreate: {
    method: 'POST', path: '/api/downtime', service: 'catalog', access: 'booking:manage', tag: 'bookings',
    summary: 'Block a unit, or every unit of a product level, for days (maintenance, repair, missing)',
    body: DowntimeCreateRequest, response: DowntimeResponse, status: 201,
  },
  downtimeDelete: {
    method: 'DELETE', path: '/api/downtime/:id', service: 'catalog', access: 'booking:manage', tag: 'bookings',
    summary: 'Remove a downtime: the unit can be booked on those days again', params: IdParams, status: 204,
  },
  // ---- order: cart (the customer's own)
  cartList: {
    method: 'GET', path: '/api/cart', service: 'order', access: 'cart:own', tag: 'cart',
    summary: 'My cart lines of one type (RENT or BUY) with current prices and the total', query: CartQuery,
    response: CartResponse,
  },
  cartAdd: {
    method: 'POST', path: '/api/cart', service: 'order', access: 'cart:own', tag: 'cart',
    summary: 'Add a product (at its variant / sub-variant) to my cart; the same line adds up, to at most what is available (else 409)', body: CartAddRequest,
    response: CartItemResponse, status: 201,
  },
  cartUpdate: {
    method: 'PATCH', path: '/api/cart/:id', service: 'order', access: 'cart:own', tag: 'cart',
    summary: 'Change quantity or rental days of my cart line (a quantity raised above what is available: 409)', params: IdParams, body: CartUpdateRequest,
    response: CartItemResponse,
  },
  cartRemove: {
    method: 'DELETE', path: '/api/cart/:id', service: 'order', access: 'cart:own', tag: 'cart',
    summary: 'Remove a line from my cart', params: IdParams, status: 204,
  },
  // ---- order: orders
  ordersPlace: {
    method: 'POST', path: '/api/orders', service: 'order', access: 'order:place', tag: 'orders',
    summary: 'Place an order (Idempotency-Key header): reserves stock atomically, totals computed by the server',
    body: PlaceOrderRequest, response: OrderResponse, status: 201,
  },
  ordersQuote: {
    method: 'POST', path: '/api/orders/quote', service: 'order', access: 'order:place', tag: 'orders',
    summary: 'What a bulk order would cost: its lines priced by the server as the cart is (reserves nothing)',
    body: OrderQuoteRequest, response: OrderQuoteResponse,
  },
  myOrdersList: {
    method: 'GET', path: '/api/my/orders', service: 'order', access: 'order:read-own', tag: 'orders',
    summary: 'My orders, by type and status', query: MyOrderListQuery, response: OrderListResponse,
  },
  myOrdersGet: {
    method: 'GET', path: '/api/my/orders/:id', service: 'order', access: 'order:read-own', tag: 'orders',
    summary: 'One of my orders with lines, tracker, shipping and payment summary', params: IdParams,
    response: OrderResponse,
  },
  myOrdersQr: {
    method: 'GET', path: '/api/my/orders/:id/qr.png', service: 'order', access: 'order:read-own', tag: 'orders',
    summary: "My order's QR code as a PNG (QR_Code.png; payload orderID and orderNumber)", params: IdParams,
    binary: 'image/png',
  },
  ordersTransition: {
    method: 'POST', path: '/api/orders/:id/transitions', service: 'order', access: 'authenticated', tag: 'orders',
    summary: 'Move an order to another status, as the process table allows the caller (cancel, confirm, pack with serial codes)',
    params: IdParams, body: TransitionRequest, response: OrderResponse,
  },
  // ---- order: staff
  staffOrdersList: {
    method: 'GET', path: '/api/orders', service: 'order', access: 'order:read', tag: 'orders',
    summary: 'Orders for staff, by type and status, searched by order number or customer name', query: StaffOrderListQuery,
    response: OrderListResponse,
  },
  staffOrdersGet: {
    method: 'GET', path: '/api/orders/:id', service: 'order', access: 'order:read', tag: 'orders',
    summary: 'One order for staff: customer, shipping, lines with their serial codes, payment, tracker and the steps the caller may take',
    params: IdParams, response: OrderResponse,
  },
  staffOrdersQr: {
    method: 'GET', path: '/api/orders/:id/qr.png', service: 'order', access: 'order:read', tag: 'orders',
    summary: "An order's QR code as a PNG (QR_Code.png; payload orderID and orderNumber)", params: IdParams,
    binary: 'image/png',
  },
  // ---- order: packing progress (PREPARING), kept on the server per line (issue 22)
  orderPackingGet: {
    method: 'GET', path: '/api/orders/:id/packing', service: 'order', access: 'order:process', tag: 'orders',
    summary: 'The serial codes scanned so far for each line of an order being packed (PREPARING; empty otherwise)', params: IdParams,
    response: PackingProgressResponse,
  },
  orderPackingScan: {
    method: 'POST', path: '/api/orders/:id/packing/:lineId/serials', service: 'order', access: 'order:process', tag: 'orders',
    summary: "Keep a scanned serial code for a line while PREPARING: checked at once (the line's product, AVAILABLE, not scanned already: 'Already scanned', 'Scanned product is not …'); 'To Ship Order' packs the kept codes",
    params: PackingLineParams, body: PackingScanRequest, response: PackingProgressResponse,
  },
  orderPackingUnscan: {
    method: 'DELETE', path: '/api/orders/:id/packing/:lineId/serials/:serialCode', service: 'order', access: 'order:process', tag: 'orders',
    summary: 'Remove a scanned serial code from a line being packed (PREPARING)', params: PackingSerialParams, response: PackingProgressResponse,
  },
  // ---- order: drivers (delivery and pick-up by QR scan)
  driverScan: {
    method: 'POST', path: '/api/driver/scan', service: 'order', access: 'order:drive', tag: 'driver',
    summary: 'Scan an order QR or type its number (optional Idempotency-Key header: a scan queued offline answers the same when sent again): TO_SHIP → OUT_FOR_DELIVERY; at the door the answer asks for the hand-over (delivery or pick-up)',
    body: DriverScanRequest, response: DriverScanResponse,
  },
  driverOrdersList: {
    method: 'GET', path: '/api/driver/orders', service: 'order', access: 'order:drive', tag: 'driver',
    summary: "The driver's orders out for delivery or for pick-up (the superadmin: every driver's)", query: DriverOrderListQuery,
    response: OrderListResponse,
  },
  driverOrdersGet: {
    method: 'GET', path: '/api/driver/orders/:id', service: 'order', access: 'order:drive', tag: 'driver',
    summary: 'One order assigned to the driver; any other (one waiting for a driver too) answers 404 like an unknown id', params: IdParams, response: OrderResponse,
  },
  driverHandover: {
    method: 'POST', path: '/api/driver/orders/:id/handover', service: 'order', access: 'order:drive', tag: 'driver',
    summary:
      'Record a hand-over at the door (issue 28): delivery (OUT_FOR_DELIVERY → DELIVERED) or pick-up (FOR_RETURN → FOR_PICK_UP) with the signer, relation, signature, optional photo and the serials; or refused / nobody home (a delivery goes back to TO_SHIP, a pick-up stays FOR_RETURN). `key` makes it idempotent: the same key answers the first result',
    params: IdParams, body: HandoverRequest, response: HandoverResponse, jsonLimit: HANDOVER_LIMITS.bodyBytes,
  },
  driverDay: {
    method: 'GET', path: '/api/driver/today', service: 'order', access: 'order:drive', tag: 'driver',
    summary: "The driver's day (issue 28): their stops in their order (to take out, out for delivery, to collect, collected) with customer number, address, phone, items and notes; work no driver has yet as counts per city",
    response: DriverDayResponse,
  },
  driverStopOrder: {
    method: 'PUT', path: '/api/driver/today/stops', service: 'order', access: 'order:drive', tag: 'driver',
    summary: "Reorder the driver's stops for the day: each of their stops once (others: 400)", body: DriverStopOrderRequest, response: DriverDayResponse,
  },
  ordersAssign: {
    method: 'PUT', path: '/api/orders/:id/assignment', service: 'order', access: 'order:process', tag: 'orders',
    summary: 'Assign an order waiting for a driver (TO_SHIP, FOR_RETURN) to a driver and a day, or back to any driver (driverId null)',
    params: IdParams, body: AssignmentRequest, response: OrderResponse,
  },
  assignableDrivers: {
    method: 'GET', path: '/api/assignable-drivers', service: 'order', access: 'order:process', tag: 'orders',
    summary: 'The active drivers an order can be assigned to (id and name)', response: AssignableDriversResponse,
  },
  staffOrdersHandoverFile: {
    method: 'GET', path: '/api/orders/:id/handovers/:handoverId/:file', service: 'order', access: 'order:read', tag: 'orders',
    summary: "A hand-over's signature or photo (PNG or JPG)", params: HandoverFileParams, binary: 'image/*',
  },
  myOrdersHandoverFile: {
    method: 'GET', path: '/api/my/orders/:id/handovers/:handoverId/:file', service: 'order', access: 'order:read-own', tag: 'orders',
    summary: "A hand-over's signature or photo, of my own order (another's: 404)", params: HandoverFileParams, binary: 'image/*',
  },
  staffOrdersTicket: {
    method: 'GET', path: '/api/orders/:id/tickets/:leg', service: 'order', access: 'order:read', tag: 'orders',
    summary: 'The delivery or pick-up ticket (DELIVERY_TICKET.pdf, PICKUP_TICKET.pdf): order, customer, address, serials, recipient, signature, time (Manila), driver',
    params: TicketParams, binary: 'application/pdf',
  },
  myOrdersTicket: {
    method: 'GET', path: '/api/my/orders/:id/tickets/:leg', service: 'order', access: 'order:read-own', tag: 'orders',
    summary: "My order's delivery or pick-up ticket, as an A4 PDF (another's: 404)", params: TicketParams, binary: 'application/pdf',
  },
  // ---- order: ongoing rentals, returns, requests, notices
  ongoingRentalsList: {
    method: 'GET', path: '/api/ongoing-rentals', service: 'order', access: 'order:read', tag: 'rentals',
    summary: 'Rentals by tab: Ongoing (delivered), Due Date (a product due today or overdue), For Return, Picked up (paid)',
    query: OngoingRentalListQuery, response: OngoingRentalListResponse,
  },
  orderSerialReturn: {
    method: 'POST', path: '/api/orders/:id/serials/:serialCode/return', service: 'order', access: 'order:process', tag: 'rentals',
    summary: 'Mark a serial code of a FOR_PICK_UP order OK, LOST or DAMAGED (once); the catalog follows in the same step',
    params: SerialReturnParams, body: SerialReturnRequest, response: OrderResponse,
  },
  myOrdersExtend: {
    method: 'POST', path: '/api/my/orders/:id/extend', service: 'order', access: 'rental:extend-own', tag: 'rentals',
    summary: 'More days for my ongoing (delivered) rental: checked free for the extra days, re-priced with the same terms, the due date moved',
    params: IdParams, body: ExtendRentalBody, response: ExtendRentalResponse,
  },
  ordersExtend: {
    method: 'POST', path: '/api/orders/:id/extend', service: 'order', access: 'booking:manage', tag: 'rentals',
    summary: 'Staff give a rental more days (booked ahead or out with the customer): checked free, re-priced, the due date moved',
    params: IdParams, body: ExtendRentalBody, response: ExtendRentalResponse,
  },
  ordersWaiveLateFees: {
    method: 'POST', path: '/api/orders/:id/late-fee-waivers', service: 'order', access: 'booking:manage', tag: 'rentals',
    summary: "Staff waive all or part of a rental's late fees with a reason (kept with who and when), before its full payment is asked",
    params: IdParams, body: LateFeeWaiverRequest, response: OrderResponse, status: 201,
  },
  ordersEndEarly: {
    method: 'POST', path: '/api/orders/:id/end-early', service: 'order', access: 'booking:manage', tag: 'rentals',
    summary: 'Staff end a delivered rental early: every line due after the return day is due then, re-priced with its own terms, the rest of its bookings freed',
    params: IdParams, body: EndRentalEarlyBody, response: ExtendRentalResponse,
  },
  orderRequestsCreate: {
    method: 'POST', path: '/api/orders/:id/requests', service: 'order', access: 'request:manage', tag: 'rentals',
    summary: "Staff file a fix or replace request on a customer's ongoing rental, naming its units by serial code (issue 26: a recalled unit)",
    params: IdParams, body: StaffRequestBody, response: OrderRequestResponse, status: 201,
  },
  myOrderRequestsCreate: {
    method: 'POST', path: '/api/my/orders/:id/requests', service: 'order', access: 'request:create-own', tag: 'rentals',
    summary: 'File a fix or replace request for products of my ongoing (delivered) rental', params: IdParams,
    body: CreateRequestBody, response: OrderRequestResponse, status: 201,
  },
  orderRequestsUpdate: {
    method: 'PATCH', path: '/api/orders/:id/requests/:requestId', service: 'order', access: 'request:manage', tag: 'rentals',
    summary: 'Mark a request On Progress, then Done', params: RequestParams, body: UpdateRequestBody, response: OrderRequestResponse,
  },
  myNotices: {
    method: 'GET', path: '/api/my/notices', service: 'order', access: 'order:read-own', tag: 'rentals',
    summary: "My rentals' due notices: products past due, or due for return today (Asia/Manila)", response: NoticeListResponse,
  },
  // ---- payment
  paymentsList: {
    method: 'GET', path: '/api/payments', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'Payments by status, searched by order number or customer name', query: PaymentListQuery,
    response: PaymentListResponse,
  },
  paymentsGet: {
    method: 'GET', path: '/api/payments/:id', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'One payment with its order, customer, amounts and records', params: IdParams, response: PaymentResponse,
  },
  paymentsByOrder: {
    method: 'GET', path: '/api/orders/:id/payment', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: "An order's payment with its amounts and records", params: IdParams, response: PaymentResponse,
  },
  paymentsConfirm: {
    method: 'POST', path: '/api/payments/:id/confirm', service: 'payment', access: 'payment:confirm', tag: 'payments',
    summary: 'Take the payment due now (Idempotency-Key header): a purchase in full, a rental\'s first day, or its balance',
    params: IdParams, body: ConfirmPaymentRequest, response: PaymentResponse,
  },
  paymentsRecordRefund: {
    method: 'POST', path: '/api/payments/:id/refunds/:refundId/record', service: 'payment', access: 'payment:confirm', tag: 'payments',
    summary: 'Record how a refund was paid back (Idempotency-Key header): cash, bank transfer, GCash, card reversal or check, with a reference',
    params: RefundParams, body: RecordRefundRequest, response: PaymentResponse,
  },
  reconciliationRuns: {
    method: 'GET', path: '/api/reconciliation/runs', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'The latest reconciliation runs (daily and asked for), newest first, with how many payments were checked and how many mismatches found',
    response: ReconciliationRunsResponse,
  },
  reconciliationRunGet: {
    method: 'GET', path: '/api/reconciliation/runs/:id', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'One reconciliation run and its mismatches: a payment charged twice or not at all, an amount that differs from its terms, a deposit or refund not accounted for',
    params: IdParams, response: ReconciliationRunResponse,
  },
  reconciliationRunStart: {
    method: 'POST', path: '/api/reconciliation/runs', service: 'payment', access: 'payment:confirm', tag: 'payments',
    summary: 'Reconcile every payment now (accounting asks; the daily run needs no one); answers the finished run and its mismatches',
    response: ReconciliationRunResponse, status: 201,
  },
  paymentsInvoice: {
    method: 'GET', path: '/api/payments/:id/invoice.pdf', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'The invoice of the latest payment taken, as an A4 PDF', params: IdParams, binary: 'application/pdf',
  },
  staffOrdersInvoice: {
    method: 'GET', path: '/api/orders/:id/invoice.pdf', service: 'payment', access: 'order:read', tag: 'payments',
    summary: "The invoice of an order's latest payment, as an A4 PDF", params: OrderIdParams, binary: 'application/pdf',
  },
  myOrdersInvoice: {
    method: 'GET', path: '/api/my/orders/:id/invoice.pdf', service: 'payment', access: 'invoice:read-own', tag: 'payments',
    summary: "My order's invoice (of its latest payment), as an A4 PDF", params: OrderIdParams, binary: 'application/pdf',
  },
  paymentsRecordInvoice: {
    method: 'GET', path: '/api/payments/:id/records/:recordId/invoice.pdf', service: 'payment', access: 'payment:read', tag: 'payments',
    summary: 'The invoice of one payment record (INVOICE.pdf, INITIAL_PAYMENT_INVOICE.pdf or FULL_PAYMENT_INVOICE.pdf), as an A4 PDF',
    params: RecordInvoiceParams, binary: 'application/pdf',
  },
  myOrdersRecordInvoice: {
    method: 'GET', path: '/api/my/orders/:id/records/:recordId/invoice.pdf', service: 'payment', access: 'invoice:read-own', tag: 'payments',
    summary: "The invoice of one payment record of my order, as an A4 PDF (another's order answers 404)",
    params: RecordInvoiceParams, binary: 'application/pdf',
  },
  // ---- reporting (read models built from events)
  reportsGet: {
    method: 'GET', path: '/api/reports/:report', service: 'reporting', access: 'report:read', tag: 'reports',
    summary: 'One of the five reports for a range of Manila days: a page of rows, the report total, the overall totals and chart series',
    params: ReportParams, query: ReportQuery, response: ReportResponse,
  },
  reportsExportStart: {
    method: 'POST', path: '/api/reports/:report/exports', service: 'reporting', access: 'report:read', tag: 'reports',
    summary: 'Start an Excel export of a report for a range (a job: follow its progress, then download the file)',
    params: ReportParams, body: ReportRange, response: ReportExportResponse, status: 202,
  },
  reportsExportGet: {
    method: 'GET', path: '/api/report-exports/:id', service: 'reporting', access: 'report:read', tag: 'reports',
    summary: 'An export job of mine: status and progress', params: ExportParams, response: ReportExportResponse,
  },
  reportsExportFile: {
    method: 'GET', path: '/api/report-exports/:id/file', service: 'reporting', access: 'report:read', tag: 'reports',
    summary: 'The finished Excel file of an export job of mine', params: ExportParams,
    binary: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;

export function routesOf(service: ServiceName): Array<[RouteId, RouteDef]> {
  return (Object.entries(ROUTES) as Array<[RouteId, RouteDef]>).filter(([, r]) => r.service === service);
}
