import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { MESSAGES } from '@dme/contracts';
import { addressKey, qualified, tooManyRequests, type Logger } from '@dme/platform';
import type { IdentityConfig } from '../../config';

/**
 * Sign-in throttling as OWASP recommends (Authentication cheat sheet, "account lockout"): nobody
 * can lock someone else out, and one office behind one address does not lock itself out.
 *
 *  - per (username, address) pair: LOGIN_MAX_FAILURES_PER_PAIR failures in the window → that pair
 *    gets 429 until the window ends, even with the right password;
 *  - per address: LOGIN_MAX_PER_IP failures in the window → 429 for that address;
 *  - per account: no lock, a delay before the answer that grows with the account's failures
 *    (loginDelayMs), from wherever they came.
 *
 * Only failures count (401: wrong password or unknown user). Successes, deactivated accounts
 * (403) and errors do not; a success clears its pair. Unknown usernames are counted exactly like
 * real ones, so the answers do not tell which accounts exist.
 *
 * Counters are rows in identity.login_throttle (migration 0003), windows end on the database
 * clock, so every identity replica behind every gateway shares them. Each attempt is counted as a
 * failure *before* the password is checked (one atomic upsert) and given back when it turns out
 * not to be one: parallel guesses cannot slip past a limit while their checks are in flight.
 */

export interface DelayPolicy {
  /** Failures before the first delay. */
  afterFailures: number;
  /** The first delay (ms); doubles with each further failure. */
  baseMs: number;
  /** The longest delay (ms). */
  maxMs: number;
}

/**
 * How long (ms) a sign-in for an account with `failures` failed sign-ins in the window waits
 * before it is answered: 0 below `afterFailures`, then baseMs · 2^(failures − afterFailures),
 * capped at maxMs. Defaults: 0, 0, 0, 250, 500, 1000, 2000, 4000, 5000, 5000…
 */
export function loginDelayMs(failures: number, p: DelayPolicy): number {
  if (!(failures >= p.afterFailures) || p.baseMs <= 0 || p.maxMs <= 0) return 0;
  const doublings = Math.min(failures - p.afterFailures, 30);
  return Math.min(p.maxMs, p.baseMs * 2 ** doublings);
}

export function delayPolicyOf(config: IdentityConfig): DelayPolicy {
  return { afterFailures: config.LOGIN_DELAY_AFTER_FAILURES, baseMs: config.LOGIN_DELAY_BASE_MS, maxMs: config.LOGIN_DELAY_MAX_MS };
}

/** The address a limit counts (IPv6 by /64): one home, platform rate-limit.ts. */
export { addressKey };

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** The counter keys of one attempt (hashed: the table keeps no list of tried usernames). */
export function throttleKeys(username: string, address: string) {
  const user = username.toLowerCase();
  const addr = addressKey(address);
  return { pair: `pair:${hash(`${user}\n${addr}`)}`, ip: `ip:${hash(addr)}`, account: `acct:${hash(user)}` };
}

interface Counter {
  failures: number;
  secondsLeft: number;
}

const table = (em: EntityManager) => qualified(em, 'login_throttle');

/**
 * Counts one (provisional) failure on each key, atomically, and returns the counts. A key whose
 * window has ended, or whose count is back at zero, starts a new window now. Keys are sorted so
 * that concurrent statements lock rows in the same order.
 */
async function reserve(em: EntityManager, keys: string[], windowMinutes: number): Promise<Map<string, Counter>> {
  const sorted = [...new Set(keys)].sort();
  const t = table(em);
  const rows = await em.execute<Array<{ key: string; failures: number; seconds_left: number }>>(
    `insert into ${t} as t ("key", "failures", "window_ends_at")
       values ${sorted.map(() => '(?, 1, now() + make_interval(mins => ?))').join(', ')}
     on conflict ("key") do update set
       "failures" = case when t.window_ends_at <= now() or t.failures <= 0 then 1 else t.failures + 1 end,
       "window_ends_at" = case when t.window_ends_at <= now() or t.failures <= 0 then excluded.window_ends_at else t.window_ends_at end
     returning "key", "failures", ceil(extract(epoch from ("window_ends_at" - now())))::int as seconds_left`,
    sorted.flatMap((k) => [k, windowMinutes]),
  );
  return new Map(rows.map((r) => [r.key, { failures: Number(r.failures), secondsLeft: Number(r.seconds_left) }]));
}

