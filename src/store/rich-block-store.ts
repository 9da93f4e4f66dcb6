import { keys } from "./keys.ts";

/**
 * Which block types (charts, tables) a workspace refused: Slack rolls new blocks out in
 * phases. Each type is kept a week from its refusal, then tried again: a workspace the rollout
 * reached gets it without anyone acting. One KV key per workspace, a JSON object of type →
 * when refused; one write per type and week at most, a read only for messages that carry one.
 * A value of before (one time for all types) reads as none: the next refusal says which type.
 */
export const RICH_BLOCKS_RETRY_AFTER_S = 7 * 24 * 60 * 60;

type Refusals = Record<string, string>;

export class RichBlockMemory {
  readonly #kv: KVNamespace;
  readonly #key: string;

  constructor(kv: KVNamespace, teamId: string) {
    this.#kv = kv;
    this.#key = keys.richBlocksRefused(teamId);
  }

  async #read(now: Date): Promise<Refusals> {
    const text = await this.#kv.get(this.#key, "text");
    let stored: unknown = null;
    try {
      stored = text ? JSON.parse(text) : null;
    } catch {
      return {};
    }
    if (!stored || typeof stored !== "object") return {};
    const fresh: Refusals = {};
    for (const [type, at] of Object.entries(stored)) {
      const age = now.getTime() - Date.parse(String(at));
      if (age >= 0 && age < RICH_BLOCKS_RETRY_AFTER_S * 1000) fresh[type] = String(at);
    }
    return fresh;
  }

  async refusedTypes(): Promise<ReadonlySet<string>> {
    return new Set(Object.keys(await this.#read(new Date())));
  }

  async remember(types: readonly string[]): Promise<void> {
    const now = new Date();
    const refusals = await this.#read(now);
    for (const type of types) refusals[type] = now.toISOString();
    await this.#kv.put(this.#key, JSON.stringify(refusals), { expirationTtl: RICH_BLOCKS_RETRY_AFTER_S });
  }
}
