// `npm run setup` (tools/setup.ts) driven as a person drives it, answers typed on stdin, against
// a fake `wrangler` and `npm` on PATH that record their arguments and stdin: both modes, a dry
// run and a real run, and a rerun. It checks the commands, the files written, and that no
// secret appears in any command's arguments, any file left in the project, or the printout.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { after, test } from "node:test";
import { INSTALL_SCOPES } from "../src/model/install-scopes.ts";

const REPO = resolve(import.meta.dirname, "..");
const WORKER = "https://decipher-slack.example.workers.dev";
const SECRETS = {
  SLACK_SIGNING_SECRET: "sign-9f8e7d6c5b4a",
  SLACK_BOT_TOKEN: "xoxb-111-222-tokenvalue",
  DECIPHER_API_KEY: "dcp_live_keyvalue123",
  SLACK_CLIENT_SECRET: "client-secret-abc987",
};
const CLIENT_ID = "1234567890.0987654321";
const APP_ID = "A0TESTAPP1";

/** The fake: appends {cmd, argv, stdin, signingSecretEnv} to $FAKE_LOG and prints what wrangler would. */
const FAKE = `#!/usr/bin/env node
const fs = require("node:fs");
const path = require("node:path");
const argv = process.argv.slice(2);
const cmd = path.basename(process.argv[1]);
const put = cmd === "wrangler" && argv[0] === "secret" && argv[1] === "put";
const stdin = put ? fs.readFileSync(0, "utf8") : null;
fs.appendFileSync(process.env.FAKE_LOG, JSON.stringify({ cmd, argv, stdin, env: process.env.SLACK_SIGNING_SECRET ?? null }) + "\\n");
const out = {
  whoami: "You are logged in with an OAuth Token, associated with the email dev@example.com.",
  deploy: "Uploaded decipher-slack (1.20 sec)\\nDeployed decipher-slack triggers (0.40 sec)\\n  ${WORKER}\\n  schedule: * * * * *\\nCurrent Version ID: 0b1c",
  secret: put ? "✨ Success! Uploaded secret " + argv[2] : process.env.FAKE_SECRETS ?? "[]",
};
if (argv[0] === "deploy") {
  const entry = { type: "deploy", version: 1, worker_name: "decipher-slack", targets: ["${WORKER}", "schedule: * * * * *"] };
  fs.appendFileSync(process.env.WRANGLER_OUTPUT_FILE_PATH, JSON.stringify(entry) + "\\n");
}
console.log(cmd === "wrangler" ? out[argv[0]] ?? "" : "fake npm " + argv.join(" "));
`;

const root = mkdtempSync(join(tmpdir(), "setup-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** A fresh clone's files setup touches: wrangler.toml as shipped, with the placeholder KV id. */
function project(name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "slack"), { recursive: true });
  const toml = readFileSync(join(REPO, "wrangler.toml"), "utf8").replace(
    /^binding = "STATE"$/m,
    `binding = "STATE"\nid = "${"0".repeat(32)}"`,
  );
  writeFileSync(join(dir, "wrangler.toml"), toml);
  writeFileSync(join(dir, "slack/manifest.yml"), readFileSync(join(REPO, "slack/manifest.yml")));
  const bin = join(dir, ".fake-bin");
  mkdirSync(bin);
  for (const cmd of ["wrangler", "npm"]) {
    writeFileSync(join(bin, cmd), FAKE);
    chmodSync(join(bin, cmd), 0o755);
  }
  return dir;
}

type Call = { cmd: string; argv: string[]; stdin: string | null; env: string | null };
type Run = { code: number; out: string; calls: Call[] };

