/**
 * The same signed `/sessions` load, in the same run, against each server under test, at each
 * concurrency: ack latency, CPU per command (ack + vendor calls + response_url reply, net of
 * the processes' idle CPU), memory, and a check that every command made the same vendor calls
 * and delivered its reply. Each cell is measured in several rounds, the targets taking turns,
 * so that noise from the shared machine falls on all of them; the spread is kept.
 */
import type { Stack } from "../../dev/stack.ts";
import { cpuMs, settle } from "../cpu.ts";
import { percentile, type Sample, sleep } from "../load.ts";
import { commandRequest } from "../slack-requests.ts";
import { runLoadInThread } from "./load-thread.ts";
import { rssKb } from "./procs.ts";
import type { PeerId, Served } from "./served.ts";

type Round = {
  samples: Sample[];
  /** CPU ms per command over all of the target's processes, net of their idle CPU. */
  cpuMs: number;
  rssMb: number;
  /** CPU ms per command of the bench process itself: load thread, emulator and Slack stand-in. */
  harnessCpuMs: number;
  vendorCalls: number;
  replies: number;
};

/** One target at one concurrency: latency over all rounds' samples, and each round's own figures. */
export type PeerRow = {
  target: PeerId;
  kind: PeerKind;
  concurrency: number;
  requests: number;
  /** Answers other than the kind's expected status (200, or 404 for the floor), or no answer. */
  unexpected: number;
  p50: number;
  p99: number;
  /** Lowest and highest p99 of a single round. */
  p99Rounds: [number, number];
  /** Each round's p99, in round order (the servers take turns within a round). */
  p99ByRound: number[];
  /** Median of the rounds, and their lowest and highest. */
  cpuMs: number;
  cpuRounds: [number, number];
  /** Highest RSS after any round, summed over the target's processes. */
  rssMb: number;
  /** Median round: CPU ms per request of the bench process (load thread, emulator, stand-in). */
  harnessCpuMs: number;
  vendorCallsPerCommand: number;
  replies: number;
};

const IDLE_WINDOW_MS = 2000;
const WARMUP = 20;
const CHANNEL = "C0ALERTS";

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return (await res.json()) as T;
}

const vendorTotal = (stack: Services) =>
  json<{ total: number }>(
    `${stack.emulatorUrl}/__emulator/requests?apiKey=${encodeURIComponent(stack.apiKey)}`,
  ).then((b) => b.total);

/** Ephemeral replies posted through response_url since the stand-in's workspace was last reset. */
async function replyCount(stack: Services): Promise<number> {
  const q = new URLSearchParams({ botToken: stack.botToken, channel: CHANNEL });
  const body = await json<{ messages: Array<{ via?: string }> }>(`${stack.slackUrl}/__slack/messages?${q}`);
  return body.messages.filter((m) => m.via === "response_url").length;
}

