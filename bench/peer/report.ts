/** The Bolt comparison as a console table and as a BENCHMARKS.md section. */
import type { Size } from "../build.ts";
import { KIND_LABELS } from "./compare.ts";
import { peerRow, peerVerdict, whereTheTimeGoes } from "./findings.ts";
import type { PeerFacts } from "./peers.ts";
import { PEER_NAMES, type PeerId } from "./served.ts";

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ratio = (ours: number, bolt: number) => (bolt > 0 ? `${(ours / bolt).toFixed(2)}×` : "–");
const OURS: PeerId[] = ["workerd-serve", "workerd", "wrangler"];

export function renderPeerTable(p: PeerFacts, ours: Size): string {
  const lines = [
    "",
    `Against Bolt (bench/peer/): ${p.plan.rounds} rounds × ${p.plan.requestsPerRound} requests per cell`,
    "kind      server         conc  p50     p99 (rounds)          CPU ms/req (rounds)   RSS MB  harness  vendor/req  replies",
  ];
  for (const r of p.rows)
    lines.push(
      `${r.kind.padEnd(9)} ${r.target.padEnd(13)} ${String(r.concurrency).padStart(5)}  ${f1(r.p50).padStart(6)}  ${`${f1(r.p99)} (${f1(r.p99Rounds[0])}–${f1(r.p99Rounds[1])})`.padEnd(21)} ${`${f2(r.cpuMs)} (${f2(r.cpuRounds[0])}–${f2(r.cpuRounds[1])})`.padEnd(21)} ${f1(r.rssMb).padStart(6)}  ${f2(r.harnessCpuMs).padStart(7)}  ${f2(r.vendorCallsPerCommand).padStart(10)}  ${r.replies}/${r.requests}`,
    );
  lines.push(
    `Bundle gzip: ours ${kb(ours.gzipBytes)}, Bolt ${kb(p.bolt.gzipBytes)} (${ratio(ours.gzipBytes, p.bolt.gzipBytes)})`,
  );
  for (const id of ["workerd-serve", "workerd"] as const) {
    const v = peerVerdict(p, id);
    lines.push(
      `p99 of the command at ${v.concurrency} in flight, ${id} ÷ Bolt: ${f1(v.ours)} / ${f1(v.bolt)} ms = ${ratio(v.ours, v.bolt)} → ${v.met ? "met" : "not met"}; at or below Bolt's in ${v.roundsWon} of ${v.rounds} rounds`,
    );
  }
  return lines.join("\n");
}

function method(p: PeerFacts, nproc: number): string[] {
  const n = p.plan.rounds * p.plan.requestsPerRound;
  return [
    "The design card names `@slack/bolt`; we use slack-edge because Bolt does not run in workerd. To put numbers on the choice, the same run starts a Bolt app on Node (bench/peer/bolt-app.ts: Bolt's default HTTPReceiver and its signature check, `logLevel: ERROR`, bundled with esbuild for Node and run from that bundle) beside the Worker, and sends all of them the same signed requests (same signing secret, bot token, emulator and Slack stand-in). For `/sessions jane@acme.com` Bolt answers the way the Worker does: `ack()` with the same ephemeral text, then the same vendor calls through the project's vendor client (the search, then the timelines of the 3 sessions that have one: *vendor calls* checks it), then the same Block Kit reply (the project's renderer) through `respond()` to `response_url` (*replies* counts what the stand-in received).",
    "",
    "The Worker (the `npm run build` bundle) is measured three ways: under `wrangler dev` (its dev proxy in a second workerd, plus wrangler's Node processes and esbuild); on workerd through Miniflare (bench/peer/workerd-direct.ts: one workerd process, with Miniflare's entry worker in front of ours, KV simulated); and on a bare `workerd serve` with a config written by bench/peer/workerd-serve.ts (nothing in front of ours; KV is a stub that would answer 500, which none of these requests touch). The goal is judged on the bare workerd; Miniflare's figures show what its entry worker adds.",
    "",
    `Each cell is ${p.plan.rounds} rounds of ${p.plan.requestsPerRound} requests (${n} in all) after 20 warm-up commands per server; in each round the servers take turns, so load from elsewhere on the box falls on all of them. **Ack** is the time to the HTTP answer, taken by bench/load.ts running in a worker thread (bench/peer/load-thread.ts) so that its clock does not wait on the emulator and the stand-in, which share the bench's main thread; p50 and p99 are over all ${n}, with the lowest and highest p99 of a single round in brackets. **CPU** is utime + stime of all the server's processes from \`/proc/<pid>/stat\`, from quiet to quiet (so the vendor calls and the reply are included), minus the same processes' idle CPU over the same time (measured for 2 s before), divided by the requests: the median round, with the range (10 ms ticks, so ± ${f2(20 / p.plan.requestsPerRound)} ms per round). **RSS** is \`VmRSS\` summed over the server's processes after a round (highest of the rounds). **Harness CPU** is what the bench process itself (load thread, emulator, stand-in) spent per request. Everything shares ${nproc} cores with whatever else runs on the box.`,
    "",
  ];
}

