// The whole local stack on 127.0.0.1: the Decipher API emulator and the Slack stand-in (with the
// sandbox page) in this process, the bot under `wrangler dev --test-scheduled` as a child.
// Used by `npm start` (dev/start.ts), the browser test (test-browser/) and benchmarks.
//
//   const stack = await startStack({ ports: { bot: 0, emulator: 0, slack: 0 }, cronIntervalMs: null });
//   await fetch(`${stack.slackUrl}/__slack/commands`, …);   // drive it
//   await stack.fireCron();                                   // one poll cycle, awaited
//   await stack.stop();                                       // everything it started is gone
//
// Interface (keep it stable, benchmarks depend on it):
// - ports: 0 = any free port. Defaults 8787 (bot), 8788 (emulator), 8790 (Slack stand-in).
// - simulate: the emulator advances its demo orgs every 20 s (default false), following
//   scenario: "cycle" (default) or "noisy" (dev/emulator/simulation.ts).
// - seed: emulator data seed (default 1).
// - cronIntervalMs: fire the bot's cron this often (default 60 000; null = never; fireCron()
//   still works). `wrangler dev` never runs crons by itself.
// - devVarsPath: read DECIPHER_API_KEY / SLACK_SIGNING_SECRET / SLACK_BOT_TOKEN from this file
//   (its other settings pass through); URLs are always the local stand-ins. Without it: demo
//   key, random secret and token. wrangler gets them all in `<persistTo>.env` (mode 600, removed
//   at stop) with `--env-file`, never as arguments.
// - persistTo: wrangler's local KV directory (default .wrangler/sandbox/<bot port>, removed on
//   stop() when the port was 0). Wiped at start unless keepState, because the emulator and the
//   stand-in start empty every time too (old cursors and thread ts would point at nothing).
// - quiet: keep child output out of the terminal (it is still written to logFile if given and
//   shown when startup fails).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  createWriteStream,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  type WriteStream,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ScenarioName } from "./emulator/model.ts";
import { startEmulator } from "./emulator/server.ts";
import { sandboxExamples } from "./sandbox-examples.ts";
import { STANDIN_CLIENT_ID, STANDIN_CLIENT_SECRET } from "./slack/oauth.ts";
import { startSlackStandIn } from "./slack/standin-server.ts";

export type StackOptions = {
  ports?: { bot?: number; emulator?: number; slack?: number };
  simulate?: boolean;
  scenario?: ScenarioName;
  seed?: number;
  cronIntervalMs?: number | null;
  devVarsPath?: string;
  persistTo?: string;
  keepState?: boolean;
  quiet?: boolean;
  logFile?: string;
  /** Multi-workspace mode (Add to Slack): no SLACK_BOT_TOKEN or DECIPHER_API_KEY, a client id instead. */
  multiWorkspace?: boolean;
};

export type Stack = {
  /** The bot's origin, e.g. http://127.0.0.1:8787 (Request URL is `${botUrl}/slack/events`). */
  botUrl: string;
  emulatorUrl: string;
  /** The stand-in's origin; its Web API is `${slackUrl}/api/`. */
  slackUrl: string;
  /** The sandbox page to open in a browser. */
  pageUrl: string;
  signingSecret: string;
  botToken: string;
  apiKey: string;
  /** The workerd process serving the bot, once running (for CPU/memory measurements). */
  workerdPid(): number | null;
  /** The command lines of wrangler and its children, as `ps` shows them (Linux /proc). */
  commandLines(): string[];
  /** Run one cron cycle (`/__scheduled`) and wait for it to finish. */
  fireCron(): Promise<void>;
  stop(): Promise<void>;
};

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const DEMO_API_KEY = "dcp_demo_acme";
const DEFAULT_PORTS = { bot: 8787, emulator: 8788, slack: 8790 };
const HEALTH_TIMEOUT_MS = 60_000;

