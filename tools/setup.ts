// `npm run setup`: an interactive deploy for either mode (README "Deploy"), from a fresh clone
// to a Worker the doctor checks. Every step can be rerun: files are rewritten from what they
// hold, a secret already set is kept on Enter, and ENCRYPTION_KEY is made only once.
// `npm run setup -- --dry-run` asks the same questions and prints every command it would run,
// running none and writing nothing. Tested by test-browser/setup.test.ts with a fake wrangler.
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { dryRunner, type Runner, realRunner } from "./setup/commands.ts";
import { filledManifest, varOf, withoutPlaceholderKvId, withVar } from "./setup/config-files.ts";
import { GENERATED_SECRET, type Mode, nextSteps, SECRETS } from "./setup/modes.ts";
import { type Prompt, terminalPrompt } from "./setup/prompt.ts";

type Setup = {
  root: string;
  run: Runner["run"];
  dryRun: boolean;
  prompt: Prompt;
  log: (line: string) => void;
};

const MANIFEST = "slack/manifest.json";
const DRY_RUN_URL = "https://decipher-slack.YOUR-SUBDOMAIN.workers.dev";

function checkNode(s: Setup): void {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major < 22 || (major === 22 && minor < 12)) {
    throw new Error(`Node ${process.versions.node} is too old: install Node 22.12 or newer and rerun.`);
  }
  s.log(`✓ Node ${process.versions.node}`);
}

async function ensureDependencies(s: Setup): Promise<void> {
  if (existsSync(join(s.root, "node_modules/wrangler/package.json")))
    return s.log("✓ dependencies installed");
  // Without them `npx wrangler` would fetch the newest wrangler, not the pinned one.
  const r = await s.run("npm", ["ci", "--no-audit", "--no-fund"], { interactive: true });
  if (r.code !== 0) throw new Error("npm ci failed (above).");
}

async function ensureLogin(s: Setup): Promise<void> {
  const loggedIn = async () => {
    const r = await s.run("wrangler", ["whoami"]);
    return r.code === 0 && !/not authenticated/i.test(r.out);
  };
  if (await loggedIn()) return;
  const yes = await s.prompt.ask("Not logged in to Cloudflare. Log in now (opens a browser)? [Y/n] ");
  if (/^n/i.test(yes))
    throw new Error("Setup needs a Cloudflare login: run `npx wrangler login`, then rerun.");
  await s.prompt.hold(() => s.run("wrangler", ["login"], { interactive: true }));
  if (!(await loggedIn())) throw new Error("Still not logged in to Cloudflare: run `npx wrangler login`.");
}

async function askMode(s: Setup): Promise<Mode> {
  for (;;) {
    const answer = await s.prompt.ask(
      "Which mode?\n  1) one workspace: your team's own Slack and Decipher organization\n" +
        "  2) many workspaces: each installs with Add to Slack and connects its own Decipher key\n[1/2, Enter = 1] ",
    );
    if (answer === "" || answer === "1") return "single";
    if (answer === "2") return "multi";
    s.log("Please answer 1 or 2.");
  }
}

function writeFile(s: Setup, file: string, text: string, why: string): void {
  const path = join(s.root, file);
  if (existsSync(path) && readFileSync(path, "utf8") === text) return;
  s.log(s.dryRun ? `(dry run) would write ${file}: ${why}` : `Wrote ${file}: ${why}`);
  if (!s.dryRun) writeFileSync(path, text);
}

function editToml(s: Setup, edit: (toml: string) => string, why: string): void {
  const toml = readFileSync(join(s.root, "wrangler.toml"), "utf8");
  writeFile(s, "wrangler.toml", edit(toml), why);
}

/** The first https target of the deploy wrangler wrote to its output file (ND-JSON), if any. */
function deployedUrl(outputFile: string): string | undefined {
  if (!existsSync(outputFile)) return undefined;
  for (const line of readFileSync(outputFile, "utf8").split("\n")) {
    const entry = JSON.parse(line || "{}") as { type?: string; targets?: string[] };
    if (entry.type === "deploy") return entry.targets?.find((t) => t.startsWith("https://"));
  }
  return undefined;
}

