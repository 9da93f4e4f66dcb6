import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createBot, newOrg, signingSecret, standIn } from "../../dev/in-workerd/bot.ts";
import { findButton } from "../../dev/slack/payloads.ts";
import { signSlackRequest } from "../../dev/slack/sign.ts";
import { NO_HANDLER_NOTE, OLDER_MESSAGE_NOTE } from "../../src/handlers/fallbacks.ts";
import worker from "../../src/index.ts";
import { homeView } from "../../src/kinds/messages.ts";
import { FIND_SESSIONS_ACTION_ID } from "../../src/messages/home-view.ts";
import type { Subscription } from "../../src/model/subscription.ts";
import index from "../fixtures/slack-payloads/index.json";

/** What the bot asks Slack before any answer: whose token (auth.test), whether the person is a guest (users.info, src/handlers/guests.ts). */
const ASKED_FIRST = ["auth.test", "users.info"];

/**
 * Request bodies written by others (bolt-js, bolt-python, java-slack-sdk and slack-edge test data,
 * Slack's docs; test/fixtures/slack-payloads/index.json says where each comes from), replayed as Slack
 * would send them. Slack shows the person an error for anything but a 2xx within 3 s, and
 * retries events, so every one must be answered 2xx before Slack gives up; and the signature
 * still decides first, so a tampered copy gets 401.
 */

type Entry = (typeof index.payloads)[number];

const files = import.meta.glob("../fixtures/slack-payloads/**/*.{json,form}", {
  query: "?raw",
  import: "default",
  eager: true,
});
const raw = (entry: Entry): string => {
  const text = files[`../fixtures/slack-payloads/${entry.file}`];
  if (text === undefined) throw new Error(`${entry.file} is in index.json but not on disk`);
  return text;
};

/** Slack's own deadline for an answer. */
const SLACK_DEADLINE_MS = 3000;
const CHANNEL = "C0ALERTS";

async function freshBot() {
  return createBot({ apiKey: await newOrg() });
}
type Bot = Awaited<ReturnType<typeof freshBot>>;

/** Every response_url in a payload, pointed at the stand-in (where the replies can be read). */
function withResponseUrls(value: unknown, url: string): unknown {
  if (Array.isArray(value)) return value.map((v) => withResponseUrls(v, url));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === "response_url" && typeof v === "string" ? url : withResponseUrls(v, url),
    ]),
  );
}

async function bodyOf(entry: Entry, bot: Bot): Promise<{ body: string; contentType: string }> {
  const text = raw(entry);
  if (entry.transport === "json") return { body: text, contentType: "application/json" };
  const url = await standIn.responseUrl(bot.botToken, CHANNEL, "U0ALICE");
  if (entry.transport === "payload") {
    const payload = withResponseUrls(JSON.parse(text), url);
    return {
      body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      contentType: "application/x-www-form-urlencoded",
    };
  }
  const form = new URLSearchParams(text.trim());
  if (form.has("response_url")) form.set("response_url", url);
  return { body: form.toString(), contentType: "application/x-www-form-urlencoded" };
}

/** Sends like Slack and times the answer alone (the lazy half runs on after it, as on Workers). */
async function send(bot: Bot, body: string, contentType: string, headers: Record<string, string>) {
  const ctx = createExecutionContext();
  const request = new Request("http://bot.test/slack/events", {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), SLACK_DEADLINE_MS);
  });
  const answer = await Promise.race([Promise.resolve(worker.fetch(request, bot.env, ctx)), late]);
  clearTimeout(timer);
  if (answer === "late") throw new Error(`no answer within Slack's ${SLACK_DEADLINE_MS} ms`);
  const text = await answer.text();
  await waitOnExecutionContext(ctx);
  return { status: answer.status, body: text };
}

const now = () => Math.floor(Date.now() / 1000);

/** One character of the body changed after signing: what an attacker replaying it would send. */
function tamper(body: string): string {
  const at = Math.floor(body.length / 2);
  const swapped = body[at] === "a" ? "b" : "a";
  return `${body.slice(0, at)}${swapped}${body.slice(at + 1)}`;
}

const entry = (file: string) => {
  const found = index.payloads.find((p) => p.file === file);
  if (!found) throw new Error(`${file} is not in index.json`);
  return found;
};

