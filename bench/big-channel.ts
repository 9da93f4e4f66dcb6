/**
 * `npm run bench:big-channel`: `/decipher list`, `status` and the App Home of one channel with
 * many subscriptions, before and after the per-channel index. Runs bench/big-channel.bench.ts
 * in workerd (bench/big-channel.config.ts) and prints a Markdown section. BIG_CHANNEL_SIZE=200
 * and BIG_CHANNEL_ROUNDS=15 set the size and the interleaved rounds; BIG_CHANNEL_WRITE=1 also
 * writes it to bench/sections/50-big-channels.md (which bench/report.ts appends whenever it
 * rewrites BENCHMARKS.md) and replaces it in BENCHMARKS.md (between its `big-channels` markers).
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { ROOT } from "../dev/stack.ts";
import { run, VITEST_RUN_BOUND_MS } from "./exec.ts";
import { percentile } from "./load.ts";
import { writeSection } from "./write-section.ts";

process.env.WRANGLER_SEND_METRICS = "false";

type Sample = { ms: number; kvReads: number; doCalls: number; shown: number };
type Command = { ackMs: number[]; pages: number; shown: number; clickMs: number[] };
type Row = {
  kind: "big-channel";
  size: number;
  rounds: { before: Sample; after: Sample; homeBefore: Sample; homeAfter: Sample }[];
  firstRead: Sample;
  setupMs: number;
  commands: Record<"list" | "status", Command>;
  homeMs: number[];
  homeShown: number;
};

const MARK_START = "<!-- big-channels:start";
const MARK_END = "<!-- big-channels:end -->";

/** Median, and the spread as p10–p90 (min–max when there are fewer than 10 samples). */
const spread = (v: number[]) =>
  v.length === 0
    ? "—"
    : v.length >= 10
      ? `${percentile(v, 50)} (p10–p90 ${percentile(v, 10)}–${percentile(v, 90)})`
      : `${percentile(v, 50)} (${Math.min(...v)}–${Math.max(...v)})`;
const same = (v: number[]) =>
  Math.min(...v) === Math.max(...v) ? `${v[0]}` : `${Math.min(...v)}–${Math.max(...v)}`;

function render(row: Row, seconds: number): string {
  const n = row.size;
  const r = row.rounds;
  const col = (k: keyof Row["rounds"][number], f: keyof Sample) => r.map((x) => x[k][f]);
  const load = loadavg().map((v) => v.toFixed(2));
  const { list, status } = row.commands;
  return [
    `${MARK_START} (written by \`npm run bench:big-channel\` with BIG_CHANNEL_WRITE=1; rerun rather than edit) -->`,
    `## Big channels: list, status and Home at ${n} subscriptions, before and after`,
    "",
    `Measured ${new Date().toISOString()} on ${cpus().length} cores (load ${load.join(" / ")}), ${Math.round(seconds)} s, by \`npm run bench:big-channel\` (bench/big-channel.ts → bench/big-channel.bench.ts in workerd, emulator and Slack stand-in on loopback, local KV and Durable Objects). One channel watches ${n} tests with long names, made with \`/decipher subscribe\`. **Read path**: ${r.length} rounds, before and after interleaved (the order alternating), each reading the channel and rendering the first page of \`list\` (Home: every channel and the Home view); *before* reads the KV copies as the handlers did (the KV index, one \`get\` per subscription, the digest and weekly copies), *after* asks the channel's ChannelObject once. KV reads counted by the bot's counting KV, Durable Object calls by wrapping the channel namespace. Times are wall ms: median (p10–p90), or (min–max) under 10 samples. Local KV answers in well under a millisecond, so *before* is far cheaper here than on Cloudflare, where a KV read from a Worker is a network call (the issue measured 0.6 s for 50 subscriptions in the sandbox).`,
    "",
    `| ${n} subscriptions, one channel | before: KV copies | after: the channel's index |`,
    "|---|---|---|",
    `| \`list\` read + first page, wall ms | ${spread(col("before", "ms"))} | ${spread(col("after", "ms"))} |`,
    `| KV reads per answer | ${same(col("before", "kvReads"))} | ${same(col("after", "kvReads"))} |`,
    `| Durable Object calls per answer | ${same(col("before", "doCalls"))} | ${same(col("after", "doCalls"))} |`,
    `| subscriptions on the first page | ${same(col("before", "shown"))} (the old reply was one message: it showed 21 of 50) | ${same(col("after", "shown"))} (then More) |`,
    `| Home read + view, wall ms | ${spread(col("homeBefore", "ms"))} | ${spread(col("homeAfter", "ms"))} |`,
    `| Home: KV reads / DO calls | ${same(col("homeBefore", "kvReads"))} / ${same(col("homeBefore", "doCalls"))} | ${same(col("homeAfter", "kvReads"))} / ${same(col("homeAfter", "doCalls"))} |`,
    "",
    `The first read of a channel whose index was never read fills it from the KV copies once (a channel with subscriptions made before the index): ${row.firstRead.ms} ms, ${row.firstRead.kvReads} KV reads in the worker (the ChannelObject reads the KV index and each copy itself, once); every later read is the one call above.`,
    "",
    "**End to end, after** (a signed request in, the answer out, everything in between):",
    "",
    "| | wall ms, median (min–max) | pages | subscriptions shown |",
    "|---|---|---|---|",
    `| \`/decipher list\` ack (5 runs) | ${spread(list.ackMs)} | ${list.pages}, through More (${spread(list.clickMs)} ms a page) | ${list.shown} of ${n} |`,
    `| \`/decipher status\` ack (5 runs) | ${spread(status.ackMs)} | ${status.pages}, through More (${spread(status.clickMs)} ms a page) | ${status.shown} of ${n} |`,
    `| App Home open (6 runs; the first of each person publishes) | ${spread(row.homeMs)} | 1 view | ${row.homeShown} of ${n} |`,
    "",
    "Slack's limit is 3 s for the ack; each page holds at most 25 subscriptions in at most 10 sections (src/messages/decipher-replies.ts), within 50 blocks and 3,000 characters a section (test/messages/channel-pages.test.ts checks it at 200 subscriptions with long names).",
    "",
    MARK_END,
  ].join("\n");
}

async function main() {
  const started = Date.now();
  const res = await run(
    process.execPath,
    [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "bench/big-channel.config.ts"],
    { NO_COLOR: "1", FORCE_COLOR: "0" },
    VITEST_RUN_BOUND_MS,
  );
  const row = res.stdout
    .split("\n")
    .filter((l) => l.includes("BENCH_JSON "))
    .map((l) => JSON.parse(l.slice(l.indexOf("BENCH_JSON ") + 11)) as Row)
    .find((x) => x.kind === "big-channel");
  if (res.code !== 0 || !row) {
    console.error(res.stdout.slice(-4000));
    throw new Error("big-channel benchmark failed");
  }
  const section = render(row, (Date.now() - started) / 1000);
  console.log(section);
  console.log(`BIG_CHANNEL_JSON ${JSON.stringify(row)}`);
  if (process.env.BIG_CHANNEL_WRITE === "1") {
    writeSection("50-big-channels.md", MARK_START, MARK_END, section);
    console.log("wrote the section to BENCHMARKS.md");
  }
}

await main();
