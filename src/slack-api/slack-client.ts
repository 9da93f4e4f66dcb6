import { type RetryHandler, type RetryHandlerArgs, type RetryHandlerState, SlackAPIClient } from "slack-edge";
import type { Config } from "../config.ts";
import type { SubrequestBudget } from "../util/subrequest-budget.ts";

/**
 * Honours Slack's `Retry-After` on 429 in-process only while the wait is short; a longer wait
 * fails the call so the cron retries next cycle instead of burning the invocation's time.
 */
class BoundedRateLimitRetry implements RetryHandler {
  readonly #maxAttempts: number;
  readonly #maxWaitSeconds: number;
  readonly #budget: SubrequestBudget | undefined;

  constructor(maxAttempts: number, maxWaitSeconds: number, budget?: SubrequestBudget) {
    this.#maxAttempts = maxAttempts;
    this.#maxWaitSeconds = maxWaitSeconds;
    this.#budget = budget;
  }

  async shouldRetry({ state, response }: RetryHandlerArgs): Promise<boolean> {
    if (response?.status !== 429 || state.currentAttempt >= this.#maxAttempts) return false;
    if (this.#budget && !this.#budget.has()) return false;
    const seconds = Number.parseFloat(response.headers.get("retry-after") ?? "");
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > this.#maxWaitSeconds) return false;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    return true;
  }
}

/** One short retry on Slack 5xx: a second failure is left to the next cycle. */
class ServerErrorRetry implements RetryHandler {
  readonly #budget: SubrequestBudget | undefined;

  constructor(budget?: SubrequestBudget) {
    this.#budget = budget;
  }

  async shouldRetry({ state, response }: RetryHandlerArgs): Promise<boolean> {
    if (!response || response.status < 500 || state.currentAttempt >= 1) return false;
    if (this.#budget && !this.#budget.has()) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return true;
  }
}

export type SlackClientOptions = {
  maxRetryAfterSeconds?: number;
  /** Every attempt (retries included) draws from it; none left → the call is not made. */
  budget?: SubrequestBudget;
  /** Per call, retries included; past it the outcome is unknown (see SlackTimeoutError). */
  timeoutMs?: number;
};

/**
 * A call that did not answer in time. Slack may still have done it (a post may appear), so a
 * caller must treat the outcome as unknown, never as "not posted".
 */
export class SlackTimeoutError extends Error {
  override readonly name = "SlackTimeoutError";
  constructor(method: string, ms: number) {
    super(`Slack did not answer ${method} within ${ms} ms`);
  }
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * slack-edge's client calls the global `fetch` with no timeout and no way to inject one, so
 * its one internal entry point (`call`, which every method and every retry goes through) is
 * where the budget and the timeout are applied.
 */
class BoundedSlackClient extends SlackAPIClient {
  readonly #budget: SubrequestBudget | undefined;
  readonly #timeoutMs: number;

  constructor(
    token: string,
    options: ConstructorParameters<typeof SlackAPIClient>[1],
    bounds: SlackClientOptions,
  ) {
    super(token, options);
    this.#budget = bounds.budget;
    this.#timeoutMs = bounds.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the parent's own signature.
  override async call(name: string, params: any = {}, retryHandlerState?: RetryHandlerState): Promise<any> {
    this.#budget?.take(`Slack ${name}`);
    const attempt = super.call(name, params, retryHandlerState);
    // Retries re-enter here; only the outermost call owns the deadline.
    if (retryHandlerState) return attempt;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SlackTimeoutError(name, this.#timeoutMs)), this.#timeoutMs);
    });
    try {
      return await Promise.race([attempt, deadline]);
    } finally {
      clearTimeout(timer);
      // A late answer (or failure) of an abandoned attempt must not surface as unhandled.
      attempt.catch(() => {});
    }
  }
}

/**
 * The one Web API client of the bot, for commands and cron alike. slack-edge builds its own
 * clients against slack.com; this one honours `SLACK_API_URL` (the local stand-in in dev).
 */
export function createSlackClient(
  config: Pick<Config, "slackBotToken" | "slackApiUrl">,
  options: SlackClientOptions = {},
): SlackAPIClient {
  return new BoundedSlackClient(
    config.slackBotToken,
    {
      baseUrl: config.slackApiUrl,
      throwSlackAPIError: true,
      logLevel: "ERROR",
      retryHandlers: [
        new BoundedRateLimitRetry(2, options.maxRetryAfterSeconds ?? 5, options.budget),
        new ServerErrorRetry(options.budget),
      ],
    },
    options,
  );
}
