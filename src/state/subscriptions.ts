import { keys, parseSubscriptionKey, type SubscriptionKind } from "./keys.ts";
import { isRecord, readJson, writeJson } from "./kv-json.ts";
import type { Subscription } from "./subscription-types.ts";

function isSubscription(value: unknown): value is Subscription {
  if (!isRecord(value) || typeof value.channelId !== "string") return false;
  if (value.kind === "test") return typeof value.testId === "number" && typeof value.lastRunId === "number";
  if (value.kind === "collection")
    return typeof value.collectionId === "number" && typeof value.alertedCount === "number";
  return false;
}

const INDEX_ATTEMPTS = 5;
const INDEX_SETTLE_MS = 25;

function isKeyList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((key) => typeof key === "string");
}

export function subscriptionKey(subscription: Subscription): string {
  return subscription.kind === "test"
    ? keys.subscription(subscription.channelId, "test", subscription.testId)
    : keys.subscription(subscription.channelId, "collection", subscription.collectionId);
}

/** Subscriptions per channel plus the one index the cron reads each cycle. */
export class SubscriptionStore {
  readonly #kv: KVNamespace;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
  }

  get(channelId: string, kind: SubscriptionKind, id: number): Promise<Subscription | null> {
    return readJson(this.#kv, keys.subscription(channelId, kind, id), isSubscription);
  }

  getByKey(key: string): Promise<Subscription | null> {
    return readJson(this.#kv, key, isSubscription);
  }

  /** Stores the subscription and makes sure the index lists it. */
  async save(subscription: Subscription): Promise<void> {
    await writeJson(this.#kv, subscriptionKey(subscription), subscription);
    await this.ensureIndexed(subscriptionKey(subscription));
  }

  /**
   * Adds a key to the index. KV has no compare-and-swap, so two subscribes at once can each
   * write an index without the other's key: each writer checks, after a moment, that its key
   * survived, and writes again if not.
   */
  async ensureIndexed(key: string): Promise<void> {
    await this.#editIndex(
      (index) => (index.includes(key) ? null : [...index, key].sort()),
      (index) => index.includes(key),
    );
  }

  async #editIndex(
    edit: (index: string[]) => string[] | null,
    done: (index: string[]) => boolean,
  ): Promise<void> {
    for (let attempt = 0; attempt < INDEX_ATTEMPTS; attempt++) {
      const next = edit(await this.listKeys());
      if (next === null) return;
      await writeJson(this.#kv, keys.subscriptionIndex(), next);
      await new Promise((resolve) => setTimeout(resolve, INDEX_SETTLE_MS * (attempt + 1)));
      if (done(await this.listKeys())) return;
    }
  }

  /** Writes state changes of an existing subscription (the cron's path): never touches the index. */
  async update(subscription: Subscription): Promise<void> {
    await writeJson(this.#kv, subscriptionKey(subscription), subscription);
  }

  async remove(channelId: string, kind: SubscriptionKind, id: number): Promise<boolean> {
    const key = keys.subscription(channelId, kind, id);
    const existed = (await this.#kv.get(key, "text")) !== null;
    if (existed) await this.#kv.delete(key);
    await this.#editIndex(
      (index) => (index.includes(key) ? index.filter((k) => k !== key) : null),
      (index) => !index.includes(key),
    );
    return existed;
  }

  /**
   * Puts back index entries lost to a race, from a `list()` of the keys themselves. Costs
   * one list per call, so the cron does it hourly (Free: 1,000 lists a day).
   */
  async reconcileIndex(): Promise<number> {
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#kv.list({ prefix: "sub:", ...(cursor ? { cursor } : {}) });
      found.push(...page.keys.map((k) => k.name).filter((name) => parseSubscriptionKey(name) !== null));
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    const index = new Set(await this.listKeys());
    const missing = found.filter((key) => !index.has(key));
    for (const key of missing) await this.ensureIndexed(key);
    return missing.length;
  }

  async listKeys(): Promise<string[]> {
    return (await readJson(this.#kv, keys.subscriptionIndex(), isKeyList)) ?? [];
  }

  async listForChannel(channelId: string): Promise<Subscription[]> {
    const channelKeys = (await this.listKeys()).filter(
      (key) => parseSubscriptionKey(key)?.channelId === channelId,
    );
    const found = await Promise.all(channelKeys.map((key) => this.getByKey(key)));
    return found.filter((s): s is Subscription => s !== null);
  }
}