/**
 * Gives back provisional failures (one each), and clears the keys in `clear`. The rows are locked
 * in key order first, as `reserve` locks them: two statements never wait for each other's rows in
 * opposite orders (a deadlock under parallel sign-ins).
 */
async function release(em: EntityManager, keys: string[], clear: string[] = []): Promise<void> {
  const sorted = [...new Set([...keys, ...clear])].sort();
  if (!sorted.length) return;
  const t = table(em);
  await em.execute(
    `with locked as (select "key" from ${t} where "key" in (${sorted.map(() => '?').join(', ')}) order by "key" for update)
     update ${t} as t set "failures" = case when t."key" in (${clear.map(() => '?').join(', ') || 'null'}) then 0
                                            else greatest(t."failures" - 1, 0) end
       from locked where t."key" = locked."key"`,
    [...sorted, ...clear],
    'run',
  );
}

/** Deletes counters whose window ended (housekeeping). Returns how many. */
export async function purgeExpiredThrottle(em: EntityManager): Promise<number> {
  const res = await em.execute<{ affectedRows: number }>(`delete from ${table(em)} where "window_ends_at" <= now()`, [], 'run');
  return res.affectedRows;
}

export interface LoginAttempt {
  /** The account's failures in the window before this attempt, and the delay it was given. */
  readonly accountFailures: number;
  readonly delayMs: number;
  /** 200: clears the pair, gives back the address's and the account's provisional failure. */
  succeeded(): Promise<void>;
  /** 401: the provisional failures stand. */
  failed(): Promise<void>;
  /** Anything else (403 deactivated, an error): gives back every provisional failure. */
  notAFailure(): Promise<void>;
}

export interface LoginThrottle {
  /**
   * Starts a sign-in attempt: throws 429 when the address or the (username, address) pair is
   * over its limit; otherwise waits the account's delay and returns the attempt to settle.
   */
  begin(em: EntityManager, username: string, address: string): Promise<LoginAttempt>;
}

export function loginThrottle(config: IdentityConfig, logger: Logger): LoginThrottle {
  const window = config.LOGIN_WINDOW_MINUTES;
  const policy = delayPolicyOf(config);
  return {
    async begin(em, username, address) {
      const keys = throttleKeys(username, address);

      // The address first: a blocked address creates no rows for the usernames it tries.
      const ip = (await reserve(em, [keys.ip], window)).get(keys.ip)!;
      if (ip.failures > config.LOGIN_MAX_PER_IP) {
        await release(em, [keys.ip]);
        throw tooManyRequests(MESSAGES.login.tooMany, ip.secondsLeft);
      }

      const counts = await reserve(em, [keys.pair, keys.account], window);
      const pair = counts.get(keys.pair)!;
      const account = counts.get(keys.account)!;
      if (pair.failures > config.LOGIN_MAX_FAILURES_PER_PAIR) {
        await release(em, [keys.ip, keys.pair, keys.account]);
        throw tooManyRequests(MESSAGES.login.tooMany, pair.secondsLeft);
      }

      // Failures before this attempt (other attempts still in flight included).
      const accountFailures = account.failures - 1;
      const delayMs = loginDelayMs(accountFailures, policy);
      let settled = false;
      const settle = async (how: () => Promise<void>) => {
        if (settled) return;
        settled = true;
        await how();
      };
      const attempt: LoginAttempt = {
        accountFailures,
        delayMs,
        succeeded: () => settle(() => release(em, [keys.ip, keys.account], [keys.pair])),
        failed: () =>
          settle(async () => {
            if (pair.failures === config.LOGIN_MAX_FAILURES_PER_PAIR || ip.failures === config.LOGIN_MAX_PER_IP) {
              logger.warn(
                { address: addressKey(address), username: username.toLowerCase().slice(0, 50), pairFailures: pair.failures, addressFailures: ip.failures },
                'sign-in limit reached: further attempts get 429 until the window ends',
              );
            }
          }),
        notAFailure: () => settle(() => release(em, [keys.ip, keys.pair, keys.account])),
      };
      if (delayMs > 0) await sleep(delayMs);
      return attempt;
    },
  };
}
