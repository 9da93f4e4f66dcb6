/**
 * "Where the time goes" under BENCHMARKS.md §6: the verdict on the goal, and the CPU of one
 * request split into the HTTP floor, the ack path and the lazy half, from this run's cells.
 * The code-level causes come from bench/peer/profile.ts (a V8 profile of the Worker on workerd).
 */
import type { PeerKind, PeerRow } from "./compare.ts";
import type { PeerFacts } from "./peers.ts";
import { PEER_NAMES, type PeerId } from "./served.ts";

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
/** A difference of two tick-limited CPU figures: below zero it only says they are alike. */
const diff = (n: number) => (n < 0 ? "≈ 0 (noise)" : f2(n));
const SERVERS: PeerId[] = ["workerd-serve", "workerd", "wrangler", "bolt"];

export const peerRow = (p: PeerFacts, id: PeerId, kind: PeerKind, concurrency: number): PeerRow | undefined =>
  p.rows.find((r) => r.target === id && r.kind === kind && r.concurrency === concurrency);

/** The goal: ours directly on workerd at least as good as Bolt at p99 of the full command, 50 in flight. */
export function peerVerdict(p: PeerFacts, id: PeerId = "workerd-serve") {
  const top = Math.max(...p.plan.cells.filter((c) => c.kind === "command").map((c) => c.concurrency));
  const o = peerRow(p, id, "command", top);
  const b = peerRow(p, "bolt", "command", top);
  const ours = o?.p99 ?? Number.NaN;
  const bolt = b?.p99 ?? Number.NaN;
  // Round r of each server ran back to back, under much the same load from the rest of the box.
  const roundsWon = (o?.p99ByRound ?? []).filter((v, i) => v <= (b?.p99ByRound[i] ?? Number.NaN)).length;
  return { concurrency: top, ours, bolt, met: ours <= bolt, roundsWon, rounds: p.plan.rounds };
}

/** "ours lower" / "ours higher" for a CPU figure, with the ratio. */
const cmp = (ours: number, bolt: number) =>
  !Number.isFinite(ours / bolt)
    ? "–"
    : `${(ours / bolt).toFixed(2)}×, ours ${ours < bolt ? "lower" : ours > bolt ? "higher" : "the same"}`;

/** How much later the median ack comes when the lazy halves run too (command vs ack-only). */
const lazyDelay = (p: PeerFacts, id: PeerId, c: number) =>
  (peerRow(p, id, "command", c)?.p50 ?? Number.NaN) - (peerRow(p, id, "ack-only", c)?.p50 ?? Number.NaN);

const p50s = (p: PeerFacts, id: PeerId, c: number) =>
  `${f1(peerRow(p, id, "ack-only", c)?.p50 ?? Number.NaN)} → ${f1(peerRow(p, id, "command", c)?.p50 ?? Number.NaN)}`;

const range = (p: PeerFacts, id: PeerId, c: number) => {
  const r = peerRow(p, id, "command", c)?.p99Rounds;
  return r ? `${f1(r[0])}–${f1(r[1])}` : "–";
};

function split(p: PeerFacts, id: PeerId, concurrency: number) {
  const floor = peerRow(p, id, "floor", concurrency)?.cpuMs ?? Number.NaN;
  const ack = peerRow(p, id, "ack-only", concurrency)?.cpuMs ?? Number.NaN;
  const command = peerRow(p, id, "command", concurrency);
  return { floor, ackPath: ack - floor, lazy: (command?.cpuMs ?? Number.NaN) - ack, command };
}

