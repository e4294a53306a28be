import { z } from 'zod';
import { EMPLOYEE_TYPES, GENDERS, USER_STATUSES, USER_TYPES, USER_TYPE_FILTER_VALUES } from './enums';
import { MESSAGES } from './messages';
import { isIsoDate, manilaDate } from './time';
import { ADDRESS_MAX, NAME_MAX, PASSWORD_MIN, ZIPCODE_MIN } from './limits';
import { optionalText, queryInt, requiredText, searchParam, text } from './text';
import { UPLOAD_PATH_PATTERN } from './uploads';

// Maxima are the widths of the identity "users" columns (services/identity/src/migrations).

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
  text({ max: 40, error: message })
    .min(1, { error: message })
    .refine(isIsoDate, { error: MESSAGES.common.birthDateInvalid })
    .refine((d) => !isIsoDate(d) || d <= manilaDate(), { error: MESSAGES.common.birthDateFuture });

/**
 * An uploaded image path exactly as POST /api/uploads hands it out (UPLOAD_PATH_PATTERN); whether
 * the file exists is the services' check. Columns: image varchar(300).
 */
export const imagePathField = (message: string) =>
  text({ max: 300, error: message })
    .min(1, { error: message, abort: true })
    .regex(UPLOAD_PATH_PATTERN, { error: MESSAGES.common.imageInvalid });

