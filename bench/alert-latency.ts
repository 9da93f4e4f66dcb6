/**
 * `npm run bench:latency`: real time from a failure in Decipher to its message in Slack, in the
 * sandbox (dev/stack.ts: the bot under `wrangler dev`, its alarms, the watchdog cron every
 * minute, the emulator and the Slack stand-in). Two cases, LATENCY_SAMPLES each (default 12):
 * - running: a run the bot has already seen `running` (it waited over a minute) is marked
 *   failed at a random moment;
 * - idle: a run that starts and fails between two idle polls (created `failed`) at a random
 *   moment.
 * One test per channel, three channels at once, one case after the other; after each sample a passing run ends the
 * streak, so every sample is a new alert (held for its channel's outage window). Prints the
 * distribution as Markdown.
 */
import { emulatorControl } from "../dev/emulator/control-client.ts";
import { startStack } from "../dev/stack.ts";

process.env.WRANGLER_SEND_METRICS = "false";

const SAMPLES = Number(process.env.LATENCY_SAMPLES ?? 12);
const CHANNELS = ["C0GENERAL", "C0ALERTS", "C0DEMO"];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stack = await startStack({ ports: { bot: 0, emulator: 0, slack: 0 }, quiet: true });
const org = emulatorControl(stack.emulatorUrl).org(stack.apiKey);

async function command(channelId: string, text: string) {
  const res = await fetch(`${stack.slackUrl}/__slack/commands`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ command: "/decipher", text, channelId, userId: "U0ALICE" }),
  });
  const body = (await res.json()) as { outcome?: string; error?: string };
  if (!res.ok || body.outcome !== "ok") throw new Error(`/decipher ${text} → ${body.error ?? res.status}`);
}

async function messageNaming(channelId: string, runId: number): Promise<boolean> {
  const url = `${stack.slackUrl}/__slack/messages?botToken=${encodeURIComponent(stack.botToken)}&channel=${channelId}`;
  const { messages } = (await (await fetch(url)).json()) as { messages: unknown[] };
  return messages.some((m) => JSON.stringify(m).includes(`/runs/${runId}`));
}

/** Seconds from `at` until a message names the run (null after 180 s). */
async function until(channelId: string, runId: number, at: number): Promise<number | null> {
  while (Date.now() - at < 180_000) {
    if (await messageNaming(channelId, runId)) return (Date.now() - at) / 1000;
    await sleep(200);
  }
  return null;
}

async function sampleRunning(channelId: string, testId: number): Promise<number | null> {
  const run = await org.addRun(testId, "running");
  // Seen running: an idle poll comes within 65 s.
  await sleep(66_000 + Math.random() * 4_000);
  const at = Date.now();
  await org.setRun(run.id, "failed");
  const seconds = await until(channelId, run.id, at);
  await org.addRun(testId, "passed");
  return seconds;
}

async function sampleIdle(channelId: string, testId: number): Promise<number | null> {
  await sleep(Math.random() * 60_000);
  const at = Date.now();
  const run = await org.addRun(testId, "failed");
  const seconds = await until(channelId, run.id, at);
  await org.addRun(testId, "passed");
  // The pass is seen (and the streak ended) before the next sample.
  await sleep(70_000);
  return seconds;
}

async function measure(kind: "running" | "idle"): Promise<(number | null)[]> {
  const tests: { channelId: string; testId: number }[] = [];
  for (const channelId of CHANNELS) {
    const test = await org.addTest(`Latency ${kind} ${channelId}`);
    await command(channelId, `subscribe test ${test.id}`);
    tests.push({ channelId, testId: test.id });
  }
  // The subscription's first alarm runs within a second; its baseline is taken at subscribe.
  await sleep(3_000);
  const out: (number | null)[] = [];
  const perChannel = Math.ceil(SAMPLES / CHANNELS.length);
  await Promise.all(
    tests.map(async ({ channelId, testId }) => {
      for (let i = 0; i < perChannel && out.length < SAMPLES; i++)
        out.push(await (kind === "running" ? sampleRunning : sampleIdle)(channelId, testId));
    }),
  );
  for (const { channelId, testId } of tests) await command(channelId, `unsubscribe test ${testId}`);
  return out.slice(0, SAMPLES);
}

function describe(label: string, values: (number | null)[]): string {
  const got = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const q = (p: number) => got[Math.min(got.length - 1, Math.floor(p * got.length))] ?? Number.NaN;
  const median = got.length % 2 ? q(0.5) : ((got[got.length / 2 - 1] ?? 0) + (got[got.length / 2] ?? 0)) / 2;
  const f = (v: number) => v.toFixed(1);
  return `| ${label} | ${values.length} | ${f(got[0] ?? Number.NaN)} | ${f(median)} | ${f(q(0.9))} | ${f(got.at(-1) ?? Number.NaN)} | ${values.length - got.length} | ${got.map(f).join(", ")} |`;
}

try {
  // One case after the other: a failure asks its channel's other tests to poll at once, which
  // would shorten the other case's wait.
  const running = await measure("running");
  const idle = await measure("idle");
  console.log("| case | samples | min s | median s | p90 s | max s | never | all (s) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---|");
  console.log(describe("a run first seen `running` fails", running));
  console.log(describe("a run starts and fails between two idle polls", idle));
} finally {
  await stack.stop();
}
