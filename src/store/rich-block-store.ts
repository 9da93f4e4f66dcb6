import { keys } from "./keys.ts";

/**
 * Which workspaces refused charts or tables (Slack rolls new blocks out in phases). Kept a
 * week, then tried again: a workspace the rollout reached gets them without anyone acting.
 * One KV write per workspace and week at most; a read only for messages that carry them.
 */
export const RICH_BLOCKS_RETRY_AFTER_S = 7 * 24 * 60 * 60;

export class RichBlockMemory {
  readonly #kv: KVNamespace;
  readonly #key: string;

  constructor(kv: KVNamespace, teamId: string) {
    this.#kv = kv;
    this.#key = keys.richBlocksRefused(teamId);
  }

  async refused(): Promise<boolean> {
    return (await this.#kv.get(this.#key, "text")) !== null;
  }

  async remember(): Promise<void> {
    await this.#kv.put(this.#key, new Date().toISOString(), { expirationTtl: RICH_BLOCKS_RETRY_AFTER_S });
  }
}
