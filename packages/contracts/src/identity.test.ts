import { PERSON } from './testdata';
import { describe, expect, it } from 'vitest';
import { EmployeeCreateRequest, EmployeeUpdateRequest, LoginRequest, RegisterRequest } from './identity';
import { MESSAGES } from './messages';
import { addDays, manilaDate } from './time';

const valid = { username: 'maria.s', password: 'correct-horse-9', ...PERSON };

function messagesFor(input: unknown, schema = RegisterRequest): Record<string, string[]> {
  const r = schema.safeParse(input);
  if (r.success) return {};
  const out: Record<string, string[]> = {};
  for (const i of r.error.issues) (out[i.path.join('.')] ??= []).push(i.message);
  return out;
}

describe('register rules (SPEC §5)', () => {
  it('accepts a complete registration; middle name and suffix default to empty strings', () => {
    const r = RegisterRequest.parse(valid);
    expect(r.middleName).toBe('');
    expect(r.suffix).toBe('');
  });

  it.each([
    ['username', MESSAGES.register.username],
    ['password', MESSAGES.register.password],
    ['firstName', 'Please input your First Name!'],
    ['lastName', MESSAGES.register.lastName],
    ['birthDate', 'Please input Date of Birth!'],
    ['gender', 'Please input Gender!'],
    ['contactNumber', MESSAGES.register.contactNumber],
    ['email', 'Please input your Email!'],
    ['address', MESSAGES.register.address],
    ['city', MESSAGES.register.city],
    ['state', MESSAGES.register.state],
    ['zipcode', MESSAGES.register.zipcode],
    ['image', 'Please upload image!'],
  ])('%s is required with its message', (field, message) => {
    const { [field as keyof typeof valid]: _omit, ...rest } = valid;
    expect(messagesFor(rest)[field]).toEqual([message]);
    expect(messagesFor({ ...valid, [field]: '   ' })[field]?.[0]).toBe(message);
  });

  it('limits the address to 12 characters', () => {
    expect(messagesFor({ ...valid, address: '123456789012' })).toEqual({});
    expect(messagesFor({ ...valid, address: '1234567890123' }).address).toEqual([MESSAGES.common.addressMax]);
  });

  it('needs a zipcode of at least 6 characters', () => {
    expect(messagesFor({ ...valid, zipcode: '12345' }).zipcode).toEqual([MESSAGES.common.zipcodeMin]);
    expect(messagesFor({ ...valid, zipcode: '123456' })).toEqual({});
  });

  it('needs a real birth date that is not in the future', () => {
    expect(messagesFor({ ...valid, birthDate: '1990-02-30' }).birthDate).toEqual([MESSAGES.common.birthDateInvalid]);
    expect(messagesFor({ ...valid, birthDate: addDays(manilaDate(), 1) }).birthDate).toEqual([MESSAGES.common.birthDateFuture]);
  });

  it('ignores a client-sent age (the server computes it)', () => {
    expect(RegisterRequest.safeParse({ ...valid, age: 3 }).success).toBe(true);
  });

  it('only takes MALE or FEMALE as gender', () => {
    expect(messagesFor({ ...valid, gender: 'OTHER' }).gender).toEqual(['Please input Gender!']);
  });

  it('refuses an image that is not an uploaded path', () => {
    expect(messagesFor({ ...valid, image: 'https://evil.example/x.png' }).image).toEqual([MESSAGES.common.imageInvalid]);
  });

  it('refuses malformed usernames and short passwords', () => {
    expect(messagesFor({ ...valid, username: 'a b' }).username).toEqual([MESSAGES.common.usernameFormat]);
    expect(messagesFor({ ...valid, password: 'short' }).password).toEqual([MESSAGES.common.passwordMin]);
  });

  it('checks the email format', () => {
    expect(messagesFor({ ...valid, email: 'not-an-email' }).email).toEqual([MESSAGES.common.emailInvalid]);
  });
});

describe('login and employee rules', () => {
  it('login needs username and password with the spec messages', () => {
    expect(messagesFor({}, LoginRequest as never)).toEqual({
      username: ['Please input your Username!'],
      password: ['Please input your Password!'],
    });
  });

  it('employee create needs user type and position; edit has no username or password', () => {
    const employee = { ...valid, userType: 'DRIVER', position: 'Driver' };
    expect(EmployeeCreateRequest.safeParse(employee).success).toBe(true);
    const m = messagesFor({ ...employee, userType: undefined, position: '' }, EmployeeCreateRequest as never);
    expect(m.userType).toEqual(['Please input User Type!']);
    expect(m.position).toEqual(['Please input Position!']);
    expect(messagesFor({ ...employee, userType: 'CUSTOMER' }, EmployeeCreateRequest as never).userType).toEqual(['Please input User Type!']);
    const { username: _u, password: _p, ...edit } = employee;
    expect(EmployeeUpdateRequest.safeParse(edit).success).toBe(true);
    expect(Object.keys(EmployeeUpdateRequest.shape)).not.toContain('username');
    expect(Object.keys(EmployeeUpdateRequest.shape)).not.toContain('password');
  });
});
