import { z } from 'zod';
import { EMPLOYEE_TYPES, GENDERS, USER_STATUSES, USER_TYPES, USER_TYPE_FILTER_VALUES } from './enums';
import { MESSAGES } from './messages';
import { isIsoDate, manilaDate } from './time';
import { ADDRESS_MAX, NAME_MAX, PASSWORD_MIN, ZIPCODE_MIN } from './limits';


/** A required text: missing, not a string or blank all give the same message. */
export const requiredText = (message: string, max = 120) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: MESSAGES.common.tooLong });

/** Optional text sent as an empty string (middle name, suffix, note). */
export const optionalText = (max = NAME_MAX) =>
  z.string().trim().max(max, { error: MESSAGES.common.tooLong }).default('');

type PersonMessages = {
  firstName: string;
  lastName: string;
  birthDate: string;
  gender: string;
  contactNumber: string;
  email: string;
  address: string;
  city: string;
  state: string;
  zipcode: string;
  image: string;
};

export const birthDateField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .refine(isIsoDate, { error: MESSAGES.common.birthDateInvalid })
    .refine((d) => !isIsoDate(d) || d <= manilaDate(), { error: MESSAGES.common.birthDateFuture });

/** An uploaded image path, as returned by POST /api/uploads. */
export const imagePathField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .regex(/^\/api\/uploads\/[A-Za-z0-9._-]+$/, { error: MESSAGES.common.imageInvalid });

const personShape = (m: PersonMessages) => ({
  firstName: requiredText(m.firstName, NAME_MAX),
  middleName: optionalText(),
  lastName: requiredText(m.lastName, NAME_MAX),
  suffix: optionalText(20),
  birthDate: birthDateField(m.birthDate),
  gender: z.enum(GENDERS, { error: m.gender }),
  contactNumber: requiredText(m.contactNumber, 30),
  email: requiredText(m.email, 254).pipe(z.email({ error: MESSAGES.common.emailInvalid })),
  address: requiredText(m.address, ADDRESS_MAX + 200).pipe(
    z.string().max(ADDRESS_MAX, { error: MESSAGES.common.addressMax }),
  ),
  city: requiredText(m.city, 80),
  state: requiredText(m.state, 80),
  zipcode: requiredText(m.zipcode, 20).pipe(z.string().min(ZIPCODE_MIN, { error: MESSAGES.common.zipcodeMin })),
  image: imagePathField(m.image),
});

export const usernameField = (message: string) =>
  requiredText(message, 50).pipe(
    z.string().regex(/^[A-Za-z0-9._-]{3,50}$/, { error: MESSAGES.common.usernameFormat }),
  );

export const passwordField = (message: string) =>
  z
    .string({ error: message })
    .refine((v) => v.trim().length > 0, { error: message, abort: true })
    .refine((v) => v.length >= PASSWORD_MIN, { error: MESSAGES.common.passwordMin, abort: true })
    .max(200, { error: MESSAGES.common.tooLong });

/**
 * Registration (SPEC §5). `age` may be sent by the form but is ignored: the server computes it
 * from the birth date. New users are ACTIVE customers.
 */
export const RegisterRequest = z.object({
  username: usernameField(MESSAGES.register.username),
  password: passwordField(MESSAGES.register.password),
  ...personShape(MESSAGES.register),
  age: z.unknown().optional(),
});
export type RegisterRequest = z.input<typeof RegisterRequest>;

export const LoginRequest = z.object({
  username: requiredText(MESSAGES.login.username, 200),
  password: z.string({ error: MESSAGES.login.password }).min(1, { error: MESSAGES.login.password }).max(200),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const EmployeeCreateRequest = z.object({
  userType: z.enum(EMPLOYEE_TYPES, { error: MESSAGES.employee.userType }),
  position: requiredText(MESSAGES.employee.position, 80),
  username: usernameField(MESSAGES.employee.username),
  password: passwordField(MESSAGES.employee.password),
  ...personShape(MESSAGES.employee),
  age: z.unknown().optional(),
});
export type EmployeeCreateRequest = z.input<typeof EmployeeCreateRequest>;

/** Employee edit: the same without username and password. */
export const EmployeeUpdateRequest = EmployeeCreateRequest.omit({ username: true, password: true });
export type EmployeeUpdateRequest = z.input<typeof EmployeeUpdateRequest>;

export const StatusChangeRequest = z.object({ status: z.enum(USER_STATUSES, { error: 'Please choose a status.' }) });
export type StatusChangeRequest = z.infer<typeof StatusChangeRequest>;

export const User = z.object({
  id: z.string().uuid(),
  idNumber: z.string(),
  username: z.string(),
  firstName: z.string(),
  middleName: z.string(),
  lastName: z.string(),
  suffix: z.string(),
  birthDate: z.string(),
  age: z.number().int(),
  gender: z.enum(GENDERS),
  contactNumber: z.string(),
  email: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  image: z.string(),
  status: z.enum(USER_STATUSES),
  userType: z.enum(USER_TYPES),
  position: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof User>;

export const UserResponse = z.object({ user: User });
export type UserResponse = z.infer<typeof UserResponse>;

export const MeResponse = z.object({ user: User, permissions: z.array(z.string()) });
export type MeResponse = z.infer<typeof MeResponse>;

export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const UserListQuery = Pagination.extend({
  userType: z.enum(USER_TYPE_FILTER_VALUES).optional(),
  search: z.string().trim().max(100).optional(),
});
export type UserListQuery = z.input<typeof UserListQuery>;

export const UserListResponse = z.object({ items: z.array(User), total: z.number().int() });
export type UserListResponse = z.infer<typeof UserListResponse>;

export const EmployeeListQuery = Pagination.extend({
  userType: z.enum(EMPLOYEE_TYPES).optional(),
  search: z.string().trim().max(100).optional(),
});

export const IdParams = z.object({ id: z.string().uuid({ error: 'Not found.' }) });

/** What the gateway learns about the caller from identity. */
export const SessionPrincipal = z.object({
  userId: z.string().uuid(),
  userType: z.enum(USER_TYPES),
  username: z.string(),
});
export type SessionPrincipal = z.infer<typeof SessionPrincipal>;
