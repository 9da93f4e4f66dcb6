/**
 * Outage messages (by ts) a test passed again from, whose parent Slack would not take the
 * edit yet (a rate limit): told to the channel again at each poll until it shows it. Kept in
 * the test's object's storage, so a restart still owes them.
 */
type OwedRecovery = { ts: string; at: string };

const KEY = "outage-recoveries-owed";
/** A test is named by few outages at once: older debts than these are let go. */
const MAX_OWED = 5;

export class OwedRecoveries {
  readonly #storage: DurableObjectStorage;
  #owed: OwedRecovery[] = [];

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  async load(): Promise<void> {
    this.#owed = (await this.#storage.get<OwedRecovery[]>(KEY)) ?? [];
  }

  /**
   * Tells the channel the recoveries still owed and the `fresh` ones of this poll (at `at`),
   * each outage once; `shown` is false while Slack refuses the parent's edit for now. True when
   * what is owed changed in storage.
   */
  async tell(
    fresh: readonly string[],
    at: string,
    shown: (recovery: OwedRecovery) => Promise<boolean>,
  ): Promise<boolean> {
    const owed = [...this.#owed, ...fresh.map((ts) => ({ ts, at }))];
    if (owed.length === 0) return false;
    const still: OwedRecovery[] = [];
    const told = new Set<string>();
    for (const r of owed) {
      if (told.has(r.ts)) continue;
      told.add(r.ts);
      if (!(await shown(r))) still.push(r);
    }
    const kept = still.slice(-MAX_OWED);
    if (JSON.stringify(kept) === JSON.stringify(this.#owed)) return false;
    this.#owed = kept;
    if (kept.length > 0) await this.#storage.put(KEY, kept);
    else await this.#storage.delete(KEY);
    return true;
  }
}
