/**
 * The same signed `/sessions` load, in the same run, against each server under test, at each
 * concurrency: ack latency, CPU per command (ack + vendor calls + response_url reply, net of
 * the processes' idle CPU), memory, and a check that every command made the same vendor calls
 * and delivered its reply.
 */
import type { Stack } from "../../dev/stack.ts";
import { cpuMs, settle } from "../cpu.ts";
import { runLoad, sleep, summarize } from "../load.ts";
import { commandRequest } from "../slack-requests.ts";
import { rssKb } from "./procs.ts";
import type { Served } from "./served.ts";

export type PeerRow = {
  target: string;
  concurrency: number;
  requests: number;
  non2xx: number;
  p50: number;
  p99: number;
  /** CPU ms per command over all of the target's processes, net of their idle CPU. */
  cpuMs: number;
  rssMb: number;
  vendorCallsPerCommand: number;
  replies: number;
};

const IDLE_WINDOW_MS = 3000;
const WARMUP = 20;
const CHANNEL = "C0ALERTS";

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  return (await res.json()) as T;
}

const vendorTotal = (stack: Stack) =>
  json<{ total: number }>(`${stack.emulatorUrl}/__emulator/requests?apiKey=${encodeURIComponent(stack.apiKey)}`).then(
    (b) => b.total,
  );

/** Ephemeral replies posted through response_url since the stand-in's workspace was last reset. */
async function replyCount(stack: Stack): Promise<number> {
  const q = new URLSearchParams({ botToken: stack.botToken, channel: CHANNEL });
  const body = await json<{ messages: Array<{ via?: string }> }>(`${stack.slackUrl}/__slack/messages?${q}`);
  return body.messages.filter((m) => m.via === "response_url").length;
}

const resetSlack = (stack: Stack) =>
  json(`${stack.slackUrl}/__slack/reset`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ botToken: stack.botToken }),
  });

const commands = (stack: Stack, target: Served, n: number) =>
  Promise.all(
    Array.from({ length: n }, () => commandRequest({ ...stack, botUrl: target.url }, "/sessions", "jane@acme.com")),
  );

/** CPU ms per second the target's processes use when nothing is sent (timers, pings). */
async function idleRate(target: Served): Promise<number> {
  await settle(target.pids());
  const before = cpuMs(target.pids());
  await sleep(IDLE_WINDOW_MS);
  return ((cpuMs(target.pids()) - before) * 1000) / IDLE_WINDOW_MS;
}

async function measure(stack: Stack, target: Served, concurrency: number, n: number, idle: number) {
  await resetSlack(stack);
  const requests = await commands(stack, target, n);
  const pids = target.pids();
  await settle(pids);
  const cpuBefore = cpuMs(pids);
  const vendorBefore = await vendorTotal(stack);
  const started = performance.now();
  const samples = await runLoad(n, concurrency, (i) => requests[i] as Request);
  await settle(pids); // the lazy halves (vendor calls, reply) are done when the processes go quiet
  const elapsedS = (performance.now() - started) / 1000;
  const cpu = cpuMs(pids) - cpuBefore - idle * elapsedS;
  const { p50, p99, non2xx } = summarize(samples);
  return {
    target: target.name,
    concurrency,
    requests: n,
    non2xx,
    p50,
    p99,
    cpuMs: cpu / n,
    rssMb: rssKb(pids) / 1024,
    vendorCallsPerCommand: ((await vendorTotal(stack)) - vendorBefore) / n,
    replies: await replyCount(stack),
  } satisfies PeerRow;
}

export async function comparePeers(
  stack: Stack,
  targets: Served[],
  concurrencies: number[],
  n: number,
  log: (line: string) => void,
): Promise<PeerRow[]> {
  const idle = new Map<Served, number>();
  for (const target of targets) {
    const warm = await commands(stack, target, WARMUP);
    await runLoad(WARMUP, 1, (i) => warm[i] as Request);
    idle.set(target, await idleRate(target));
  }
  const rows: PeerRow[] = [];
  for (const concurrency of concurrencies) {
    for (const target of targets) {
      const row = await measure(stack, target, concurrency, n, idle.get(target) ?? 0);
      log(
        `  ${row.target.padEnd(30)} c=${String(concurrency).padStart(2)} p50 ${row.p50.toFixed(1)} p99 ${row.p99.toFixed(1)} ms, CPU ${row.cpuMs.toFixed(2)} ms/cmd, RSS ${row.rssMb.toFixed(0)} MB, vendor ${row.vendorCallsPerCommand.toFixed(2)}/cmd, replies ${row.replies}/${n}`,
      );
      rows.push(row);
    }
  }
  return rows;
}
