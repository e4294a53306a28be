import { defineEntity, type InferEntity } from '@mikro-orm/core';
import type { Gender, UserStatus, UserType } from '@dme/contracts';

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: (p) => ({
    id: p.uuid().primary(),
    idNumber: p.string().length(20).unique(),
    username: p.string().length(50),
    passwordHash: p.string().length(255).hidden().lazy(),
    firstName: p.string().length(60),
    middleName: p.string().length(60).default(''),
    lastName: p.string().length(60),
    suffix: p.string().length(20).default(''),
    birthDate: p.string().columnType('date'),
    gender: p.string().length(10).$type<Gender>(),
    contactNumber: p.string().length(30),
    email: p.string().length(254),
    address: p.string().length(12),
    city: p.string().length(80),
    state: p.string().length(80),
    zipcode: p.string().length(20),
    image: p.string().length(300),
    status: p.string().length(20).$type<UserStatus>(),
    userType: p.string().length(30).$type<UserType>(),
    position: p.string().length(80).default(''),
    createdAt: p.datetime().columnType('timestamptz').onCreate(() => new Date()),
    updatedAt: p.datetime().columnType('timestamptz').onCreate(() => new Date()).onUpdate(() => new Date()),
    deletedAt: p.datetime().columnType('timestamptz').nullable(),
    /** When the owner proved the address (a verification link); null: not yet (issue 24). */
    emailVerifiedAt: p.datetime().columnType('timestamptz').nullable(),
    /** The customer's choice for reminders; transactional messages are sent whatever it is. */
    remindersEnabled: p.boolean().default(true),
  }),
});
export type UserRow = InferEntity<typeof UserEntity>;