export function cronUrl(botUrl: string): string {
  return new URL("/__scheduled?cron=*+*+*+*+*", botUrl).toString();
}

/** KEY=value lines; quotes stripped; comments and blanks ignored. */
export function parseDevVars(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m?.[1] || line.trimStart().startsWith("#")) continue;
    vars[m[1]] = (m[2] ?? "").replace(/^(["'])(.*)\1$/, "$2");
  }
  return vars;
}

export function randomSecrets() {
  return {
    signingSecret: randomBytes(16).toString("hex"),
    botToken: `xoxb-sandbox-${randomBytes(8).toString("hex")}`,
  };
}

/**
 * What keeps wrangler from phoning home: no usage metrics, and no fetch of
 * https://workers.cloudflare.com/cf.json for `request.cf` (offline it prints a getaddrinfo
 * ENOTFOUND stack trace; miniflare falls back to a built-in `cf` object either way).
 */
export const WRANGLER_OFFLINE_ENV = { WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** `KEY=value` lines for wrangler's `--env-file`, values quoted as dotenv reads them. */
export function envFileText(vars: Record<string, string>): string {
  return `${Object.entries(vars)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join("\n")}\n`;
}

/**
 * The `wrangler dev` command line: ports and paths only. Its bindings come from `envFile`
 * (which also keeps wrangler from reading .dev.vars), so no secret is in the process list.
 */
export function wranglerDevArgs(p: {
  botPort: number;
  inspectorPort: number;
  persistTo: string;
  envFile: string;
}) {
  return [
    join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
    "dev",
    "--test-scheduled",
    "--ip",
    "127.0.0.1",
    "--port",
    String(p.botPort),
    "--inspector-port",
    String(p.inspectorPort),
    "--persist-to",
    p.persistTo,
    "--env-file",
    p.envFile,
    "--show-interactive-dev-session=false",
  ];
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const srv = createServer();
    srv.once("error", () => ok(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => ok(true)));
  });
}

/** Every process in a process group (Linux /proc), e.g. wrangler's workerd grandchild. */
function groupMembers(pgid: number): { pid: number; comm: string }[] {
  const out: { pid: number; comm: string }[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc");
  } catch {
    return out;
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      if (Number(fields[2]) === pgid) out.push({ pid: Number(name), comm });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

function killGroup(pgid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * A port chosen free is released before wrangler (or a server here) binds it, so another
 * process can take it in between. When any port was left to chance, a start that lost that
 * race is tried again with new ports; a fixed port that is taken is the user's to resolve.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const anyPort = Object.values({ ...DEFAULT_PORTS, ...options.ports }).some((port) => port === 0);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startStackOnce(options);
    } catch (error) {
      const lostRace = /EADDRINUSE|Address already in use/i.test(String(error));
      if (!anyPort || !lostRace || attempt >= 3) throw error;
    }
  }
}