const kinds = new Set(index.payloads.map((p) => p.kind.replace(/ \(.*\)$/, "")));

describe("request bodies written by others", () => {
  it("cover at least 106 kinds of request, each file on disk", () => {
    expect(kinds.size).toBeGreaterThanOrEqual(106);
    for (const entry of index.payloads) expect(raw(entry).length).toBeGreaterThan(0);
  });

  it.each(index.payloads.map((p) => [p.file, p] as const))(
    "%s, signed, gets a 2xx within 3 s; a tampered copy gets 401",
    async (_file, entry) => {
      const bot = await freshBot();
      const { body, contentType } = await bodyOf(entry, bot);
      // A retry carries Slack's retry headers beside the signature (`headers` in index.json).
      const headers = { ...(await signSlackRequest(signingSecret, body, now())), ...entry.headers };
      const signed = await send(bot, body, contentType, headers);
      expect(signed.status, signed.body.slice(0, 200)).toBeGreaterThanOrEqual(200);
      expect(signed.status).toBeLessThan(300);
      const forged = await send(
        bot,
        tamper(body),
        contentType,
        await signSlackRequest(signingSecret, body, now()),
      );
      expect(forged.status).toBe(401);
    },
  );
});

/**
 * The body as one of the bot's own workspace's people would send it: the samples name their
 * SDKs' test teams (T1234, T111), which to the bot are other organizations (src/handlers/outsiders.ts).
 */
async function fromThisWorkspace(sent: { body: string; contentType: string }, bot: Bot) {
  if (sent.contentType === "application/json") return sent;
  const team = await bot.team();
  const form = new URLSearchParams(sent.body);
  const payload = form.get("payload");
  if (payload === null) {
    if (form.has("team_id")) form.set("team_id", team);
    return { ...sent, body: form.toString() };
  }
  const parsed = JSON.parse(payload) as { team?: { id?: string } | null; user?: { team_id?: string } | null };
  if (parsed.team) parsed.team.id = team;
  if (parsed.user?.team_id !== undefined) parsed.user.team_id = team;
  form.set("payload", JSON.stringify(parsed));
  return { ...sent, body: form.toString() };
}

