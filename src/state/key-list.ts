import { readJson, writeJson } from "./kv-json.ts";

const ATTEMPTS = 5;
const SETTLE_MS = 25;

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * A KV key holding a sorted list of strings (an index the cron reads instead of `list()`).
 * KV has no compare-and-swap, so two writers at once can each drop the other's entry: every
 * edit checks, after a moment, that it survived, and writes again if not.
 */
export class KeyList {
  readonly #kv: KVNamespace;
  readonly #key: string;

  constructor(kv: KVNamespace, key: string) {
    this.#kv = kv;
    this.#key = key;
  }

  async read(): Promise<string[]> {
    return (await readJson(this.#kv, this.#key, isStringList)) ?? [];
  }

  add(item: string): Promise<void> {
    return this.#edit(
      (list) => (list.includes(item) ? null : [...list, item].sort()),
      (list) => list.includes(item),
    );
  }

  remove(item: string): Promise<void> {
    return this.#edit(
      (list) => (list.includes(item) ? list.filter((i) => i !== item) : null),
      (list) => !list.includes(item),
    );
  }

  async #edit(edit: (list: string[]) => string[] | null, done: (list: string[]) => boolean): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const next = edit(await this.read());
      if (next === null) return;
      await writeJson(this.#kv, this.#key, next);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS * (attempt + 1)));
      if (done(await this.read())) return;
    }
  }
}
