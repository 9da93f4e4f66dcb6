// The sandbox never shows a secret where others can read it: not in `ps` (wrangler's and
// workerd's command lines), not in the URLs `npm start` prints.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { workspacePageUrl } from "../dev/sandbox-installs.ts";
import { type Stack, startStack } from "../dev/stack.ts";

let stack: Stack;

before(async () => {
  stack = await startStack({ ports: { bot: 0, emulator: 0, slack: 0 }, cronIntervalMs: null, quiet: true });
});
after(() => stack?.stop());

test("wrangler's and workerd's command lines carry no signing secret, bot token or API key", async () => {
  const lines = stack.commandLines();
  assert.ok(
    lines.some((l) => l.includes("wrangler")),
    `wrangler's command line is read: ${lines.join(" | ")}`,
  );
  for (const secret of [stack.signingSecret, stack.botToken, stack.apiKey]) {
    for (const line of lines) assert.ok(!line.includes(secret), `a secret is in the process list: ${line}`);
  }
  // The bot still got them: a signed command is answered, which needs the signing secret.
  const res = await fetch(`${stack.slackUrl}/__slack/commands`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ command: "/decipher", text: "help", channelId: "C0DEMO", userId: "U0ALICE" }),
  });
  assert.equal(((await res.json()) as { outcome?: string }).outcome, "ok");
});

test("the printed URL of a second workspace names it by its label, not its bot token", () => {
  const ws = { botToken: "xoxb-sandbox-globex-12345678", label: "Globex Sandbox", apiKey: "k", commands: [] };
  const url = workspacePageUrl({ pageUrl: "http://127.0.0.1:8790/" }, ws, "C0DEMO");
  assert.equal(url, "http://127.0.0.1:8790/?ws=globex-sandbox#C0DEMO");
  assert.ok(!url.includes("xoxb-"));
});
