import { factsOfKind, subscriptionId } from "../model/kind-facts.ts";
import { type Subscription, storedSubscription } from "../model/subscription.ts";
import { isSubscriptionKind, type SubscriptionKind } from "../model/subscription-kind.ts";
import { keys, parseSubscriptionKey } from "./keys.ts";
import { isRecord, readJson, writeJson } from "./kv-json.ts";

function isStoredSubscription(value: unknown): value is Subscription {
  if (!isRecord(value) || typeof value.channelId !== "string") return false;
  return isSubscriptionKind(value.kind) && factsOfKind(value.kind).isStored(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

export function subscriptionKey(subscription: Subscription, scope = ""): string {
  return keys.subscription(subscription.channelId, subscription.kind, subscriptionId(subscription), scope);
}

/**
 * Copies of subscriptions as subscribed (kind, id, channel, options, who), and the registry's
 * list of them: which channels the bot watches, and what a channel's index starts from. Their
 * objects write them when a person subscribes or changes the options, never at a poll, so the
 * engine state in them is the baseline's: the live state is the channel's index
 * (src/model/channel-index.ts).
 */
export class SubscriptionStore {
  readonly #kv: KVNamespace;
  readonly #scope: string;

  /** `scope`: one team's keys only (src/store/keys.ts); a key of another scope is never read. */
  constructor(kv: KVNamespace, scope = "") {
    this.#kv = kv;
    this.#scope = scope;
  }

  get(channelId: string, kind: SubscriptionKind, id: number): Promise<Subscription | null> {
    return this.#read(keys.subscription(channelId, kind, id, this.#scope));
  }

  getByKey(key: string): Promise<Subscription | null> {
    if (this.#scope && parseSubscriptionKey(key)?.scope !== this.#scope) return Promise.resolve(null);
    return this.#read(key);
  }

  async #read(key: string): Promise<Subscription | null> {
    const stored = await readJson(this.#kv, key, isStoredSubscription);
    return stored && storedSubscription(stored);
  }

  /** The subscription's object writes its copy here when subscribed; nothing else writes it. */
  async update(subscription: Subscription): Promise<void> {
    await writeJson(this.#kv, subscriptionKey(subscription, this.#scope), subscription);
  }

  /** The index is the team's registry shard's copy (src/objects/registry-object.ts), read-only here. */
  async listKeys(): Promise<string[]> {
    const all = (await readJson(this.#kv, keys.subscriptionIndex(this.#scope), isStringList)) ?? [];
    return this.#scope ? all.filter((key) => parseSubscriptionKey(key)?.scope === this.#scope) : all;
  }

  async listForChannel(channelId: string): Promise<Subscription[]> {
    const channelKeys = (await this.listKeys()).filter(
      (key) => parseSubscriptionKey(key)?.channelId === channelId,
    );
    const found = await Promise.all(channelKeys.map((key) => this.getByKey(key)));
    return found.filter((s): s is Subscription => s !== null);
  }
}