export function whereTheTimeGoes(p: PeerFacts): string[] {
  const v = peerVerdict(p, "workerd-serve");
  const mf = peerVerdict(p, "workerd");
  const c = v.concurrency;
  const out = ["### The goal, and where the time goes", ""];
  out.push(
    `**Goal: ack p99 at ${c} concurrent, ours directly on workerd ≤ Bolt's.** This run: bare \`workerd serve\` ${f1(v.ours)} ms vs Bolt ${f1(v.bolt)} ms → **${v.met ? "met" : "not met"}**; through Miniflare ${f1(mf.ours)} ms → ${mf.met ? "met" : "not met"}. Round by round (each round of ours next to the same round of Bolt's), bare workerd's p99 was at or below Bolt's in ${v.roundsWon} of ${v.rounds} rounds, Miniflare's in ${mf.roundsWon} of ${mf.rounds}. The p99 rests on a handful of requests in one burst and one bad round decides it, so on a shared box the verdict can change from run to run: \`BENCH_PEERS_ONLY=1 npm run bench\` reruns only this comparison (about 2 minutes on a quiet box) to see the spread.`,
    "",
    `CPU of one request at ${c} in flight, split by the three cells (medians of rounds; differences of figures with a resolution of ${f2(10 / p.plan.requestsPerRound)} ms each):`,
    "",
    "| server | HTTP floor (404, no Slack code) | + ack path (signature check, parse, usage ack) | + lazy half (4 vendor calls, render, reply) | = command |",
    "|---|---|---|---|---|",
  );
  for (const id of SERVERS) {
    const s = split(p, id, c);
    out.push(
      `| ${PEER_NAMES[id]} | ${f2(s.floor)} | ${diff(s.ackPath)} | ${diff(s.lazy)} | ${f2(s.command?.cpuMs ?? Number.NaN)} |`,
    );
  }
  const bolt = split(p, "bolt", c);
  const bare = split(p, "workerd-serve", c);
  const viaMf = split(p, "workerd", c);
  const harness = peerRow(p, "bolt", "command", c)?.harnessCpuMs ?? Number.NaN;
  const gap = v.met
    ? `in this run ours was ahead at p99 all the same, by ${f1(v.bolt - v.ours)} ms`
    : `the p99 gap in this run: ${f1(v.ours - v.bolt)} ms${v.ours - v.bolt > (bare.ackPath - bolt.ackPath) * c ? "; the rest is ordering, next point" : ""}`;
  out.push(
    "",
    `- **The lazy half** (vendor calls, validation, rendering, the \`response_url\` reply) costs ${f2(bare.lazy)} ms on workerd vs ${f2(bolt.lazy)} ms on Node (${cmp(bare.lazy, bolt.lazy)}), with the same project code on both sides, so the difference is the runtime around it (workerd's fetch and isolate against Node with undici, axios and Bolt's \`respond\`). The bare HTTP floor is ${f2(bare.floor)} ms on workerd vs ${f2(bolt.floor)} ms on Node (${cmp(bare.floor, bolt.floor)}).`,
    `- **Overall** a command costs ${f2(bare.command?.cpuMs ?? Number.NaN)} ms of CPU on bare workerd vs ${f2(bolt.command?.cpuMs ?? Number.NaN)} ms on Bolt (${cmp(bare.command?.cpuMs ?? Number.NaN, bolt.command?.cpuMs ?? Number.NaN)}), but the ack latency follows the ack path, not the total.`,
    `- **The ack path** costs ${f2(bare.ackPath)} ms vs Bolt's ${f2(bolt.ackPath)} ms (${cmp(bare.ackPath, bolt.ackPath)}), and it is what an ack waits for${bare.ackPath > bolt.ackPath ? `: with ${c} in flight the last ack of a burst queues behind the others' ack paths, so the difference alone adds up to about ${f1((bare.ackPath - bolt.ackPath) * c)} ms at the tail (${gap})` : ""}. Where the ack path's CPU goes, and what it costs against Bolt and a Hono-only floor on the same workerd, is measured in "The Slack edge" below (bench/peer/edge.ts, with a V8 profile through bench/peer/profile.ts).`,
    `- **Ordering: the lazy halves delay our acks ${lazyDelay(p, "workerd-serve", c) > lazyDelay(p, "bolt", c) ? "more" : "no more"} than Bolt's.** Ack p50 at ${c} in flight without lazy work (ack-only) and with it (command): ours ${p50s(p, "workerd-serve", c)} ms, Bolt ${p50s(p, "bolt", c)} ms. The lazy halves' CPU runs on the same thread as the acks still waiting, so what counts is the order in which each runtime takes waiting requests and the lazy halves' continuations. Starting the lazy half a tick later (after pending requests) is worth trying in src/; on Cloudflare, concurrent requests also spread over isolates, which this one-process bench does not show.`,
    `- **Miniflare's entry worker costs ${f2(viaMf.floor - bare.floor)} ms per request** (floor ${f2(viaMf.floor)} vs ${f2(bare.floor)} ms): every request crosses a second JS worker in the same thread. \`wrangler dev\` adds its proxy workerd and Node processes on top (floor ${f2(split(p, "wrangler", c).floor)} ms): the dev proxy's floor, so §1's figures through \`wrangler dev\` overstate the Worker's.`,
    `- **Latency at ${c} in flight is mostly queueing on a shared box, not handler time.** The bench process itself (load thread, emulator serving 4 vendor calls per command, stand-in taking the reply) spends ${f2(harness)} ms of CPU per Bolt command (the servers: ${f2(bare.command?.cpuMs ?? Number.NaN)} ms ours, ${f2(bolt.command?.cpuMs ?? Number.NaN)} ms Bolt), on the same 2 cores, beside whatever else runs there. Every server is single-threaded for JS, so an ack waits behind the CPU of the requests and lazy halves ahead of it. Ack p50 here: ${f1(peerRow(p, "workerd-serve", "command", c)?.p50 ?? Number.NaN)} ms on bare workerd vs ${f1(peerRow(p, "bolt", "command", c)?.p50 ?? Number.NaN)} ms on Bolt; single-round p99s ${range(p, "workerd-serve", c)} vs ${range(p, "bolt", c)} ms.`,
    "",
  );
  return out;
}
