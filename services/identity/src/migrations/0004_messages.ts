import { mailOutboxTableSql, Migration } from '@dme/platform';

/**
 * Issue 24: e-mail and accounts.
 *  - `mail_outbox`: every message to a customer (platform/mail-outbox.ts), sent by the relay.
 *  - `users.email_verified_at`: set when the owner followed a verification link; accounts that
 *    existed before are taken as verified (they were made by staff, or by the demo seed).
 *  - `users.reminders_enabled`: the customer's choice for reminders (transactional messages are
 *    always sent; the one-click link of every reminder is signed, nothing stored).
 *  - `account_tokens`: one-time links (verify an e-mail address, reset a password); only the
 *    SHA-256 of a token is kept, with its purpose, the address it was sent to and its end.
 */
export class IdentityMessages extends Migration {
  override async up(): Promise<void> {
    const s = this.config.get('schema') ?? 'identity';
    for (const statement of mailOutboxTableSql(s)) this.addSql(statement);
    this.addSql(`create index "mail_outbox_created_idx" on "${s}"."mail_outbox" ("created_at" desc)`);
    this.addSql(`alter table "${s}"."users"
      add column "email_verified_at" timestamptz null,
      add column "reminders_enabled" boolean not null default true`);
    this.addSql(`update "${s}"."users" set "email_verified_at" = "created_at"`);
    this.addSql(`create table "${s}"."account_tokens" (
      "id" uuid primary key,
      "user_id" uuid not null references "${s}"."users" ("id") on delete cascade,
      "purpose" varchar(20) not null check ("purpose" in ('VERIFY_EMAIL', 'RESET_PASSWORD')),
      "token_hash" varchar(64) not null unique,
      "email" varchar(254) not null,
      "expires_at" timestamptz not null,
      "used_at" timestamptz null,
      "created_at" timestamptz not null default now()
    )`);
    this.addSql(`create index "account_tokens_user_idx" on "${s}"."account_tokens" ("user_id", "purpose", "created_at" desc)`);
    this.addSql(`create index "account_tokens_email_idx" on "${s}"."account_tokens" (lower("email"), "created_at" desc)`);
  }
}