const personShape = (m: PersonMessages) => ({
  firstName: requiredText(m.firstName, NAME_MAX),
  middleName: optionalText(NAME_MAX),
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

/** A password as typed (not trimmed); only its hash is stored, but NUL and lone surrogates are refused too. */
export const passwordField = (message: string) =>
  text({ max: 200, error: message, trim: false })
    .refine((v) => v.trim().length > 0, { error: message, abort: true })
    .refine((v) => v.length >= PASSWORD_MIN, { error: MESSAGES.common.passwordMin, abort: true });

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
  password: text({ max: 200, error: MESSAGES.login.password, trim: false }).min(1, { error: MESSAGES.login.password }),
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
/**
 * A person's profile (the registration form's fields without username and password): a customer
 * edited by the superadmin (PATCH /api/users/:id) or anyone editing their own (PATCH /api/auth/me).
 */
export const ProfileUpdateRequest = z.object({ ...personShape(MESSAGES.register), age: z.unknown().optional() });
export type ProfileUpdateRequest = z.input<typeof ProfileUpdateRequest>;

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

export const MeResponse = z.object({
  user: User,
  permissions: z.array(z.string()),
  /** Whether the user confirmed their e-mail address (issue 24); the shell shows a banner until then. */
  emailVerified: z.boolean().optional(),
  /** The user's e-mail choices (issue 24). */
  preferences: z.object({ remindersEnabled: z.boolean() }).optional(),
});
export type MeResponse = z.infer<typeof MeResponse>;

/** A one-time link's token as it arrives from an e-mail link (base64url, 43 characters). */
const tokenField = text({ max: 200, error: MESSAGES.account.resetLinkInvalid }).min(1, { error: MESSAGES.account.resetLinkInvalid });

/** "Forgot password": the address to send a reset link to (answered alike whether it has an account). */
export const ForgotPasswordRequest = z.object({
  email: requiredText(MESSAGES.account.emailRequired, 254).pipe(z.email({ error: MESSAGES.common.emailInvalid })),
});
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordRequest>;

/** A new password, with the token of a reset link. */
export const ResetPasswordRequest = z.object({ token: tokenField, password: passwordField(MESSAGES.register.password) });
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;

/** The token of an e-mail confirmation link, or of the one-click "no more reminders" link. */
export const TokenRequest = z.object({ token: tokenField });
export type TokenRequest = z.input<typeof TokenRequest>;

/** My e-mail choices: reminders on or off (order and payment e-mails always come). */
export const PreferencesRequest = z.object({ remindersEnabled: z.boolean({ error: 'Please choose whether you want reminders.' }) });
export type PreferencesRequest = z.input<typeof PreferencesRequest>;
export const PreferencesResponse = z.object({ preferences: z.object({ remindersEnabled: z.boolean() }) });
export type PreferencesResponse = z.infer<typeof PreferencesResponse>;

/** Change my password: the current one, and the new one. */
export const ChangePasswordRequest = z.object({
  currentPassword: text({ max: 200, error: MESSAGES.account.currentPassword, trim: false }).min(1, { error: MESSAGES.account.currentPassword }),
  password: passwordField(MESSAGES.register.password),
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

/** The answer of an account action: what to tell the user. */
export const AccountMessageResponse = z.object({ message: z.string() });
export type AccountMessageResponse = z.infer<typeof AccountMessageResponse>;

/** List paging in a query string: plain decimal digits only (DESIGN §8: limit at most 100). */
export const Pagination = z.object({
  limit: queryInt(1, 100).default(100),
  offset: queryInt(0, 999_999_999).default(0),
});

export const UserListQuery = Pagination.extend({
  userType: z.enum(USER_TYPE_FILTER_VALUES).optional(),
  search: searchParam(),
});
export type UserListQuery = z.input<typeof UserListQuery>;

export const UserListResponse = z.object({ items: z.array(User), total: z.number().int() });
export type UserListResponse = z.infer<typeof UserListResponse>;

export const EmployeeListQuery = Pagination.extend({
  userType: z.enum(EMPLOYEE_TYPES).optional(),
  search: searchParam(),
});

export const IdParams = z.object({ id: z.string().uuid({ error: 'Not found.' }) });

/** What the gateway learns about the caller from identity. */
export const SessionPrincipal = z.object({
  userId: z.string().uuid(),
  userType: z.enum(USER_TYPES),
  username: z.string(),
  /** First and last name, for records that name the person who acted (issue 27). */
  name: z.string().optional(),
});
export type SessionPrincipal = z.infer<typeof SessionPrincipal>;

/** The most session cookies a gateway asks identity for in one call (`/internal/sessions/resolve-many`). */
export const SESSION_LOOKUP_MAX = 64;

/** identity's answer to a session lookup (`/internal/sessions/resolve`, and each of resolve-many's). */
export const SessionResolveAnswer = z.object({
  principal: SessionPrincipal.extend({ sessionId: SessionPrincipal.shape.userId }),
  /** The session's own end (absolute or idle, whichever is first); only an identity that sends it announces revocations. */
  validUntil: z.iso.datetime({ offset: true }).optional(),
});
export type SessionResolveAnswer = z.infer<typeof SessionResolveAnswer>;
/** identity's answer to several cookies: answers[i] is tokens[i]'s session, null where it has none. */
export const SessionResolveManyAnswer = z.object({ answers: z.array(SessionResolveAnswer.nullable()) });
export type SessionResolveManyAnswer = z.infer<typeof SessionResolveManyAnswer>;

/**
 * Core NATS subject (outside the events stream's `dme.>`, so nothing keeps it) on which identity
 * announces that sessions ended, after the change committed and before it answers. Gateways that
 * cache resolved sessions drop the matching ones at once. With `sessionId`: that one session (a
 * logout); otherwise every session of `userId` (deactivation, deletion, an employee's role or
 * details changed).
 */
export const SESSION_REVOKED_SUBJECT = 'session.revoked';
export const SessionRevoked = z
  .object({
    sessionId: z.string().uuid().optional(),
    userId: z.string().uuid().optional(),
    reason: z.enum(['logout', 'deactivated', 'deleted', 'updated', 'password_reset']),
  })
  .refine((r) => r.sessionId !== undefined || r.userId !== undefined, { error: 'sessionId or userId is required' });
export type SessionRevoked = z.infer<typeof SessionRevoked>;
