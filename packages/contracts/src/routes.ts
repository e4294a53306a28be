import { z } from 'zod';
import type { Access } from './permissions';
import {
  EmployeeCreateRequest,
  EmployeeListQuery,
  EmployeeUpdateRequest,
  IdParams,
  LoginRequest,
  MeResponse,
  RegisterRequest,
  StatusChangeRequest,
  UserListQuery,
  UserListResponse,
  UserResponse,
} from './identity';
import { UploadNameParams, UploadResponse } from './uploads';

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
  // ---- identity: users (customers and staff)
  usersList: {
    method: 'GET', path: '/api/users', service: 'identity', access: 'user:read', tag: 'users',
    summary: 'List users, optionally by user type', query: UserListQuery, response: UserListResponse,
  },
  usersGet: {
    method: 'GET', path: '/api/users/:id', service: 'identity', access: 'user:read', tag: 'users',
    summary: 'One user', params: IdParams, response: UserResponse,
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
} as const satisfies Record<string, RouteDef>;

export type RouteId = keyof typeof ROUTES;

export function routesOf(service: ServiceName): Array<[RouteId, RouteDef]> {
  return (Object.entries(ROUTES) as Array<[RouteId, RouteDef]>).filter(([, r]) => r.service === service);
}
