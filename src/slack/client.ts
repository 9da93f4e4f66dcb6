import { type RetryHandler, type RetryHandlerArgs, SlackAPIClient } from "slack-edge";
import type { Config } from "../env.ts";

/**
 * Honours Slack's `Retry-After` on 429 in-process only while the wait is short; a longer wait
 * fails the call so the cron retries next cycle instead of burning the invocation's time.
 */
class BoundedRateLimitRetry implements RetryHandler {
  readonly #maxAttempts: number;
  readonly #maxWaitSeconds: number;

  constructor(maxAttempts: number, maxWaitSeconds: number) {
    this.#maxAttempts = maxAttempts;
    this.#maxWaitSeconds = maxWaitSeconds;
  }

  async shouldRetry({ state, response }: RetryHandlerArgs): Promise<boolean> {
    if (response?.status !== 429 || state.currentAttempt >= this.#maxAttempts) return false;
    const seconds = Number.parseFloat(response.headers.get("retry-after") ?? "");
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > this.#maxWaitSeconds) return false;
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    return true;
  }
}

/** One short retry on Slack 5xx: a second failure is left to the next cycle. */
class ServerErrorRetry implements RetryHandler {
  async shouldRetry({ state, response }: RetryHandlerArgs): Promise<boolean> {
    if (!response || response.status < 500 || state.currentAttempt >= 1) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
    return true;
  }
}

export type SlackClientOptions = { maxRetryAfterSeconds?: number };

/**
 * The one Web API client of the bot, for commands and cron alike. slack-edge builds its own
 * clients against slack.com; this one honours `SLACK_API_URL` (the local stand-in in dev).
 */
export function createSlackClient(
  config: Pick<Config, "slackBotToken" | "slackApiUrl">,
  options: SlackClientOptions = {},
): SlackAPIClient {
  return new SlackAPIClient(config.slackBotToken, {
    baseUrl: config.slackApiUrl,
    throwSlackAPIError: true,
    logLevel: "ERROR",
    retryHandlers: [new BoundedRateLimitRetry(2, options.maxRetryAfterSeconds ?? 5), new ServerErrorRetry()],
  });
}
