import { keys } from "./keys.ts";

type LeaseRecord = { owner: string; until: number };

const SETTLE_MS = 40;

/**
 * A short lease so two overlapping cycles do not post the same alert. Taken only when a
 * subscription has something to post, so an idle cycle writes nothing. KV is eventually
 * consistent across locations; within one location (where cron invocations of one Worker
 * run back to back) a written lease is visible to the next reader.
 */
export class LeaseStore {
  readonly #kv: KVNamespace;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
  }

  /** `subject` names what is leased: a subscription key, or `digest:<channel>`. */
  async acquire(subject: string, owner: string, now: number, ttlSeconds = 60): Promise<boolean> {
    const key = keys.lease(subject);
    const held = await this.#kv.get<LeaseRecord>(key, "json").catch(() => null);
    if (held && held.owner !== owner && held.until > now) return false;
    // KV's minimum TTL is 60 s; `until` lets a shorter lease end early.
    await this.#kv.put(key, JSON.stringify({ owner, until: now + ttlSeconds * 1000 } satisfies LeaseRecord), {
      expirationTtl: Math.max(60, ttlSeconds),
    });
    // Two takers that both read "free" both write; after a moment only the last write is
    // visible to both, so exactly one of them goes on.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const won = await this.#kv.get<LeaseRecord>(key, "json").catch(() => null);
    return won?.owner === owner;
  }

  async release(subject: string, owner: string): Promise<void> {
    const key = keys.lease(subject);
    const held = await this.#kv.get<LeaseRecord>(key, "json").catch(() => null);
    if (held?.owner === owner) await this.#kv.delete(key);
  }
}
