import { describe, expect, it } from "vitest";
import { section, standInUrl, workspace } from "./helpers.ts";

const chart = (over: Record<string, unknown> = {}) => ({
  type: "data_visualization",
  title: "Sessions per day",
  chart: {
    type: "line",
    series: [
      {
        name: "#501",
        data: [
          { label: "Mar 3", value: 4 },
          { label: "Mar 4", value: 9 },
        ],
      },
    ],
    axis_config: { categories: ["Mar 3", "Mar 4"], y_label: "sessions" },
  },
  ...over,
});

const table = (
  rows: unknown[][] = [[{ type: "raw_text", text: "Test" }], [{ type: "raw_text", text: "Login" }]],
) => ({
  type: "table",
  rows,
  column_settings: [{ is_wrapped: true }],
});

const post = (ws: ReturnType<typeof workspace>, blocks: unknown[]) =>
  ws.call("chat.postMessage", { channel: "C0ALERTS", text: "digest", blocks });

describe("the stand-in's charts and tables", () => {
  it("takes a chart and a table as Slack's reference describes them, and stores them", async () => {
    const ws = workspace();
    const res = await post(ws, [section("Digest"), chart(), table()]);
    expect(res.body).toMatchObject({ ok: true });
    const [stored] = await ws.messages({ channel: "C0ALERTS" });
    expect(stored?.blocks?.map((b) => b.type)).toEqual(["section", "data_visualization", "table"]);
  });

  it("refuses what breaks a limit, naming each problem with its json-pointer", async () => {
    const ws = workspace();
    const res = await post(ws, [
      chart({ title: "T".repeat(51) }),
      chart({
        chart: {
          type: "bar",
          series: [{ name: "a", data: [{ label: "x", value: 1 }] }],
          axis_config: { categories: ["x", "y"] },
        },
      }),
      chart(),
      table([[{ type: "raw_text", text: "" }]]),
      table(),
    ]);
    expect(res.body.ok).toBe(false);
    expect(res.body.error).toBe("invalid_blocks");
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        "must be less than 51 characters [json-pointer:/blocks/0/title]",
        "data labels must match axis_config.categories [json-pointer:/blocks/1/chart/series/0/data]",
        "must be more than 0 characters [json-pointer:/blocks/3/rows/0/0/text]",
        "no more than 2 data_visualization blocks allowed [json-pointer:/blocks]",
        "only one table block allowed [json-pointer:/blocks]",
      ]),
    );
    expect(await ws.messages({ channel: "C0ALERTS" })).toEqual([]);
  });

  it("refuses them in a workspace the rollout has not reached, like an unknown block type", async () => {
    const ws = workspace();
    const rollout = await ws.admin("block-rollout", { refuse: ["data_visualization", "table"] });
    expect(rollout.body).toMatchObject({ ok: true, refuse: ["data_visualization", "table"] });
    const refused = await post(ws, [section("Digest"), chart()]);
    expect(refused.body).toMatchObject({
      ok: false,
      error: "invalid_blocks",
      errors: ["unsupported type: data_visualization [json-pointer:/blocks/1/type]"],
    });
    // Another workspace has them; and this one gets them once the rollout arrives.
    expect((await post(workspace(), [chart()])).body.ok).toBe(true);
    await ws.admin("block-rollout", { refuse: [] });
    expect((await post(ws, [chart()])).body.ok).toBe(true);
  });

  it("refuses charts in a Home tab, as Slack has them in messages only", async () => {
    const ws = workspace();
    const res = await ws.call("views.publish", {
      user_id: "U0ALICE",
      view: { type: "home", blocks: [chart()] },
    });
    expect(res.body).toMatchObject({ ok: false, error: "invalid_arguments" });
  });
});

describe("the stand-in's notifications of mentions", () => {
  const pings = async (ws: ReturnType<typeof workspace>) => {
    const res = await fetch(`${standInUrl}/__slack/pings?botToken=${encodeURIComponent(ws.token)}`);
    return ((await res.json()) as { pings: { target: string; ts: string }[] }).pings;
  };

  it("notifies each person or group a new message mentions once, in text or blocks", async () => {
    const ws = workspace();
    const res = await ws.call("chat.postMessage", {
      channel: "C0ALERTS",
      text: "Test failed <@U0ALICE>",
      blocks: [section("cc <@U0ALICE|alice> and <!subteam^S0ONCALL|@oncall>")],
    });
    expect((await pings(ws)).map((p) => [p.target, p.ts])).toEqual([
      ["<@U0ALICE>", res.body.ts],
      ["<!subteam^S0ONCALL>", res.body.ts],
    ]);
  });

  it("notifies nobody for an edit that mentions them, nor for an ephemeral message", async () => {
    const ws = workspace();
    const { body } = await ws.call("chat.postMessage", { channel: "C0ALERTS", text: "Test failed" });
    await ws.call("chat.update", { channel: "C0ALERTS", ts: body.ts, text: "Test failed <@U0BOB>" });
    await ws.call("chat.postEphemeral", { channel: "C0ALERTS", user: "U0ALICE", text: "psst <@U0BOB>" });
    expect(await pings(ws)).toEqual([]);
  });
});
