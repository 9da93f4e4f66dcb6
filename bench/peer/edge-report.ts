/** The edge comparison (bench/peer/edge.ts) as a BENCHMARKS.md section of its own. */
import type { Size } from "../build.ts";
import type { PeerCell, PeerKind, PeerRow } from "./compare.ts";
import { KIND_LABELS } from "./compare.ts";
import type { ProfileResult } from "./profile.ts";
import { PEER_NAMES, type PeerId } from "./served.ts";

const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–");
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–");
const f3 = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : "–");
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : "–");
const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length === 0
    ? Number.NaN
    : ((s[Math.floor((s.length - 1) / 2)] ?? 0) + (s[Math.ceil((s.length - 1) / 2)] ?? 0)) / 2;
};

export type EdgePlan = {
  cells: PeerCell[];
  rounds: number;
  requestsPerRound: number;
  coldStarts: number;
  /** A git revision to measure beside the working tree (the code before a change), or null. */
  baseline: string | null;
  profile: { concurrency: number; requests: number } | null;
};

export type EdgeFacts = {
  plan: EdgePlan;
  rows: PeerRow[];
  cold: Array<[PeerId, number[]]>;
  /** The same cold starts, to the first HTTP answer of any kind (process up, code loaded). */
  coldUp: Array<[PeerId, number[]]>;
  bundles: Array<[PeerId, Size]>;
  profiles: Array<[PeerId, ProfileResult]>;
  elapsedS: number;
  loadAvg: number[];
};

/** What the goals were measured against before this work (issue 19 and BENCHMARKS.md §4). */
export const COLD_START_LIMIT_MS = 225;
export const BUNDLE_LIMIT_KB = 86;
const SESSIONS_P99_RATIO = 0.3;

const ORDER: PeerId[] = ["workerd-serve", "workerd-serve-base", "bolt", "hono-floor", "hono-floor-help"];

function row(f: EdgeFacts, id: PeerId, kind: PeerKind, c: number): PeerRow | undefined {
  return f.rows.find((r) => r.target === id && r.kind === kind && r.concurrency === c);
}

const cpu = (r: PeerRow | undefined) =>
  r ? `${f2(r.cpuMs)} (${f2(r.cpuRounds[0])}–${f2(r.cpuRounds[1])})` : "–";
/** The median of the rounds' p99s: one round disturbed by the rest of the box moves it less. */
const roundP99 = (r: PeerRow | undefined) => (r ? median(r.p99ByRound) : Number.NaN);
const p99 = (r: PeerRow | undefined) =>
  r ? `${f1(roundP99(r))} (${f1(r.p99Rounds[0])}–${f1(r.p99Rounds[1])})` : "–";
const pooledP99 = (r: PeerRow | undefined) =>
  r ? `${f1(r.p99)} (${f1(r.p99Rounds[0])}–${f1(r.p99Rounds[1])})` : "–";
const verdict = (ok: boolean) => (ok ? "met" : "**not met**");

/** Rounds in which ours was at or below Bolt (round r of each ran back to back). */
function roundsWon(ours: number[], bolt: number[]): string {
  const won = ours.filter((v, i) => v <= (bolt[i] ?? Number.NaN)).length;
  return `${won} of ${ours.length} rounds`;
}