describe("what those requests get besides the 2xx", () => {
  async function replay(file: string) {
    const bot = await freshBot();
    const { body, contentType } = await fromThisWorkspace(await bodyOf(entry(file), bot), bot);
    const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
    const notes = (await bot.messages(CHANNEL)).map((m) => m.text ?? "");
    return { ...res, notes };
  }

  it("a command the bot does not know, or with no name at all, gets the help, as an ephemeral ack", async () => {
    for (const file of [
      "bolt-python/command-hello-world.form",
      "bolt-js/command-slash.form",
      "bolt-js/command-enterprise.form",
      "java-slack-sdk/command-org-level.form",
      "java-slack-sdk/command-docs-unencoded.form",
      "java-slack-sdk/command-blanked.form",
    ]) {
      const { body } = await replay(file);
      const ack = JSON.parse(body) as { response_type: string; text: string };
      expect(ack.response_type).toBe("ephemeral");
      expect(ack.text).toContain("/decipher subscribe");
    }
  });

  it("a button from an older message gets an ephemeral note saying so and what to run instead", async () => {
    const { body, notes } = await replay("bolt-python/block-actions-button.json");
    expect(body).toBe("");
    expect(notes.some((n) => n.includes("older message") && n.includes("/decipher help"))).toBe(true);
    expect(OLDER_MESSAGE_NOTE).toContain("/sessions");
  });

  it("a legacy interactive message and a message shortcut get an empty ack and a short note", async () => {
    for (const file of ["bolt-python/interactive-message-select.json", "bolt-js/message-action.json"]) {
      const { body, notes } = await replay(file);
      expect(body).toBe("");
      expect(notes.some((n) => n.includes("has no action for that"))).toBe(true);
    }
    expect(NO_HANDLER_NOTE).toContain("/decipher help");
  });

  it("an unknown control on a Home tab gets an empty 200, and the tab is published again with today's controls", async () => {
    // java-slack-sdk's "modal" sample comes from a view of type home as well.
    for (const file of [
      "java-slack-sdk/block-actions-home-tab.json",
      "java-slack-sdk/block-actions-modal.json",
    ]) {
      const bot = await freshBot();
      const payload = JSON.parse(raw(entry(file)));
      expect(payload.view.type).toBe("home");
      const { body, contentType } = await fromThisWorkspace(await bodyOf(entry(file), bot), bot);
      const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
      expect([res.status, res.body]).toEqual([200, ""]);
      const calls = (await bot.slackCalls()).filter((c) => !ASKED_FIRST.includes(c.method));
      // The stand-in knows no user of the sample's; the publish is tried, for the person who clicked.
      expect(calls.map((c) => [c.method, (c.params as { user_id?: string }).user_id])).toEqual([
        ["views.publish", payload.user.id],
      ]);
    }
  });

  it("a control in a message without a response_url, or a workflow step's edit, gets an empty 200 and nothing else", async () => {
    for (const file of ["slack-edge/block-actions-function.json", "bolt-python/workflow-step-edit.json"]) {
      const bot = await freshBot();
      const { body, contentType } = await bodyOf(entry(file), bot);
      const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
      expect([file, res.status, res.body]).toEqual([file, 200, ""]);
      expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
    }
  });

  it("view_closed and a global shortcut get an empty 200 and nothing else", async () => {
    for (const file of ["bolt-python/view-closed.json", "bolt-python/shortcut-global.json"]) {
      const { status, body, notes } = await replay(file);
      expect([status, body, notes]).toEqual([200, "", []]);
    }
  });

  it("a suggestion request with no handler gets an empty list of options", async () => {
    for (const file of [
      "bolt-python/block-suggestion-external-select.json",
      "bolt-python/dialog-suggestion.json",
    ]) {
      const { body } = await replay(file);
      expect(JSON.parse(body)).toEqual({ options: [] });
    }
  });

  it("url_verification gets its challenge back", async () => {
    const { body } = await replay("bolt-python/url-verification.json");
    expect(JSON.parse(body)).toEqual({ challenge: "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" });
  });

  it("org-level events without a team_id are acknowledged and change nothing", async () => {
    for (const file of [
      "bolt-python/event-tokens-revoked-org.json",
      "bolt-python/event-team-access-granted-org.json",
      "bolt-python/event-app-uninstalled-org.json",
    ]) {
      const bot = await freshBot();
      const { body, contentType } = await bodyOf(entry(file), bot);
      const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
      expect([res.status, res.body]).toEqual([200, ""]);
      expect(bot.kv.reads + bot.kv.writes).toBe(0);
      expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
    }
  });
});

describe("Slack's certificate check (ssl_check)", () => {
  const sslCheck = "token=Jhj5dZrVaK7ZwHHjRyZWjbDl&ssl_check=1";

  it("unsigned, as Slack sends it, gets an empty 200 and causes no work", async () => {
    const bot = await freshBot();
    const res = await send(bot, sslCheck, "application/x-www-form-urlencoded", {
      "content-length": String(sslCheck.length),
    });
    expect([res.status, res.body]).toEqual([200, ""]);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
    expect(await bot.slackCalls()).toEqual([]);
  });

  it.each([
    ["with a command beside it", `${sslCheck}&command=%2Fdecipher&text=list`],
    ["with ssl_check=0", "token=Jhj5dZrVaK7ZwHHjRyZWjbDl&ssl_check=0"],
    ["without a token", "ssl_check=1"],
  ])("unsigned %s still gets 401", async (_, body) => {
    const bot = await freshBot();
    const res = await send(bot, body, "application/x-www-form-urlencoded", {
      "content-length": String(body.length),
    });
    expect(res.status).toBe(401);
  });
});

describe("a signed form that is neither a command nor an interaction", () => {
  it.each([
    ["ssl_check=0", "token=Jhj5dZrVaK7ZwHHjRyZWjbDl&ssl_check=0"],
    ["fields Slack never sends", "team_id=T0TEST&foo=bar"],
    ["an empty body", ""],
    ["a command field with a type beside it", "command=%2Fdecipher&text=help&type=x"],
  ])("(%s) gets an empty 200 and causes no work", async (_, body) => {
    const bot = await freshBot();
    const headers = await signSlackRequest(signingSecret, body, Math.floor(Date.now() / 1000));
    const res = await send(bot, body, "application/x-www-form-urlencoded", headers);
    expect([res.status, res.body]).toEqual([200, ""]);
    expect(bot.kv.reads + bot.kv.writes).toBe(0);
    expect((await bot.slackCalls()).filter((c) => c.method !== "auth.test")).toEqual([]);
  });
});