function setup(dir: string, answers: string[], opts: { dryRun?: boolean; secrets?: string[] } = {}) {
  const log = join(root, `${dir.split("/").pop()}-${Date.now()}.log`);
  writeFileSync(log, "");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [join(dir, ".fake-bin"), dirname(process.execPath), "/usr/bin", "/bin"].join(delimiter),
    FAKE_LOG: log,
    FAKE_SECRETS: JSON.stringify((opts.secrets ?? []).map((name) => ({ name, type: "secret_text" }))),
  };
  delete env.SLACK_SIGNING_SECRET;
  const args = [join(REPO, "tools/setup.ts"), ...(opts.dryRun ? ["--dry-run"] : [])];
  const child = spawn(process.execPath, args, { cwd: dir, env });
  let out = "";
  child.stdout.on("data", (c: Buffer) => (out += c));
  child.stderr.on("data", (c: Buffer) => (out += c));
  child.stdin.end(answers.map((a) => `${a}\n`).join(""));
  return new Promise<Run>((done) =>
    child.on("close", (code) => {
      const calls = readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Call);
      done({ code: code ?? 1, out, calls });
    }),
  );
}

const line = (c: Call) => [c.cmd, ...c.argv].join(" ");

/** The commands of a first run, in order: each secret put, then `more` before the doctor. */
const commands = (secrets: string[], more: string[]) => [
  "npm ci --no-audit --no-fund",
  "wrangler whoami",
  "wrangler deploy",
  "wrangler secret list --format json",
  ...secrets.map((name) => `wrangler secret put ${name}`),
  ...more,
  `npm run doctor -- ${WORKER}`,
];

/** Every file setup could have left in the project, the fake's own scripts aside. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.parentPath.includes(".fake-bin"))
    .map((e) => readFileSync(join(e.parentPath, e.name), "utf8"));
}

function assertNoSecretLeaked(dir: string, run: Run, secrets: string[]): void {
  for (const secret of secrets) {
    assert.ok(!run.out.includes(secret), "a secret was printed");
    for (const call of run.calls)
      assert.ok(!call.argv.join(" ").includes(secret), `${line(call)} has a secret`);
    for (const text of filesIn(dir)) assert.ok(!text.includes(secret), "a file holds a secret");
  }
}

const singleAnswers = [
  "1",
  APP_ID,
  SECRETS.SLACK_SIGNING_SECRET,
  SECRETS.SLACK_BOT_TOKEN,
  SECRETS.DECIPHER_API_KEY,
];
const multiAnswers = ["2", APP_ID, CLIENT_ID, SECRETS.SLACK_SIGNING_SECRET, SECRETS.SLACK_CLIENT_SECRET];

type Manifest = {
  features: { slash_commands: { url: string }[]; bot_user: { always_online: boolean } };
  oauth_config: { redirect_urls: string[]; scopes: { bot: string[] } };
  settings: {
    event_subscriptions: { request_url: string; metadata_subscriptions: { app_id: string }[] };
    interactivity: { request_url: string };
  };
};

/** slack/manifest.json's every URL, which must all be on the deployed Worker. */
function manifestUrls(dir: string): { urls: string[]; manifest: Manifest } {
  const manifest = JSON.parse(readFileSync(join(dir, "slack/manifest.json"), "utf8")) as Manifest;
  const urls = [
    ...manifest.features.slash_commands.map((c) => c.url),
    manifest.settings.event_subscriptions.request_url,
    manifest.settings.interactivity.request_url,
    ...manifest.oauth_config.redirect_urls,
  ];
  return { urls, manifest };
}

