// slack-web-api-client's error classes, so src/slack-api/slack-errors.ts reads a failure of
// this client as it reads the library's; its module, not the package's index, which bundles
// the library's whole client (tools/check-layers.ts).
import { SlackAPIConnectionError, SlackAPIError } from "slack-web-api-client/dist/errors.js";
import type { Config } from "../config.ts";
import type { SubrequestBudget } from "../util/subrequest-budget.ts";
import { type SlackClient, webApiMethods } from "./web-api-methods.ts";

export type { SlackClient } from "./web-api-methods.ts";

/** Methods that change something where a repeat is a second copy (a post), not the same change. */
const NOT_REPEATABLE = new Set(["chat.postMessage", "chat.postEphemeral", "chat.scheduleMessage"]);

export type SlackClientOptions = {
  /**
   * Slack's `Retry-After` on 429 is honoured in-process only while the wait is this short; a
   * longer wait fails the call so the cron retries next cycle instead of burning the
   * invocation's time.
   */
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
 * A Web API method's parameters as Slack reads them, and as slack-web-api-client sends them: a
 * form, with an array of plain values joined by commas (`types: "public_channel,im"`), any
 * other object or array as JSON text (`blocks`), and no empty values. The token goes in the
 * Authorization header, never the body.
 */
export function slackForm(params: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === "token" || value == null) continue;
    form.set(
      key,
      typeof value !== "object"
        ? String(value)
        : Array.isArray(value) && value.length > 0 && typeof value[0] !== "object"
          ? value.join(",")
          : JSON.stringify(value),
    );
  }
  return form;
}

/**
 * The one Web API client of the bot, for commands, cron and install alike, on `SLACK_API_URL`
 * (the local stand-in in dev). Every attempt draws from the budget; a 429 whose `Retry-After`
 * is short is tried again (twice at most), and a 5xx once after 250 ms for a method that may
 * repeat: a 5xx may come after Slack stored a post, so a post is never resent here
 * (src/engine/outbox.ts resolves it). Failures are slack-web-api-client's: a non-200 answer is
 * a `SlackAPIConnectionError` with its status and body, `ok: false` a `SlackAPIError`.
 */
/** The error of an answer with a 200 that says neither `ok: true` nor why not. */
export const MALFORMED_ANSWER = "malformed_answer";

export function createSlackClient(
  config: Pick<Config, "slackBotToken" | "slackApiUrl">,
  options: SlackClientOptions = {},
): SlackClient {
  const baseUrl = config.slackApiUrl.endsWith("/") ? config.slackApiUrl : `${config.slackApiUrl}/`;
  const { budget } = options;
  const maxWaitSeconds = options.maxRetryAfterSeconds ?? 5;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  const caller: Caller = { baseUrl, token: config.slackBotToken, budget, maxWaitSeconds };
  return webApiMethods(async (method, params = {}) => {
    const deadline = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new SlackTimeoutError(method, timeoutMs);
        reject(error);
        deadline.abort(error);
      }, timeoutMs);
    });
    const answer = attempts(caller, method, params, deadline.signal);
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
      // A late answer (or failure) of an abandoned call must not surface as unhandled.
      answer.catch(() => {});
    }
  });
}

/** Where and as whom one client calls, and how long a `Retry-After` it waits out. */
type Caller = {
  baseUrl: string;
  token: string;
  budget: SubrequestBudget | undefined;
  maxWaitSeconds: number;
};

/** How long to wait before trying `method` again after this answer, or undefined: do not. */
function retryAfterMs(
  maxWaitSeconds: number,
  method: string,
  response: Response,
  attempt: number,
): number | undefined {
  if (response.status === 429) {
    const seconds = Number.parseFloat(response.headers.get("retry-after") ?? "");
    return attempt < 2 && seconds >= 0 && seconds <= maxWaitSeconds ? seconds * 1000 : undefined;
  }
  return response.status >= 500 && attempt < 1 && !NOT_REPEATABLE.has(method) ? 250 : undefined;
}

async function attempts(
  { baseUrl, token: botToken, budget, maxWaitSeconds }: Caller,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
) {
  const token = (params.token as string | undefined) ?? botToken;
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const body = slackForm(params).toString();
  for (let attempt = 0; ; attempt++) {
    budget?.take(`Slack ${method}`);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${method}`, { method: "POST", headers, body, signal });
    } catch (cause) {
      throw new SlackAPIConnectionError(method, -1, "", undefined, cause as Error);
    }
    const wait = retryAfterMs(maxWaitSeconds, method, response, attempt);
    if (wait !== undefined && (!budget || budget.has())) {
      await response.body?.cancel().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, wait));
      // Past the deadline the caller was told the outcome is unknown: no further attempt.
      if (signal.aborted) throw signal.reason;
      continue;
    }
    if (response.status !== 200)
      throw new SlackAPIConnectionError(
        method,
        response.status,
        await response.text(),
        response.headers,
        undefined,
      );
    const result = { ...(await response.json<object>()), headers: response.headers } as {
      ok: boolean;
      error?: string;
      headers: Headers;
    };
    // Slack's answer is `ok: true`, or `ok: false` with its `error`. Anything else (no `ok`,
    // or `ok: false` without a reason) is no answer to trust: never taken as done.
    if (result.ok !== true || result.error)
      throw new SlackAPIError(method, result.error || MALFORMED_ANSWER, result);
    return result;
  }
}