describe("a click on a Home tab the bot itself made big", () => {
  // Slack puts the whole view a control sits in, every block of it, into the block_actions
  // payload (java-slack-sdk's Home tab sample, block-actions-home-tab.json, carries it), and
  // sends the payload URL-encoded; a Home tab may hold 100 blocks of up to 3000 characters.
  const subscription = (channelId: string, testId: number): Subscription => ({
    kind: "test",
    channelId,
    testId,
    testName: `Checkout ${testId}: a guest pays with a saved card in euros (3-D Secure), then a coupon and a gift card`,
    createdAt: "2026-11-01T00:00:00Z",
    createdBy: "U0ALICE",
    paused: null,
    lastError: null,
    lastChangeAt: "2026-11-01T00:00:00Z",
    lastRunId: 0,
    lastRunAt: null,
    streak: null,
  });

  it("(Find sessions, for someone in 40 channels of 30 tests each) gets a 2xx and opens the form", async () => {
    const bot = await freshBot();
    const channels = Array.from({ length: 40 }, (_, c) => `C${String(c).padStart(3, "0")}BUSY`);
    const view = homeView({
      subscriptions: channels.flatMap((id, c) =>
        Array.from({ length: 30 }, (_, i) => subscription(id, c * 100 + i)),
      ),
      appUrl: "https://app.decipher.test",
      teamUrl: "https://acme.slack.com/",
    });
    const blocks = view.blocks.map((b, i) => ({ block_id: `b${i}`, ...b }));
    const found = findButton({ blocks } as never, FIND_SESSIONS_ACTION_ID);
    if (!found) throw new Error("the Home view has no Find sessions button");
    const sample = JSON.parse(raw(entry("java-slack-sdk/block-actions-home-tab.json")));
    const team = await bot.team();
    const payload = {
      ...sample,
      team: { id: team, domain: "acme" },
      user: { ...sample.user, id: "U0ALICE", team_id: team },
      view: { ...sample.view, team_id: team, blocks },
      actions: [
        {
          type: "button",
          action_id: FIND_SESSIONS_ACTION_ID,
          block_id: found.blockId,
          text: found.element.text,
          value: found.element.value,
          action_ts: "1764300000.000100",
        },
      ],
    };
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    // Why it matters: bigger than the 256 KiB that src/handlers/signed-request.ts reads (MAX_BODY_BYTES).
    expect(body.length).toBeGreaterThan(256 * 1024);
    const contentType = "application/x-www-form-urlencoded";
    const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
    expect([res.status, res.body]).toEqual([200, ""]);
    const calls = (await bot.slackCalls()).filter((c) => !ASKED_FIRST.includes(c.method));
    expect(calls.map((c) => c.method)).toEqual(["views.open"]);
  });
});

describe("Slack's 3 s on an isolate's first request, while Slack's own API is slow", () => {
  // A fresh bot is a fresh token, so its first request finds no cached auth.test answer (as
  // on a new isolate, or ten minutes on); Slack's Web API answering auth.test in 5 s must not
  // make the ack late: Slack shows the person an error, or retries the event.
  it.each([
    "bolt-python/command-hello-world.form",
    "bolt-python/block-actions-button.json",
    "bolt-python/event-app-mention.json",
  ])("%s gets its 2xx within 3 s", async (file) => {
    const bot = await freshBot();
    await bot.slackFault("auth.test", "hang", 1, { delayMs: 5000 });
    const { body, contentType } = await bodyOf(entry(file), bot);
    const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
  });

  it("a command gets its 2xx within 3 s when auth.test is rate limited with a Retry-After of 4 s", async () => {
    const bot = await freshBot();
    await bot.slackFault("auth.test", "429", 1, { retryAfter: 4 });
    const { body, contentType } = await bodyOf(entry("bolt-python/command-hello-world.form"), bot);
    const res = await send(bot, body, contentType, await signSlackRequest(signingSecret, body, now()));
    expect(res.status).toBe(200);
  });
});
