/**
 * External subrequests one invocation may still make. The Free plan allows 50 per invocation
 * (a Durable Object's own invocations included), and Slack retries, text-only second
 * attempts and vendor retries all count, so every outgoing call of an invocation draws from
 * one budget: what does not fit waits for the next cycle instead of failing mid-way.
 */
export class SubrequestBudget {
  #remaining: number;
  #used = 0;

  constructor(limit: number) {
    this.#remaining = limit;
  }

  get remaining(): number {
    return this.#remaining;
  }

  get used(): number {
    return this.#used;
  }

  /** Whether `count` more calls fit, without spending them. */
  has(count = 1): boolean {
    return this.#remaining >= count;
  }

  /** Spends one call, or throws when none is left (the call must not be made). */
  take(what: string): void {
    if (this.#remaining <= 0) throw new BudgetExhaustedError(what);
    this.#remaining--;
    this.#used++;
  }
}

export class BudgetExhaustedError extends Error {
  override readonly name = "BudgetExhaustedError";
  constructor(what: string) {
    super(`no subrequests left in this invocation for ${what}`);
  }
}

/** Below the Free plan's 50, leaving room for a call the platform makes for us. */
export const SUBREQUESTS_PER_INVOCATION = 45;

/** A `fetch` that draws from the budget before each request. */
export function budgetedFetch(budget: SubrequestBudget, inner: typeof fetch = fetch): typeof fetch {
  return (input, init) => {
    budget.take("a vendor request");
    return inner(input, init);
  };
}
