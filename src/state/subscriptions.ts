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

  /** Stores the subscription; adds it to the index when it is new. */
  async save(subscription: Subscription): Promise<void> {
    const key = subscriptionKey(subscription);
    await writeJson(this.#kv, key, subscription);
    const index = await this.listKeys();
    if (!index.includes(key)) await writeJson(this.#kv, keys.subscriptionIndex(), [...index, key].sort());
  }

  /** Writes state changes of an existing subscription (the cron's path): never touches the index. */
  async update(subscription: Subscription): Promise<void> {
    await writeJson(this.#kv, subscriptionKey(subscription), subscription);
  }

  async remove(channelId: string, kind: SubscriptionKind, id: number): Promise<boolean> {
    const key = keys.subscription(channelId, kind, id);
    const existed = (await this.#kv.get(key, "text")) !== null;
    const index = await this.listKeys();
    if (index.includes(key)) {
      await writeJson(
        this.#kv,
        keys.subscriptionIndex(),
        index.filter((k) => k !== key),
      );
    }
    if (existed) await this.#kv.delete(key);
    return existed;
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
