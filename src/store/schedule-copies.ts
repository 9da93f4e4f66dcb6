import { readJson, writeJson } from "./kv-json.ts";

/**
 * Readable KV copies of one kind of channel schedule (the digest's, the weekly report's). Each
 * channel's object is the only writer, so a copy is written only when it changed: a schedule
 * that moves on once a day or a week writes its copy that often, never on a poll.
 */
export class ScheduleCopies<T> {
  readonly #kv: KVNamespace;
  readonly #scope: string;
  readonly #keyOf: (channelId: string, scope: string) => string;
  readonly #isValid: (value: unknown) => value is T;

  /** `scope`: one team's keys (src/store/keys.ts); empty in single-workspace mode. */
  constructor(
    kv: KVNamespace,
    scope: string,
    keyOf: (channelId: string, scope: string) => string,
    isValid: (value: unknown) => value is T,
  ) {
    this.#kv = kv;
    this.#scope = scope;
    this.#keyOf = keyOf;
    this.#isValid = isValid;
  }

  get(channelId: string): Promise<T | null> {
    return readJson(this.#kv, this.#keyOf(channelId, this.#scope), this.#isValid);
  }

  async writeCopy(channelId: string, schedule: T | null): Promise<void> {
    const key = this.#keyOf(channelId, this.#scope);
    const current = await this.#kv.get(key, "text");
    if (schedule === null) {
      if (current !== null) await this.#kv.delete(key);
      return;
    }
    if (current !== JSON.stringify(schedule)) await writeJson(this.#kv, key, schedule);
  }
}