function goals(f: EdgeFacts): string[] {
  const out = [
    "| goal | ours | ours before | Bolt | floor (Hono echo) | floor answering ours' help | ours ÷ Bolt | floor answering ours' help ÷ Bolt | target | verdict |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  const base = f.plan.baseline !== null;
  for (const c of f.plan.cells.filter((c) => c.kind === "help").map((c) => c.concurrency)) {
    const [o, b, bolt, floor, help] = ORDER.map((id) => row(f, id, "help", c));
    const ok = (o?.cpuMs ?? Number.NaN) <= (bolt?.cpuMs ?? Number.NaN);
    const boltCpu = bolt?.cpuMs ?? Number.NaN;
    out.push(
      `| CPU ms per help ack, ${c} in flight (median round, range) | ${cpu(o)} | ${base ? cpu(b) : "–"} | ${cpu(bolt)} | ${cpu(floor)} | ${cpu(help)} | ${ratio(o?.cpuMs ?? Number.NaN, boltCpu)} | ${ratio(help?.cpuMs ?? Number.NaN, boltCpu)} | ≤ 1.00× | ${verdict(ok)} |`,
    );
  }
  const top = Math.max(...f.plan.cells.filter((c) => c.kind === "help").map((c) => c.concurrency));
  {
    const [o, b, bolt, floor, help] = ORDER.map((id) => row(f, id, "help", top));
    const ok = roundP99(o) <= roundP99(bolt);
    out.push(
      `| help ack p99 ms at ${top} in flight (median round, range) | ${p99(o)} | ${base ? p99(b) : "–"} | ${p99(bolt)} | ${p99(floor)} | ${p99(help)} | ${ratio(roundP99(o), roundP99(bolt))}; at or below in ${roundsWon(o?.p99ByRound ?? [], bolt?.p99ByRound ?? [])} | ${ratio(roundP99(help), roundP99(bolt))} | ≤ 1.00× | ${verdict(ok)} |`,
    );
  }
  const cmd = f.plan.cells.find((c) => c.kind === "command");
  if (cmd) {
    const [o, b, bolt] = ORDER.map((id) => row(f, id, "command", cmd.concurrency));
    const r = roundP99(o) / roundP99(bolt);
    out.push(
      `| \`/sessions\` p99 ms at ${cmd.concurrency} in flight, sustained (median round, range; the ack, with 4 vendor calls and the reply after it) | ${p99(o)} | ${base ? p99(b) : "–"} | ${p99(bolt)} | – | – | ${ratio(roundP99(o), roundP99(bolt))}; at or below 0.3× in ${roundsWon(
        o?.p99ByRound ?? [],
        (bolt?.p99ByRound ?? []).map((v) => v * SESSIONS_P99_RATIO),
      )} | – | ≤ ${SESSIONS_P99_RATIO.toFixed(2)}× | ${verdict(r <= SESSIONS_P99_RATIO)} |`,
    );
  }
  const cold = new Map(f.cold);
  const coldOf = (id: PeerId) => {
    const v = cold.get(id);
    return v?.length ? `${f1(median(v))} (${f1(Math.min(...v))}–${f1(Math.max(...v))})` : "–";
  };
  const oursCold = median(cold.get("workerd-serve") ?? []);
  out.push(
    `| cold start: spawn to the first 200 of a signed \`/decipher help\`, ms (median, range) | ${coldOf("workerd-serve")} | ${coldOf("workerd-serve-base")} | ${coldOf("bolt")} | ${coldOf("hono-floor")} | ${coldOf("hono-floor-help")} | ${ratio(oursCold, median(cold.get("bolt") ?? []))} | ${ratio(median(cold.get("hono-floor-help") ?? []), median(cold.get("bolt") ?? []))} | ≤ ${COLD_START_LIMIT_MS} ms | ${verdict(oursCold <= COLD_START_LIMIT_MS)} |`,
  );
  const up = new Map(f.coldUp);
  const upOf = (id: PeerId) => {
    const v = up.get(id);
    return v?.length ? f1(median(v)) : "–";
  };
  out.push(
    `| of which: spawn to the first HTTP answer (a 404: the process listens, its code is loaded), ms (median) | ${upOf("workerd-serve")} | ${upOf("workerd-serve-base")} | ${upOf("bolt")} | ${upOf("hono-floor")} | ${upOf("hono-floor-help")} | ${ratio(median(up.get("workerd-serve") ?? []), median(up.get("bolt") ?? []))} | | | |`,
  );
  const size = new Map(f.bundles);
  const gz = (id: PeerId) => {
    const s = size.get(id);
    return s ? kb(s.gzipBytes) : "–";
  };
  const oursKb = (size.get("workerd-serve")?.gzipBytes ?? Number.NaN) / 1024;
  out.push(
    `| bundle, gzip level 9 | ${gz("workerd-serve")} | ${gz("workerd-serve-base")} | ${gz("bolt")} | ${gz("hono-floor")} | ${gz("hono-floor-help")} | ${ratio(size.get("workerd-serve")?.gzipBytes ?? Number.NaN, size.get("bolt")?.gzipBytes ?? Number.NaN)} | – | ≤ ${BUNDLE_LIMIT_KB} KB | ${verdict(oursKb <= BUNDLE_LIMIT_KB)} |`,
  );
  return out;
}

function cells(f: EdgeFacts): string[] {
  const out = [
    "| request | server | in flight | requests | ack p50 ms | ack p99 ms, all rounds pooled (single rounds) | ack p99 ms, median round | CPU ms / request (rounds) | RSS MB | vendor calls / request | replies | unexpected status |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const c of f.plan.cells)
    for (const id of ORDER) {
      const r = row(f, id, c.kind, c.concurrency);
      if (r)
        out.push(
          `| ${KIND_LABELS[c.kind]} | ${PEER_NAMES[id]} | ${c.concurrency} | ${r.requests} | ${f1(r.p50)} | ${pooledP99(r)} | ${f1(roundP99(r))} | ${cpu(r)} | ${f1(r.rssMb)} | ${f2(r.vendorCallsPerCommand)} | ${r.replies}/${r.requests} | ${r.unexpected} |`,
        );
    }
  return out;
}

function profiles(f: EdgeFacts): string[] {
  if (f.profiles.length === 0) return [];
  const p = f.plan.profile;
  const out = [
    "### Where the CPU goes: V8 profile, top items",
    "",
    `bench/peer/profile.ts: the build served on a bare \`workerd serve\` with an inspector (which adds its own cost; the sampler counts wall time, so on a loaded box read the shares, not the absolute figures), ${p?.requests} signed \`/decipher help\` at ${p?.concurrency} in flight, sampled every 200 µs; self time per request, by module and by function (names and places through the bundle's source map).`,
    "",
  ];
  const named = (id: PeerId, r: ProfileResult) => [
    `**${PEER_NAMES[id]}**: ${f3(r.busyMs)} ms per request not idle.`,
    "",
    "| ms / request | module | | ms / request | function |",
    "|---|---|---|---|---|",
    ...Array.from({ length: Math.max(r.modules.length, r.functions.length) }, (_, i) => {
      const m = r.modules[i];
      const fn = r.functions[i];
      return `| ${m ? f3(m[1]) : ""} | ${m ? m[0].replace(/\|/g, "\\|") : ""} | | ${fn ? f3(fn[1]) : ""} | ${fn ? fn[0].replace(/\|/g, "\\|") : ""} |`;
    }),
    "",
  ];
  for (const id of ["workerd-serve-base", "workerd-serve"] as const) {
    const r = f.profiles.find(([p]) => p === id)?.[1];
    if (r) out.push(...named(id, r));
  }
  return out;
}

export function renderEdgeSection(f: EdgeFacts): string {
  const n = (c: { requests?: number }) => (c.requests ?? f.plan.requestsPerRound) * f.plan.rounds;
  const lines = [
    "<!-- edge:start (written by bench/peer/edge.ts, from `npm run bench`; rerun rather than edit) -->",
    "## The Slack edge: ours against Bolt, before and after",
    "",
    `Measured ${new Date().toISOString()} in ${f.elapsedS} s on the machine above (load average at start ${f.loadAvg.map((v) => v.toFixed(2)).join(" / ") || "?"}).${f.plan.baseline ? ` "Ours before" is the Worker built from \`${f.plan.baseline}\` (bench/build.ts \`buildWorkerAt\`), measured in the same run.` : ""}`,
    "",
    `Every server runs alone in its own process on 127.0.0.1 against the same Decipher emulator and Slack stand-in (bench/peer/services.ts), with the same signing secret and bot token: ours (the \`npm run build\` bundle) on a bare \`workerd serve\` (bench/peer/workerd-serve.ts); the Bolt app of bench/peer/bolt-app.ts on Node (HTTPReceiver, which checks the signature; \`/decipher help\` parsed and answered in the ack with the project's parser and help message, \`/sessions\` as the Worker does it); and as the floor, bench/peer/hono-echo.ts on the same workerd: Hono, one \`crypto.subtle.verify\` with a key imported once, the form parsed, an ephemeral echo; and that floor answering every command with the bytes ours answers \`/decipher help\` with (bench/peer/hono-floor-help.ts), which is what any Worker that sends this help spends on workerd. Each cell is ${f.plan.rounds} rounds; in every round the servers take turns, each round starting with the next server, so load from the rest of the box falls on all of them (${f.plan.cells.map((c) => `${c.kind} at ${c.concurrency}: ${n(c)} requests`).join("; ")}). **p99** is each round's own, and the goals take the median round (the brackets give the lowest and highest); the full table also pools all rounds' requests. **CPU** is utime + stime of the server's processes from \`/proc/<pid>/stat\`, quiet to quiet (so a command's lazy half counts), minus their idle rate, per request: the median round and the range (10 ms ticks). **Cold start** is from spawning the process to the first 200 of a signed \`/decipher help\` (a fresh process each time, ${f.plan.coldStarts} each, interleaved), so ours includes the isolate's first \`auth.test\`.`,
    "",
    ...goals(f),
    "",
    ...cells(f),
    "",
    ...profiles(f),
    "<!-- edge:end -->",
  ];
  return lines.join("\n");
}