async function startStackOnce(options: StackOptions): Promise<Stack> {
  const ports = { ...DEFAULT_PORTS, ...options.ports };
  for (const [name, port] of Object.entries(ports)) {
    if (port !== 0 && !(await portIsFree(port))) {
      throw new Error(
        `port ${port} (${name}) is in use — is another sandbox running? Stop it or pick other ports`,
      );
    }
  }
  const botPort = ports.bot === 0 ? await freePort() : ports.bot;
  const inspectorPort = await freePort();
  const botUrl = `http://127.0.0.1:${botPort}`;

  const fileVars = options.devVarsPath ? parseDevVars(readFileSync(options.devVarsPath, "utf8")) : {};
  const generated = randomSecrets();
  const signingSecret = fileVars.SLACK_SIGNING_SECRET || generated.signingSecret;
  const botToken = fileVars.SLACK_BOT_TOKEN?.startsWith("xoxb-")
    ? fileVars.SLACK_BOT_TOKEN
    : generated.botToken;
  const apiKey = fileVars.DECIPHER_API_KEY?.startsWith("dcp_demo_")
    ? fileVars.DECIPHER_API_KEY
    : DEMO_API_KEY;

  const cleanups: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => {});
  };

  try {
    // The emulator is the web app too (DECIPHER_APP_URL below), so the `url` fields it sends
    // must name it: its port is chosen first.
    const emulatorPort = ports.emulator === 0 ? await freePort() : ports.emulator;
    const emulator = await startEmulator({
      port: emulatorPort,
      host: "127.0.0.1",
      seed: options.seed ?? 1,
      simulate: options.simulate ?? false,
      scenario: options.scenario ?? "cycle",
      appUrl: `http://127.0.0.1:${emulatorPort}`,
    });
    cleanups.push(() => emulator.close());

    const slack = await startSlackStandIn({
      port: ports.slack,
      host: "127.0.0.1",
      botUrl: `${botUrl}/slack/events`,
      signingSecret,
      botToken,
      // The app's unfurl domain is DECIPHER_APP_URL's host (slack/manifest.yml), here the
      // emulator's: its links unfurl, and the page suggests one of them.
      unfurlDomains: [new URL(emulator.url).hostname],
      appUrl: emulator.url,
      // The sandbox's workspace is connected to the Acme organization (DEMO_API_KEY).
      workspace: { label: "Acme Sandbox", examples: sandboxExamples("acme") },
      // Behave like Slack (1 message/s per channel, burst 3) as dev/slack/standin-main.ts does.
      rateLimit: { perSecond: 1, burst: 3 },
    });
    cleanups.push(() => slack.close());

    // One directory per bot port, so a test stack never touches `npm start`'s state.
    const persistTo = resolve(ROOT, options.persistTo ?? `.wrangler/sandbox/${botPort}`);
    if (!options.keepState) rmSync(persistTo, { recursive: true, force: true });
    if (!options.persistTo && ports.bot === 0) {
      cleanups.push(async () => rmSync(persistTo, { recursive: true, force: true }));
    }

    // Everything explicit in the env file, so a .dev.vars pointing at real Slack/Decipher is not read.
    const vars: Record<string, string> = {
      DECIPHER_API_URL: emulator.url,
      // The emulator also serves simple web-app pages (sessions, tests, runs): links resolve.
      DECIPHER_APP_URL: emulator.url,
      DECIPHER_API_KEY: apiKey,
      SLACK_API_URL: slack.apiUrl,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_BOT_TOKEN: botToken,
    };
    if (options.multiWorkspace) {
      // The stand-in's app credentials (dev/slack/oauth.ts) and a fresh key for sealing tokens.
      delete vars.SLACK_BOT_TOKEN;
      delete vars.DECIPHER_API_KEY;
      Object.assign(vars, {
        SLACK_CLIENT_ID: STANDIN_CLIENT_ID,
        SLACK_CLIENT_SECRET: STANDIN_CLIENT_SECRET,
        ENCRYPTION_KEY: randomBytes(32).toString("base64"),
        SLACK_OAUTH_URL: `${slack.url}/oauth/v2/authorize`,
      });
    }
    // The values go in a file only this user can read, never on the command line (`ps` shows it).
    const envFile = `${persistTo}.env`;
    mkdirSync(dirname(envFile), { recursive: true });
    // The rest of .dev.vars (ADMIN_USER_IDS, …) still applies, as it did when wrangler read it.
    const { SLACK_BOT_TOKEN: _token, DECIPHER_API_KEY: _key, ...otherFileVars } = fileVars;
    const kept = options.multiWorkspace ? otherFileVars : fileVars;
    writeFileSync(envFile, envFileText({ ...kept, ...vars }), { mode: 0o600 });
    cleanups.push(async () => rmSync(envFile, { force: true }));
    const args = wranglerDevArgs({ botPort, inspectorPort, persistTo, envFile });
    // A fresh clone has no .wrangler/ yet: make the log's folder first.
    if (options.logFile) mkdirSync(dirname(options.logFile), { recursive: true });
    const log: WriteStream | null = options.logFile
      ? createWriteStream(options.logFile, { flags: "w" })
      : null;
    // A log that cannot be written must not take the sandbox down with an unhandled event.
    log?.on("error", (error) => console.error(`[sandbox] cannot write ${options.logFile}: ${error.message}`));
    const tail: string[] = [];
    const child: ChildProcess = spawn(process.execPath, args, {
      cwd: ROOT,
      // Own process group: stop() signals wrangler and its workerd together.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...WRANGLER_OFFLINE_ENV, NO_COLOR: "1", FORCE_COLOR: "0", CI: "1" },
    });
    const pgid = child.pid ?? 0;
    let exited = false;
    const exitPromise = new Promise<void>((r) =>
      child.once("exit", () => {
        exited = true;
        r();
      }),
    );
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      log?.write(text);
      for (const line of text.split("\n")) if (line.trim()) tail.push(line);
      tail.splice(0, Math.max(0, tail.length - 40));
      if (!options.quiet) process.stdout.write(text.replace(/^(?=.)/gm, "[bot] "));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    // If this process dies without stop(), do not leave wrangler behind.
    const onExit = () => killGroup(pgid, "SIGKILL");
    process.once("exit", onExit);
    cleanups.push(async () => {
      process.off("exit", onExit);
      if (!exited) {
        killGroup(pgid, "SIGTERM");
        const timer = setTimeout(() => killGroup(pgid, "SIGKILL"), 3000);
        await exitPromise;
        clearTimeout(timer);
      }
      // workerd may outlive wrangler for a moment; make sure the whole group is gone.
      killGroup(pgid, "SIGKILL");
      log?.end();
    });

    const deadline = Date.now() + HEALTH_TIMEOUT_MS;
    for (;;) {
      if (exited) throw new Error(`wrangler dev exited during startup:\n${tail.join("\n")}`);
      const ok = await fetch(`${botUrl}/health`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.ok)
        .catch(() => false);
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`bot not healthy after 60 s:\n${tail.join("\n")}`);
      await new Promise((r) => setTimeout(r, 250));
    }

    const fireCron = async () => {
      const res = await fetch(cronUrl(botUrl), { signal: AbortSignal.timeout(60_000) });
      await res.text();
      if (!res.ok) throw new Error(`cron trigger answered ${res.status}`);
    };
    const interval = options.cronIntervalMs === undefined ? 60_000 : options.cronIntervalMs;
    if (interval !== null) {
      const fire = () =>
        fireCron().catch((e) => {
          if (!options.quiet) console.error(`[sandbox] cron failed: ${e instanceof Error ? e.message : e}`);
        });
      // Like Cloudflare's "* * * * *": on the minute (a second in), so a digest set for
      // HH:MM arrives at HH:MM, not up to a minute later.
      const untilBoundary = interval === 60_000 ? 60_000 - (Date.now() % 60_000) + 1_000 : interval;
      let timer: ReturnType<typeof setInterval> | undefined;
      const first = setTimeout(() => {
        fire();
        timer = setInterval(fire, interval);
      }, untilBoundary);
      cleanups.push(async () => {
        clearTimeout(first);
        clearInterval(timer);
      });
    }

    let stopping: Promise<void> | undefined;
    return {
      botUrl,
      emulatorUrl: emulator.url,
      slackUrl: slack.url,
      pageUrl: `${slack.url}/`,
      signingSecret,
      botToken,
      apiKey,
      workerdPid: () => (exited ? null : (groupMembers(pgid).find((p) => p.comm === "workerd")?.pid ?? null)),
      commandLines: () =>
        groupMembers(pgid).map(({ pid }) => {
          try {
            return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
          } catch {
            return "";
          }
        }),
      fireCron,
      stop: () => {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
