// `npm run doctor` against `npm start`'s stack (dev/stack.ts: the bot under `wrangler dev`, the
// Slack stand-in, the Decipher emulator), run as a person runs it: the CLI in its own process,
// the signing secret in its environment. It passes on the sandbox, and names the exact fault
// when the token lacks a scope, the signing secret is not the Worker's, or the Decipher key is
// one Decipher does not know.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { slackAdmin } from "../dev/slack/admin-client.ts";
import { type Stack, startStack } from "../dev/stack.ts";
import { INSTALL_SCOPES } from "../src/model/install-scopes.ts";

const run = promisify(execFile);

/** The doctor's printout and exit code, run from the repository's root as `npm run doctor` does. */
async function doctor(botUrl: string, secret: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ["tools/doctor.ts", botUrl], {
      env: { ...process.env, SLACK_SIGNING_SECRET: secret },
    });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

const quietStack = (devVarsPath?: string) =>
  startStack({
    ports: { bot: 0, emulator: 0, slack: 0 },
    cronIntervalMs: null,
    quiet: true,
    ...(devVarsPath ? { devVarsPath } : {}),
  });

let stack: Stack;
let wrongKey: Stack;
const dir = mkdtempSync(join(tmpdir(), "doctor-"));

before(async () => {
  const devVars = join(dir, ".dev.vars");
  // npm start keeps a `dcp_demo_` key from .dev.vars (others become the demo key): one the emulator never issued.
  writeFileSync(devVars, "DECIPHER_API_KEY=dcp_demo_nobody_decipher_knows\n", { mode: 0o600 });
  [stack, wrongKey] = await Promise.all([quietStack(), quietStack(devVars)]);
  await Promise.all([stack.fireCron(), wrongKey.fireCron()]);
});
after(async () => {
  await Promise.all([stack?.stop(), wrongKey?.stop()]);
  rmSync(dir, { recursive: true, force: true });
});

test("passes on the sandbox: every line a tick, exit code 0", async () => {
  const { code, out } = await doctor(stack.botUrl, stack.signingSecret);
  assert.equal(code, 0, out);
  assert.match(out, /^✓ Slack token: works in the workspace /m);
  assert.match(out, /^✓ Decipher key: the key ending \w{4} reads its organization's sessions$/m);
  assert.match(out, /^✓ clocks: the minute cron last ran at /m);
  assert.match(out, /All checks passed\.$/m);
  assert.ok(
    !out.includes(stack.signingSecret) && !out.includes(stack.botToken) && !out.includes(stack.apiKey),
  );
});

test("names a scope the token was not granted", async () => {
  const slack = slackAdmin(stack.slackUrl);
  await slack.scopes(
    stack.botToken,
    INSTALL_SCOPES.split(",").filter((s) => s !== "channels:history"),
  );
  try {
    const { code, out } = await doctor(stack.botUrl, stack.signingSecret);
    assert.equal(code, 1);
    assert.match(out, /^✗ Slack scopes: the token lacks channels:history$/m);
    assert.match(out, /^ {4}→ add them under OAuth & Permissions → Bot Token Scopes/m);
    assert.match(out, /^1 check\(s\) failed\.$/m);
  } finally {
    await slack.scopes(stack.botToken, INSTALL_SCOPES.split(","));
  }
});

test("names a signing secret that is not the Worker's", async () => {
  const { code, out } = await doctor(stack.botUrl, "a-secret-from-another-app");
  assert.equal(code, 1);
  assert.match(
    out,
    /^✗ signing secret: the Worker refused a request signed with this signing secret \(401\)$/m,
  );
});

test("names a Decipher key that Decipher rejects", async () => {
  const { code, out } = await doctor(wrongKey.botUrl, wrongKey.signingSecret);
  assert.equal(code, 1);
  assert.match(out, /^✗ Decipher key: Decipher refused DECIPHER_API_KEY \(401 authentication_error\)$/m);
  assert.match(out, /wrangler secret put DECIPHER_API_KEY/);
  assert.match(out, /^1 check\(s\) failed\.$/m);
  assert.ok(!out.includes("dcp_demo_nobody_decipher_knows"));
});
