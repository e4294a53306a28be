import { Migration } from '@dme/platform';
import { IdentityUserVersions } from './0002_user_versions';
import { IdentityLoginThrottle } from './0003_login_throttle';
import { IdentityMessages } from './0004_messages';
import { IdentityRateLimits } from './0005_rate_limits';
import { IdentityUserSearch } from './0006_user_search';
import { IdentityUserCounts } from './0007_user_counts';

export class IdentityInitial extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema');
    this.addSql(`create sequence "${s}"."customer_number_seq" start 1`);
    this.addSql(`create sequence "${s}"."employee_number_seq" start 1`);
    this.addSql(`create table "${s}"."users" (
      "id" uuid primary key,
      "id_number" varchar(20) not null unique,
      "username" varchar(50) not null,
      "password_hash" varchar(255) not null,
      "first_name" varchar(60) not null,
      "middle_name" varchar(60) not null default '',
      "last_name" varchar(60) not null,
      "suffix" varchar(20) not null default '',
      "birth_date" date not null,
      "gender" varchar(10) not null check ("gender" in ('MALE','FEMALE')),
      "contact_number" varchar(30) not null,
      "email" varchar(254) not null,
      "address" varchar(12) not null,
      "city" varchar(80) not null,
      "state" varchar(80) not null,
      "zipcode" varchar(20) not null,
      "image" varchar(300) not null,
      "status" varchar(20) not null check ("status" in ('ACTIVE','DEACTIVATED')),
      "user_type" varchar(30) not null,
      "position" varchar(80) not null default '',
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      "deleted_at" timestamptz null
    )`);
    // Usernames are unique regardless of case, and stay reserved after an account is deleted.
    this.addSql(`create unique index "users_username_lower_uq" on "${s}"."users" (lower("username"))`);
    this.addSql(`create index "users_type_created_idx" on "${s}"."users" ("user_type", "created_at" desc) where "deleted_at" is null`);
    this.addSql(`create table "${s}"."sessions" (
      "id" uuid primary key,
      "token_hash" varchar(64) not null unique,
      "user_id" uuid not null references "${s}"."users" ("id") on delete cascade,
      "created_at" timestamptz not null,
      "last_seen_at" timestamptz not null,
      "expires_at" timestamptz not null,
      "ip" varchar(64) not null default '',
      "user_agent" varchar(300) not null default ''
    )`);
    this.addSql(`create index "sessions_user_idx" on "${s}"."sessions" ("user_id")`);
  }
}

export const migrations = [
  { name: '0001_identity', class: IdentityInitial },
  { name: '0002_user_versions', class: IdentityUserVersions },
  { name: '0003_login_throttle', class: IdentityLoginThrottle },
  { name: '0004_messages', class: IdentityMessages },
  { name: '0005_rate_limits', class: IdentityRateLimits },
  { name: '0006_user_search', class: IdentityUserSearch },
  { name: '0007_user_counts', class: IdentityUserCounts },
];
