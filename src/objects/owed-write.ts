import { describeError } from "../util/describe-error.ts";

/**
 * A write an object makes to a store beside its own (the KV copy, the channel's index row). A
 * refused write is owed: noted in the object's storage, so a restart still owes it, and tried
 * again at the next poll. The object's state and its alerts never wait on it.
 */
export class OwedWrite {
  readonly #storage: DurableObjectStorage;
  readonly #flag: string;
  readonly #what: string;
  #owed = false;

  constructor(storage: DurableObjectStorage, flag: string, what: string) {
    this.#storage = storage;
    this.#flag = flag;
    this.#what = what;
  }

  async load(): Promise<void> {
    this.#owed = (await this.#storage.get<boolean>(this.#flag)) === true;
  }

  get owed(): boolean {
    return this.#owed;
  }

  /** Storage was cleared (an unsubscribe): nothing is owed any more. */
  forget(): void {
    this.#owed = false;
  }

  async attempt(write: () => Promise<void>): Promise<void> {
    try {
      await write();
      if (this.#owed) {
        this.#owed = false;
        await this.#storage.delete(this.#flag);
      }
    } catch (error) {
      console.warn(`${this.#what} not written: ${describeError(error)}`);
      if (!this.#owed) {
        this.#owed = true;
        await this.#storage.put(this.#flag, true);
      }
    }
  }
}
