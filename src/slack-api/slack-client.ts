import type { RetryHandler, RetryHandlerArgs, RetryHandlerState } from "slack-edge";
// Not from slack-edge's index, which bundles all of slack-edge (src/handlers/lean-slack-app.ts).
import { SlackAPIClient } from "slack-web-api-client/dist/client/api-client.js";
import type { Config } from "../config.ts";
import type { SubrequestBudget } from "../util/subrequest-budget.ts";

/**
 * Calls whose deadline passed: their retry handlers must not send again, since the caller
 * already reported the outcome as unknown and may act on it (slack-edge's `fetch` cannot be
 * aborted, so stopping its retries is what ends the call).
 */
const abandoned = new WeakSet<RetryHandlerState>();

/** Methods that change something where a repeat is a second copy (a post), not the same change. */
const NOT_REPEATABLE = new Set(["chat.postMessage", "chat.postEphemeral", "chat.scheduleMessage"]);
const methodOf = (request: Request | undefined) => request?.url.split("/").pop() ?? "";

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
    return !abandoned.has(state);
  }
}

/**
 * One short retry on Slack 5xx for calls that may repeat (reads, edits): a 5xx may come after
 * Slack stored a post, so a post is never resent here; src/engine/outbox.ts resolves it.
 */
class ServerErrorRetry implements RetryHandler {
  readonly #budget: SubrequestBudget | undefined;

  constructor(budget?: SubrequestBudget) {
    this.#budget = budget;
  }

  async shouldRetry({ state, request, response }: RetryHandlerArgs): Promise<boolean> {
    if (!response || response.status < 500 || state.currentAttempt >= 1) return false;
    if (NOT_REPEATABLE.has(methodOf(request))) return false;
    if (this.#budget && !this.#budget.has()) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return !abandoned.has(state);
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
    // Retries re-enter here; only the outermost call owns the deadline.
    if (retryHandlerState) return super.call(name, params, retryHandlerState);
    // The outermost call brings its own state (the parent counts the attempt: -1 becomes 0),
    // so the deadline can mark it abandoned and its retry handlers stand down.
    const state: RetryHandlerState = { currentAttempt: -1, logLevel: "ERROR" } as RetryHandlerState;
    const attempt = super.call(name, params, state);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        abandoned.add(state);
        reject(new SlackTimeoutError(name, this.#timeoutMs));
      }, this.#timeoutMs);
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