const resetSlack = (stack: Services) =>
  json(`${stack.slackUrl}/__slack/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ botToken: stack.botToken }),
  });

/**
 * What each cell sends: the full command, the same command answered in the ack alone, the
 * HTTP floor, or `/decipher help` (answered in the ack, no vendor call, no lazy half).
 */
export type PeerKind = "command" | "ack-only" | "floor" | "help";

export const KIND_LABELS: Record<PeerKind, string> = {
  command: "`/sessions jane@acme.com` (ack, 4 vendor calls, reply)",
  "ack-only": "`/sessions` with no text (usage in the ack, no vendor call)",
  floor: "`GET /no-such-path` → 404 (no Slack code: the HTTP stack's floor)",
  help: "`/decipher help` (the help in the ack, no vendor call)",
};

const EXPECTED_STATUS: Record<PeerKind, number> = { command: 200, "ack-only": 200, floor: 404, help: 200 };

/** What the comparison needs of the local services: the emulator, the Slack stand-in and the secrets. */
export type Services = Pick<Stack, "emulatorUrl" | "slackUrl" | "signingSecret" | "botToken" | "apiKey">;

function requestsFor(stack: Services, target: Served, kind: PeerKind, n: number): Promise<Request[]> {
  const t = { ...stack, botUrl: target.url };
  return Promise.all(
    Array.from({ length: n }, () =>
      kind === "floor"
        ? new Request(`${target.url}/no-such-path`)
        : kind === "help"
          ? commandRequest(t, "/decipher", "help")
          : commandRequest(t, "/sessions", kind === "command" ? "jane@acme.com" : ""),
    ),
  );
}

/** CPU ms per second the target's processes use when nothing is sent (timers, pings). */
async function idleRate(target: Served): Promise<number> {
  await settle(target.pids());
  const before = cpuMs(target.pids());
  await sleep(IDLE_WINDOW_MS);
  return ((cpuMs(target.pids()) - before) * 1000) / IDLE_WINDOW_MS;
}

async function measure(
  stack: Services,
  target: Served,
  cell: PeerCell,
  n: number,
  idle: number,
): Promise<Round> {
  await resetSlack(stack);
  const requests = await requestsFor(stack, target, cell.kind, n);
  const pids = target.pids();
  await settle(pids);
  const cpuBefore = cpuMs(pids);
  const vendorBefore = await vendorTotal(stack);
  const harnessBefore = process.cpuUsage();
  const started = performance.now();
  const samples = await runLoadInThread(requests, cell.concurrency);
  await settle(pids); // the lazy halves (vendor calls, reply) are done when the processes go quiet
  const elapsedS = (performance.now() - started) / 1000;
  const harness = process.cpuUsage(harnessBefore);
  return {
    samples,
    cpuMs: (cpuMs(pids) - cpuBefore - idle * elapsedS) / n,
    rssMb: rssKb(pids) / 1024,
    harnessCpuMs: (harness.user + harness.system) / 1000 / n,
    vendorCalls: (await vendorTotal(stack)) - vendorBefore,
    replies: await replyCount(stack),
  };
}

function combine(target: PeerId, cell: PeerCell, rounds: Round[]): PeerRow {
  const samples = rounds.flatMap((r) => r.samples);
  const ms = samples.map((s) => s.ms);
  const p99s = rounds.map((r) =>
    percentile(
      r.samples.map((s) => s.ms),
      99,
    ),
  );
  const cpus = rounds.map((r) => r.cpuMs);
  return {
    target,
    kind: cell.kind,
    concurrency: cell.concurrency,
    requests: samples.length,
    unexpected: samples.filter((s) => s.status !== EXPECTED_STATUS[cell.kind]).length,
    p50: percentile(ms, 50),
    p99: percentile(ms, 99),
    p99Rounds: [Math.min(...p99s), Math.max(...p99s)],
    p99ByRound: p99s,
    cpuMs: percentile(cpus, 50),
    cpuRounds: [Math.min(...cpus), Math.max(...cpus)],
    rssMb: Math.max(...rounds.map((r) => r.rssMb)),
    harnessCpuMs: percentile(
      rounds.map((r) => r.harnessCpuMs),
      50,
    ),
    vendorCallsPerCommand: rounds.reduce((a, r) => a + r.vendorCalls, 0) / samples.length,
    replies: rounds.reduce((a, r) => a + r.replies, 0),
  };
}

/** `requests` overrides the plan's requests per round (more for cheap acks, so CPU ticks add up). */
export type PeerCell = { kind: PeerKind; concurrency: number; requests?: number };
export type PeerPlan = { cells: PeerCell[]; rounds: number; requestsPerRound: number };

/** Round r starts with the r-th target, so each one takes every place in the order as often. */
export const turns = <T>(targets: T[], round: number): T[] =>
  targets.map((_, i) => targets[(i + round) % targets.length] as T);

export async function comparePeers(
  stack: Services,
  targets: Served[],
  plan: PeerPlan,
  log: (line: string) => void,
): Promise<PeerRow[]> {
  const idle = new Map<Served, number>();
  for (const target of targets) {
    await runLoadInThread(await requestsFor(stack, target, "command", WARMUP), 1);
    idle.set(target, await idleRate(target));
  }
  const rows: PeerRow[] = [];
  for (const cell of plan.cells) {
    const rounds = new Map<Served, Round[]>(targets.map((t) => [t, []]));
    for (let r = 0; r < plan.rounds; r++)
      for (const target of turns(targets, r))
        rounds
          .get(target)
          ?.push(
            await measure(stack, target, cell, cell.requests ?? plan.requestsPerRound, idle.get(target) ?? 0),
          );
    for (const target of targets) {
      const row = combine(target.id, cell, rounds.get(target) ?? []);
      log(
        `  ${cell.kind.padEnd(8)} ${row.target.padEnd(9)} c=${String(cell.concurrency).padStart(2)} p50 ${row.p50.toFixed(1)} p99 ${row.p99.toFixed(1)} ms (rounds ${row.p99Rounds.map((v) => v.toFixed(0)).join("–")}), CPU ${row.cpuMs.toFixed(2)} ms/cmd, RSS ${row.rssMb.toFixed(0)} MB, vendor ${row.vendorCallsPerCommand.toFixed(2)}/cmd, replies ${row.replies}/${row.requests}`,
      );
      rows.push(row);
    }
  }
  return rows;
}
