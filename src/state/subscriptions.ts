import { KeyList } from "./key-list.ts";
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

export function subscriptionKey(subscription: Subscription): string {
  return subscription.kind === "test"
    ? keys.subscription(subscription.channelId, "test", subscription.testId)
    : keys.subscription(subscription.channelId, "collection", subscription.collectionId);
}

/** Subscriptions per channel plus the one index the cron reads each cycle. */
export class SubscriptionStore {
  readonly #kv: KVNamespace;
  readonly #index: KeyList;

  constructor(kv: KVNamespace) {
    this.#kv = kv;
    this.#index = new KeyList(kv, keys.subscriptionIndex());
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

  /** Makes sure the index lists a key (a concurrent subscribe may have dropped it). */
  ensureIndexed(key: string): Promise<void> {
    return this.#index.add(key);
  }

  /** Writes state changes of an existing subscription (the cron's path): never touches the index. */
  async update(subscription: Subscription): Promise<void> {
    await writeJson(this.#kv, subscriptionKey(subscription), subscription);
  }

  async remove(channelId: string, kind: SubscriptionKind, id: number): Promise<boolean> {
    const key = keys.subscription(channelId, kind, id);
    const existed = (await this.#kv.get(key, "text")) !== null;
    if (existed) await this.#kv.delete(key);
    await this.#index.remove(key);
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

  listKeys(): Promise<string[]> {
    return this.#index.read();
  }

  async listForChannel(channelId: string): Promise<Subscription[]> {
    const channelKeys = (await this.listKeys()).filter(
      (key) => parseSubscriptionKey(key)?.channelId === channelId,
    );
    const found = await Promise.all(channelKeys.map((key) => this.getByKey(key)));
    return found.filter((s): s is Subscription => s !== null);
  }
}