for (const [mode, answers] of [
  ["single", singleAnswers],
  ["multi", multiAnswers],
] as const) {
  test(`--dry-run (${mode}) prints every command and runs none, writing nothing`, async () => {
    const dir = project(`dry-${mode}`);
    const before = readFileSync(join(dir, "wrangler.toml"), "utf8");
    const run = await setup(dir, answers, { dryRun: true });
    assert.equal(run.code, 0, run.out);
    assert.deepEqual(run.calls, []);
    for (const cmd of [
      "npm ci",
      "wrangler whoami",
      "wrangler deploy",
      "wrangler secret put SLACK_SIGNING_SECRET",
    ]) {
      assert.match(run.out, new RegExp(`^\\$ ${cmd}`, "m"));
    }
    assert.match(run.out, /^\$ npm run doctor -- https:\/\//m);
    assert.equal(readFileSync(join(dir, "wrangler.toml"), "utf8"), before);
    assert.deepEqual(readdirSync(join(dir, "slack")), ["manifest.yml"]);
    assertNoSecretLeaked(dir, run, Object.values(SECRETS));
  });
}

test("one workspace: deploys, fills the manifest, sets three secrets through stdin, ends with the doctor", async () => {
  const dir = project("single");
  const run = await setup(dir, singleAnswers);
  assert.equal(run.code, 0, run.out);
  assert.deepEqual(
    run.calls.map(line),
    commands(["SLACK_SIGNING_SECRET", "SLACK_BOT_TOKEN", "DECIPHER_API_KEY"], []),
  );
  const puts = run.calls.filter((c) => c.argv[1] === "put");
  assert.deepEqual(
    puts.map((c) => c.stdin),
    [SECRETS.SLACK_SIGNING_SECRET, SECRETS.SLACK_BOT_TOKEN, SECRETS.DECIPHER_API_KEY],
  );
  // The doctor gets the signing secret in its environment, not as an argument.
  assert.equal(run.calls.at(-1)?.env, SECRETS.SLACK_SIGNING_SECRET);
  const toml = readFileSync(join(dir, "wrangler.toml"), "utf8");
  assert.doesNotMatch(toml, /id = "0{32}"/);
  assert.match(toml, /^\[\[kv_namespaces\]\]\nbinding = "STATE"\n/m);
  assert.match(toml, /^SLACK_CLIENT_ID = ""$/m);
  const { urls, manifest } = manifestUrls(dir);
  assert.deepEqual(urls, [
    `${WORKER}/slack/events`,
    `${WORKER}/slack/events`,
    `${WORKER}/slack/events`,
    `${WORKER}/slack/events`,
    `${WORKER}/slack/oauth_redirect`,
  ]);
  assert.equal(manifest.settings.event_subscriptions.metadata_subscriptions[0]?.app_id, APP_ID);
  assert.deepEqual(manifest.oauth_config.scopes.bot, INSTALL_SCOPES.split(","));
  assert.equal(manifest.features.bot_user.always_online, true);
  assert.ok(!JSON.stringify(manifest).includes("YOUR"));
  assertNoSecretLeaked(dir, run, Object.values(SECRETS));
});

test("many workspaces: the Client ID in wrangler.toml, a made ENCRYPTION_KEY, deployed again; a rerun keeps all", async () => {
  const dir = project("multi");
  const run = await setup(dir, multiAnswers);
  assert.equal(run.code, 0, run.out);
  assert.deepEqual(
    run.calls.map(line),
    commands(["SLACK_SIGNING_SECRET", "SLACK_CLIENT_SECRET", "ENCRYPTION_KEY"], ["wrangler deploy"]),
  );
  const key = run.calls.find((c) => c.argv[2] === "ENCRYPTION_KEY")?.stdin ?? "";
  assert.equal(Buffer.from(key, "base64").length, 32);
  const toml = readFileSync(join(dir, "wrangler.toml"), "utf8");
  assert.match(toml, new RegExp(`^SLACK_CLIENT_ID = "${CLIENT_ID}"$`, "m"));
  assert.ok(manifestUrls(dir).urls.every((u) => u.startsWith(`${WORKER}/slack/`)));
  assertNoSecretLeaked(dir, run, [...Object.values(SECRETS), key]);

  const manifest = readFileSync(join(dir, "slack/manifest.json"), "utf8");
  const secrets = ["SLACK_SIGNING_SECRET", "SLACK_CLIENT_SECRET", "ENCRYPTION_KEY"];
  const again = await setup(dir, ["2", APP_ID, "", "", ""], { secrets });
  assert.equal(again.code, 0, again.out);
  assert.deepEqual(
    again.calls.filter((c) => c.argv[1] === "put"),
    [],
    "a rerun set a secret the person kept (a new ENCRYPTION_KEY would unseal nothing stored)",
  );
  assert.equal(readFileSync(join(dir, "wrangler.toml"), "utf8"), toml);
  assert.equal(readFileSync(join(dir, "slack/manifest.json"), "utf8"), manifest);
});