export function renderPeerMarkdown(p: PeerFacts, ours: Size, nproc: number): string[] {
  const out: string[] = ["## 6. Against Bolt for JavaScript", "", ...method(p, nproc)];
  out.push(
    "| request | server | concurrent | ack p50 ms | ack p99 ms (rounds) | CPU ms / request (rounds) | RSS MB | harness CPU ms / request | vendor calls / request | replies | unexpected status |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of p.rows)
    out.push(
      `| ${KIND_LABELS[r.kind]} | ${PEER_NAMES[r.target]} | ${r.concurrency} | ${f1(r.p50)} | ${f1(r.p99)} (${f1(r.p99Rounds[0])}–${f1(r.p99Rounds[1])}) | ${f2(r.cpuMs)} (${f2(r.cpuRounds[0])}–${f2(r.cpuRounds[1])}) | ${f1(r.rssMb)} | ${f2(r.harnessCpuMs)} | ${f2(r.vendorCallsPerCommand)} | ${r.replies}/${r.requests} | ${r.unexpected} |`,
    );
  out.push("", "### Ratios, ours ÷ Bolt (below 1 is better for us)", "");
  out.push(
    "| request | concurrent | ours | ack p50 | ack p99 | CPU / request | RSS | bundle gzip |",
    "|---|---|---|---|---|---|---|---|",
  );
  const bundle = `${ratio(ours.gzipBytes, p.bolt.gzipBytes)} (${kb(ours.gzipBytes)} ÷ ${kb(p.bolt.gzipBytes)})`;
  for (const { kind, concurrency } of p.plan.cells) {
    const b = peerRow(p, "bolt", kind, concurrency);
    for (const id of OURS) {
      const o = peerRow(p, id, kind, concurrency);
      if (o && b)
        out.push(
          `| ${kind} | ${concurrency} | ${PEER_NAMES[id]} | ${ratio(o.p50, b.p50)} | ${ratio(o.p99, b.p99)} | ${ratio(o.cpuMs, b.cpuMs)} | ${ratio(o.rssMb, b.rssMb)} | ${bundle} |`,
        );
    }
  }
  out.push(
    "",
    `Bundles, gzip level 9: ours (\`npm run build\`) ${kb(ours.gzipBytes)} gzip, ${kb(ours.rawBytes)} raw; the Bolt app (esbuild, platform node, not minified, like wrangler's build) ${kb(p.bolt.gzipBytes)} gzip, ${kb(p.bolt.rawBytes)} raw. Both hold the same project code (vendor client, valibot schemas, Block Kit renderer); the rest is Hono + slack-edge on one side and Bolt with its dependencies (Express, axios, @slack/web-api, …) on the other.`,
    "",
  );
  out.push(...whereTheTimeGoes(p));
  return out;
}
