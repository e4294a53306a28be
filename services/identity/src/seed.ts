import type { EntityManager } from '@mikro-orm/postgresql';
import type { EmployeeType } from '@dme/contracts';
import { qualified } from '@dme/platform';
import { createEmployee, registerCustomer } from './modules/users/user.service';

export interface SeedAccount {
  username: string;
  userType: EmployeeType | 'CUSTOMER';
  firstName: string;
  lastName: string;
  position: string;
  gender: 'MALE' | 'FEMALE';
  birthDate: string;
}

/** The demo accounts (README lists them). */
export const DEMO_ACCOUNTS: SeedAccount[] = [
  { username: 'superadmin', userType: 'SUPERADMIN', firstName: 'Sofia', lastName: 'Reyes', position: 'Owner', gender: 'FEMALE', birthDate: '1979-03-14' },
  { username: 'warehouseadmin', userType: 'WAREHOUSE_ADMIN', firstName: 'Marco', lastName: 'Cruz', position: 'Warehouse Manager', gender: 'MALE', birthDate: '1985-07-02' },
  { username: 'warehousestaff', userType: 'WAREHOUSE_STAFF', firstName: 'Liza', lastName: 'Mendoza', position: 'Warehouse Associate', gender: 'FEMALE', birthDate: '1994-11-21' },
  { username: 'accounting', userType: 'ACCOUNTING_ADMIN', firstName: 'Ana', lastName: 'Villanueva', position: 'Accountant', gender: 'FEMALE', birthDate: '1988-01-30' },
  { username: 'driver', userType: 'DRIVER', firstName: 'Jun', lastName: 'Dela Cruz', position: 'Delivery Driver', gender: 'MALE', birthDate: '1990-09-09' },
  { username: 'customer', userType: 'CUSTOMER', firstName: 'Carmen', lastName: 'Garcia', position: '', gender: 'FEMALE', birthDate: '1962-05-18' },
];

async function exists(em: EntityManager, username: string): Promise<boolean> {
  const rows = await em.execute(`select 1 from ${qualified(em, 'users')} where lower(username) = lower(?)`, [username]);
  return rows.length > 0;
}

/**
 * Creates the given accounts unless their username exists (idempotent). Goes through the same
 * domain functions as the API, so passwords are hashed and events recorded.
 */
export async function seedAccounts(
  em: EntityManager,
  accounts: SeedAccount[],
  password: string,
  imageFor: (username: string) => string,
): Promise<string[]> {
  const created: string[] = [];
  for (const a of accounts) {
    const fork = em.fork();
    if (await exists(fork, a.username)) continue;
    const person = {
      username: a.username,
      password,
      firstName: a.firstName,
      middleName: '',
      lastName: a.lastName,
      suffix: '',
      birthDate: a.birthDate,
      gender: a.gender,
      contactNumber: '+63 917 555 0100',
      email: `${a.username}@dme-demo.example`,
      address: '88 Ayala Ave',
      city: 'Makati',
      state: 'Metro Manila',
      zipcode: '122600',
      image: imageFor(a.username),
    };
    // Demo customers' addresses are taken as proven (no verification e-mail for the demo's own accounts).
    if (a.userType === 'CUSTOMER') await registerCustomer(fork, person, async (_tem, user) => void (user.emailVerifiedAt = user.createdAt));
    else await createEmployee(fork, { ...person, userType: a.userType, position: a.position });
    created.push(a.username);
  }
  return created;
}
