// `npm test` after `npm start`: the sandbox wrote a .dev.vars (a random signing secret and bot
// token) beside wrangler.toml. The tests must neither read it (wrangler said "Using secrets
// defined in .dev.vars" once per test file) nor announce wrangler's telemetry.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { testWranglerConfig } from "../test/setup/wrangler-config.ts";

// The contrast read below would log "Using secrets…" itself.
process.env.WRANGLER_LOG = "warn";
const { unstable_getMiniflareWorkerOptions } = await import("wrangler");

const ROOT = new URL("..", import.meta.url).pathname;
const checkout = mkdtempSync(join(tmpdir(), "decipher-test-config-"));
after(() => rmSync(checkout, { recursive: true, force: true }));

/** The secret bindings wrangler would give the Worker for a config file. */
function secretsFor(configPath: string): string[] {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath);
  return Object.keys(workerOptions.bindings ?? {}).filter((name) => name.startsWith("SANDBOX_ONLY"));
}

test("vitest's Worker config does not read the .dev.vars that npm start wrote", () => {
  copyFileSync(join(ROOT, "wrangler.toml"), join(checkout, "wrangler.toml"));
  writeFileSync(join(checkout, ".dev.vars"), "SANDBOX_ONLY_SECRET=from-npm-start\n");
  // Read in place, wrangler.toml takes the sandbox's secrets: what the tests used to get.
  assert.deepEqual(secretsFor(join(checkout, "wrangler.toml")), ["SANDBOX_ONLY_SECRET"]);
  const copy = testWranglerConfig(checkout);
  assert.deepEqual(secretsFor(copy), []);
  // The same Worker otherwise: its entry point is the checkout's.
  assert.match(readFileSync(copy, "utf8"), new RegExp(`^main = "${join(checkout, "src/index.ts")}"$`, "m"));
});

test("npm scripts that run wrangler send no telemetry, so it prints no notice", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  // `npm run deploy` is a person's own call to Cloudflare: left as wrangler's default.
  const runWrangler = Object.entries(scripts).filter(
    ([name, line]) => /\bwrangler\b/.test(line) && name !== "deploy",
  );
  assert.ok(runWrangler.length >= 3, "typecheck, build and dev run wrangler");
  for (const [name, line] of runWrangler) {
    assert.match(
      line,
      /^WRANGLER_SEND_METRICS=false (?:[A-Z_]+=\S+ )*wrangler /,
      `npm run ${name} may send telemetry`,
    );
  }
});

test("npm run dev does not fetch request.cf data, so offline it prints no getaddrinfo ENOTFOUND", () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  assert.match(scripts.dev ?? "", /\bCLOUDFLARE_CF_FETCH_ENABLED=false (?:[A-Z_]+=\S+ )*wrangler dev\b/);
});

test("a passing test's console lines stay out of the test output", () => {
  // One test whose cron logs its "poll everything: …" line, run as `npm test` runs vitest.
  const run = spawnSync(
    join(ROOT, "node_modules/.bin/vitest"),
    [
      "run",
      "--project",
      "single",
      "test/engine/outages.test.ts",
      "-t",
      "a single failing test alerts on its own",
    ],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
  );
  const output = `${run.stdout}${run.stderr}`;
  assert.equal(run.status, 0, output);
  assert.match(output, /Tests {2}1 passed/);
  assert.doesNotMatch(output, /^stdout \|/m);
  assert.doesNotMatch(output, /poll everything/);
});

test("an object a test aborts on purpose, and a request with no answer, print nothing in a passing run", () => {
  // The chaos suite aborts every object between some polls (test/helpers/on-purpose.ts), and the
  // Web API client's tests include a call that never gets an answer.
  const run = spawnSync(
    join(ROOT, "node_modules/.bin/vitest"),
    ["run", "--project", "single", "test/chaos/exactly-once.test.ts", "test/slack-api/slack-client.test.ts"],
    { cwd: ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } },
  );
  const output = `${run.stdout}${run.stderr}`;
  assert.equal(run.status, 0, output);
  assert.match(output, /Test Files {2}2 passed/);
  assert.doesNotMatch(output, /uncaught exception|Network connection lost|Connection refused|^stack: /m);
});
