import { describe, expect, it } from "vitest";
import type { SlackMessage } from "../../src/messages/limits.ts";
import { altBlockId } from "../../src/messages/rich-blocks.ts";
import { post, type RichBlockGate, update } from "../../src/slack-api/post-message.ts";
import { createSlackClient } from "../../src/slack-api/slack-client.ts";
import { apiUrl, workspace } from "../slack-standin/helpers.ts";

/** Issue #34, case 8: a block refused for its content, or for its type, on Slack's stand-in. */

const CHART = "data_visualization";

/** What the gate was asked to remember, per workspace, as the KV memory would hold it. */
function memoryGate(refused: string[] = []): RichBlockGate & { remembered: string[] } {
  const remembered: string[] = [];
  return {
    remembered,
    refusedTypes: async () => new Set([...refused, ...remembered]),
    remember: async (types) => {
      remembered.push(...types);
    },
  };
}

const chart = (id: string, title: string) => ({
  type: CHART,
  block_id: id,
  title,
  chart: { type: "pie", segments: [{ label: "passed", value: 3 }] },
});
const alternative = (id: string, text: string) => ({
  type: "section",
  block_id: altBlockId(id, 0),
  text: { type: "mrkdwn", text },
});
const table = {
  type: "table",
  block_id: "runs",
  rows: [[{ type: "raw_text", text: "run" }], [{ type: "raw_text", text: "#1" }]],
};

/** Two charts and a table, each with its text alternative. */
function report(secondTitle: string): SlackMessage {
  const blocks = [
    { type: "section", text: { type: "mrkdwn", text: "*Daily report*" } },
    chart("passrate", "Pass rate"),
    alternative("passrate", "Pass rate: 3 passed"),
    chart("sessions", secondTitle),
    alternative("sessions", "Sessions: 3 passed"),
    table,
    alternative("runs", "Runs: #1"),
  ];
  return { text: "Daily report", blocks: blocks as SlackMessage["blocks"] };
}

const TOO_LONG = "A chart title that Slack refuses for being longer than fifty characters";

async function setup() {
  const ws = workspace();
  const slack = createSlackClient({ slackBotToken: ws.token, slackApiUrl: apiUrl });
  const last = async () => (await ws.messages({ channel: "C0ALERTS" })).at(-1);
  const outcomes = async (method: string) =>
    (await ws.calls()).filter((c) => c.method === method).map((c) => c.error ?? "ok");
  return { ws, slack, last, outcomes };
}

const kinds = (blocks: Array<Record<string, unknown>> | null | undefined) =>
  (blocks ?? []).map((b) => `${b.type}:${b.block_id ?? ""}`);
const shown = (m: { text: string; blocks: Array<Record<string, unknown>> | null } | undefined) =>
  `${m?.text ?? ""}\n${JSON.stringify(m?.blocks ?? [])}`;

describe("one chart refused for its content", () => {
  it("is left out of that message only, which says so; the other chart and the table go out", async () => {
    const { slack, last, outcomes } = await setup();
    const gate = memoryGate();
    const result = await post(slack, "C0ALERTS", report(TOO_LONG), undefined, "k1", gate);

    expect(result.ok).toBe(true);
    expect(await outcomes("chat.postMessage")).toEqual(["invalid_blocks", "ok"]);
    const sent = await last();
    expect(kinds(sent?.blocks)).toEqual(
      expect.arrayContaining([`${CHART}:passrate`, "table:runs", `section:${altBlockId("sessions", 0)}`]),
    );
    expect(kinds(sent?.blocks)).not.toContain(`${CHART}:sessions`);
    expect(kinds(sent?.blocks)).not.toContain(`section:${altBlockId("passrate", 0)}`);
    expect(shown(sent)).toMatch(/a chart was left out: Slack refused it/);
    // Its content, not its type: the next message gets charts as before.
    expect(gate.remembered).toEqual([]);
    await post(slack, "C0ALERTS", report("Sessions"), undefined, "k2", gate);
    expect(kinds((await last())?.blocks)).toContain(`${CHART}:sessions`);
  });

  it("in an edit is left out of that edit, which says so", async () => {
    const { slack, last, outcomes } = await setup();
    const gate = memoryGate();
    const posted = await post(slack, "C0ALERTS", report("Sessions"), undefined, "k1", gate);
    if (!posted.ok) throw new Error("the first post failed");
    const result = await update(slack, "C0ALERTS", posted.ts, report(TOO_LONG), gate);

    expect(result.ok).toBe(true);
    expect(await outcomes("chat.update")).toEqual(["invalid_blocks", "ok"]);
    const edited = await last();
    expect(kinds(edited?.blocks)).toContain(`${CHART}:passrate`);
    expect(kinds(edited?.blocks)).not.toContain(`${CHART}:sessions`);
    expect(shown(edited)).toMatch(/a chart was left out: Slack refused it/);
    expect(gate.remembered).toEqual([]);
  });

  it("a second table (Slack takes one a message) is left out, and the first stays", async () => {
    const { slack, last, outcomes } = await setup();
    const message = report("Sessions");
    const second = { ...table, block_id: "more" };
    const twice = { ...message, blocks: [...message.blocks, second, alternative("more", "More runs")] };
    await post(slack, "C0ALERTS", twice as SlackMessage, undefined, "k1", memoryGate());

    expect(await outcomes("chat.postMessage")).toEqual(["invalid_blocks", "ok"]);
    const sent = await last();
    expect(kinds(sent?.blocks)).toEqual(
      expect.arrayContaining(["table:runs", `section:${altBlockId("more", 0)}`]),
    );
    expect(kinds(sent?.blocks)).not.toContain("table:more");
    expect(shown(sent)).toMatch(/a table was left out: Slack refused it/);
  });
});

describe("a block type the workspace refuses", () => {
  it("is remembered for that type only: tables refused, charts still go out", async () => {
    const { ws, slack, last, outcomes } = await setup();
    await ws.admin("block-rollout", { refuse: ["table"] });
    const gate = memoryGate();
    await post(slack, "C0ALERTS", report("Sessions"), undefined, "k1", gate);

    expect(gate.remembered).toEqual(["table"]);
    const sent = await last();
    expect(kinds(sent?.blocks)).toEqual(expect.arrayContaining([`${CHART}:passrate`, `${CHART}:sessions`]));
    expect(kinds(sent?.blocks)).toContain(`section:${altBlockId("runs", 0)}`);
    // Nothing was lost (the table's lines are there), so nothing says a block was left out.
    expect(shown(sent)).not.toMatch(/left out/);

    // The next message skips the table at the first try, and keeps its charts.
    await post(slack, "C0ALERTS", report("Sessions"), undefined, "k2", gate);
    expect(await outcomes("chat.postMessage")).toEqual(["invalid_blocks", "ok", "ok"]);
    expect(kinds((await last())?.blocks)).toContain(`${CHART}:sessions`);
    expect(kinds((await last())?.blocks)).not.toContain("table:runs");
  });

  it("charts refused leave the table in", async () => {
    const { slack, last } = await setup();
    await post(slack, "C0ALERTS", report("Sessions"), undefined, "k1", memoryGate([CHART]));
    const sent = await last();
    expect(kinds(sent?.blocks)).toContain("table:runs");
    expect(kinds(sent?.blocks)).not.toContain(`${CHART}:passrate`);
    expect(kinds(sent?.blocks)).toContain(`section:${altBlockId("passrate", 0)}`);
  });
});