async function deploy(s: Setup): Promise<string> {
  // In the terminal: wrangler asks a new account to pick its workers.dev subdomain. The KV
  // binding has no id: the pinned wrangler creates the namespace on the first deploy.
  const dir = mkdtempSync(join(tmpdir(), "decipher-setup-"));
  const outputFile = join(dir, "wrangler-output.ndjson");
  try {
    const env = { ...process.env, WRANGLER_OUTPUT_FILE_PATH: outputFile };
    const r = await s.prompt.hold(() => s.run("wrangler", ["deploy"], { interactive: true, env }));
    const url = s.dryRun ? DRY_RUN_URL : deployedUrl(outputFile);
    if (r.code !== 0 || !url) throw new Error("wrangler deploy failed or named no workers.dev URL (above).");
    return url.replace(/\/$/, "");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function existingSecrets(s: Setup): Promise<Set<string>> {
  const r = await s.run("wrangler", ["secret", "list", "--format", "json"], { quiet: true });
  try {
    return new Set((JSON.parse(r.out) as { name: string }[]).map((secret) => secret.name));
  } catch {
    return new Set();
  }
}

async function putSecret(s: Setup, name: string, value: string): Promise<void> {
  const r = await s.run("wrangler", ["secret", "put", name], { stdin: value });
  if (r.code !== 0) throw new Error(`wrangler secret put ${name} failed (above).`);
}

/** Asks for each secret the mode needs and sets it; returns the signing secret if typed now. */
async function askSecrets(s: Setup, mode: Mode, existing: Set<string>): Promise<string | null> {
  let signingSecret: string | null = null;
  for (const secret of SECRETS[mode]) {
    const keep = existing.has(secret.name) ? " (Enter keeps the one already set)" : "";
    for (;;) {
      const value = await s.prompt.askSecret(`${secret.name}: ${secret.where}${keep}; not shown: `);
      if (value === "" && keep) break;
      if (value === "" || (secret.shape && !secret.shape.test(value))) {
        s.log(`That is not a ${secret.name}: it is at ${secret.where}.`);
        continue;
      }
      await putSecret(s, secret.name, value);
      if (secret.name === "SLACK_SIGNING_SECRET") signingSecret = value;
      break;
    }
  }
  if (mode === "multi" && !existing.has(GENERATED_SECRET)) {
    await putSecret(s, GENERATED_SECRET, randomBytes(32).toString("base64"));
  }
  return signingSecret;
}

async function askClientId(s: Setup): Promise<void> {
  const current = varOf(readFileSync(join(s.root, "wrangler.toml"), "utf8"), "SLACK_CLIENT_ID");
  for (;;) {
    const typed = await s.prompt.ask(
      `SLACK_CLIENT_ID: Basic Information → App Credentials → Client ID${current ? ` [Enter = ${current}]` : ""}: `,
    );
    const id = typed || current;
    if (/^\d+\.\d+$/.test(id))
      return editToml(s, (t) => withVar(t, "SLACK_CLIENT_ID", id), "SLACK_CLIENT_ID");
    s.log("A Client ID is two numbers with a dot between them, e.g. 1234567890.0987654321.");
  }
}

async function createApp(s: Setup, url: string): Promise<void> {
  const yml = readFileSync(join(s.root, "slack/manifest.yml"), "utf8");
  writeFile(s, MANIFEST, filledManifest(yml, url, null), `the Slack app manifest for ${url}`);
  s.log(
    `\nNow create the Slack app:\n  1. Open https://api.slack.com/apps → Create New App → From an app manifest.\n` +
      `  2. Pick the workspace, choose JSON, paste all of ${MANIFEST}, Next, Create.\n`,
  );
  const appId = await s.prompt.ask("App ID (Basic Information → App Credentials, A0…; Enter to skip): ");
  if (!/^A[A-Z0-9]+$/.test(appId)) return;
  writeFile(s, MANIFEST, filledManifest(yml, url, appId), "with the app's id");
  s.log(
    `  3. Paste ${MANIFEST} again under App Manifest and Save: Slack tells the app of its own posts only then.`,
  );
}

async function setup(s: Setup): Promise<number> {
  checkNode(s);
  await ensureDependencies(s);
  await ensureLogin(s);
  const mode = await askMode(s);
  editToml(
    s,
    (t) => withoutPlaceholderKvId(mode === "single" ? withVar(t, "SLACK_CLIENT_ID", "") : t),
    mode === "single" ? "one-workspace mode, the KV id left to wrangler" : "the KV id left to wrangler",
  );
  const url = await deploy(s);
  await createApp(s, url);
  if (mode === "multi") await askClientId(s);
  const signingSecret = await askSecrets(s, mode, await existingSecrets(s));
  if (mode === "multi") await deploy(s); // SLACK_CLIENT_ID is a var: only a deploy sends it
  s.log(
    `\nDeployed at ${url}. Next:\n${nextSteps(mode, url)
      .map((step) => `  • ${step}`)
      .join("\n")}\n`,
  );
  s.prompt.close();
  const env = signingSecret ? { ...process.env, SLACK_SIGNING_SECRET: signingSecret } : process.env;
  return (await s.run("npm", ["run", "doctor", "--", url], { interactive: true, env })).code;
}

const dryRun = process.argv.includes("--dry-run");
const log = (line: string) => console.log(line);
const prompt = terminalPrompt(process.stdin, process.stdout);
const answers = (args: string[]) => (args[0] === "secret" ? "[]" : "");
try {
  const run = (dryRun ? dryRunner(log, answers) : realRunner(log)).run;
  process.exitCode = await setup({ root: process.cwd(), run, dryRun, prompt, log });
} catch (error) {
  prompt.close();
  console.error(`\nSetup stopped: ${(error as Error).message}`);
  process.exitCode = 1;
}
