import { env } from "cloudflare:test";
import { afterAll, beforeAll, expect, vi } from "vitest";
import { createdBots, signingSecret, standInUrl, type WatchedBot } from "../../dev/in-workerd/bot.ts";
import { LeanSlackApp } from "../../src/handlers/lean-slack-app.ts";
import worker from "../../src/index.ts";

/**
 * Every test file is watched for leaks: everything written to the console, and every Web API
 * call and message its bots left in the Slack stand-in, checked against the signing secret and
 * every API key and bot token the file's bots used. The console is also checked for what no
 * log line may hold (docs/architecture.md, "Every request Slack sends"): a `response_url` (a bearer credential for the
 * conversation) and what a person typed (command text, modal and dialog values, message text),
 * taken from every signed request the file's tests sent, so a dependency that logs request
 * bodies fails the suite.
 */
const logged: string[] = [];
const spies: Array<{ mockRestore(): void }> = [];
const typed = new Set<string>();

/** Shorter values (`help`, `Hi`, ids) also occur in ordinary log lines; they say too little to leak. */
const MIN_TYPED_LENGTH = 8;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Every string leaf under `value`, but the element types Slack puts beside each value. */
function leaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) leaves(v, out);
  else if (isRecord(value)) for (const [k, v] of Object.entries(value)) if (k !== "type") leaves(v, out);
  return out;
}

/** Every `response_url` anywhere in a payload (top level, `response_urls[]` of a modal, …). */
function responseUrls(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) responseUrls(v, out);
  else if (isRecord(value))
    for (const [k, v] of Object.entries(value))
      if (k === "response_url" && typeof v === "string") out.push(v);
      else responseUrls(v, out);
  return out;
}

/**
 * What in a parsed Slack request body must never reach a log: its response_urls, a command's
 * text, the values a person entered in a modal (`view.state.values`) or a dialog
 * (`submission`), a suggestion query, the values of the controls they used, and the text of
 * messages an event carries.
 */
export function mustNotLog(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const event = isRecord(body.event) ? body.event : {};
  const view = isRecord(body.view) ? body.view : {};
  const found = [
    ...responseUrls(body),
    ...(typeof body.command === "string" ? leaves(body.text) : []),
    ...leaves(isRecord(view.state) ? view.state.values : undefined),
    ...leaves(body.submission),
    ...(body.type === "block_suggestion" || body.type === "dialog_suggestion" ? leaves(body.value) : []),
    ...leaves(
      Array.isArray(body.actions)
        ? body.actions.map((a) => (isRecord(a) ? [a.value, a.selected_option, a.selected_options] : []))
        : [],
    ),
    ...leaves([event.text, isRecord(event.message) ? event.message.text : undefined]),
    ...leaves(isRecord(event.previous_message) ? event.previous_message.text : undefined),
  ];
  return found.filter((v) => v.length >= MIN_TYPED_LENGTH);
}

/** A request body as Slack sends it (form, `payload=` form or JSON), parsed; null if it is none of them. */
export function parseSlackBody(text: string, contentType: string): unknown {
  try {
    if (contentType.startsWith("application/json")) return JSON.parse(text);
    const form = new URLSearchParams(text);
    const payload = form.get("payload");
    return payload === null ? Object.fromEntries(form) : JSON.parse(payload);
  } catch {
    return null;
  }
}

/** Response URLs by their shape, whichever request they came from: Slack's and the stand-in's. */
export function looksLikeResponseUrl(line: string): boolean {
  return (
    /hooks\.slack\.com\/(?:commands|actions|app)\//.test(line) || line.includes(`${standInUrl}/response/`)
  );
}

/** The lines that hold something of `watched`, or a response URL. */
export function leakingLines(lines: readonly string[], watched: Iterable<string>): string[] {
  const values = [...watched];
  return lines.filter((line) => looksLikeResponseUrl(line) || values.some((v) => line.includes(v)));
}

beforeAll(() => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[method].bind(console);
    spies.push(
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (typeof a === "string" ? a : safeJson(a))).join(" "));
        original(...args);
      }),
    );
  }
  // Every request a test sends to the Worker; its body is read only once the Worker answered
  // 2xx (a request refused before its body was read stays unread, as tests of that expect).
  const fetch = worker.fetch.bind(worker);
  spies.push(
    vi.spyOn(worker, "fetch").mockImplementation(async (request, env, ctx) => {
      const copy = request.clone();
      const response = await fetch(request, env, ctx);
      if (response.status >= 200 && response.status < 300 && request.method === "POST") {
        const body = parseSlackBody(
          new TextDecoder().decode(await copy.arrayBuffer()),
          request.headers.get("content-type") ?? "",
        );
        for (const value of mustNotLog(body)) typed.add(value);
      }
      return response;
    }),
  );
  // And what tests hand the Slack app directly (test/helpers/slack-app.ts).
  const dispatch = LeanSlackApp.prototype.dispatch;
  spies.push(
    vi.spyOn(LeanSlackApp.prototype, "dispatch").mockImplementation(function (
      this: LeanSlackApp,
      request,
      ctx,
    ) {
      for (const value of mustNotLog(request.body)) typed.add(value);
      return dispatch.call(this, request, ctx);
    }),
  );
});

afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  // Multi-workspace mode's own secrets (vitest.config.ts, project "multi") are watched too.
  const bindings = env as unknown as Record<string, unknown>;
  const installSecrets = [bindings.ENCRYPTION_KEY, bindings.SLACK_CLIENT_SECRET].filter(
    (s): s is string => typeof s === "string" && s.length >= 8,
  );
  const secrets = new Set([signingSecret, ...installSecrets, ...createdBots.flatMap(secretsOf)]);
  const traffic: string[] = [];
  for (const bot of createdBots) {
    const calls = await fetch(`${standInUrl}/__slack/calls?botToken=${encodeURIComponent(bot.botToken)}`);
    traffic.push(await calls.text());
    for (const channel of ["C0ALERTS", "C0GENERAL", "C0DEMO", "C0NOTIN"])
      traffic.push(JSON.stringify(await bot.messages(channel)));
  }
  for (const secret of secrets) {
    expect(
      logged.filter((line) => line.includes(secret)),
      "console leaked a secret",
    ).toEqual([]);
    // The inspection API echoes the workspace's own token in no field; any hit is a leak.
    expect(
      traffic.filter((t) => t.includes(secret)),
      "Slack traffic leaked a secret",
    ).toEqual([]);
  }
  expect(leakingLines(logged, typed), "console leaked a response_url or text a person typed").toEqual([]);
  // Tokens an install received (the stand-in's `xoxb-oauth-…` and refresh `xoxe-…`), whoever's.
  expect(
    logged.filter((line) => /xoxb-oauth-|xoxe-1-/.test(line)),
    "console leaked an installed workspace's token",
  ).toEqual([]);
});

function secretsOf(bot: WatchedBot): string[] {
  return [bot.botToken, String(bot.env.DECIPHER_API_KEY ?? "")].filter((s) => s.length >= 8);
}

function safeJson(value: unknown): string {
  try {
    return value instanceof Error
      ? `${value.name}: ${value.message}\n${value.stack ?? ""}`
      : JSON.stringify(value);
  } catch {
    return String(value);
  }
}
