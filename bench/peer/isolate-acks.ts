/**
 * CPU per `/decipher help` ack inside workerd, without HTTP: each Worker is bundled into
 * bench/peer/isolate-harness.ts and served on a bare `workerd serve`; one request there runs
 * `n` acks in a row, so the socket, the HTTP parser and the event loop's turns, which are most
 * of an ack's cost end to end and the same for every Worker, drop out. What is left is the
 * Worker's own JavaScript and the platform calls it makes. The targets take turns, round after
 * round; the harness's own share (building and reading the requests) is measured alike and
 * subtracted. CPU is workerd's, from /proc (bench/cpu.ts). Prints only.
 *   node bench/peer/isolate-acks.ts [acks per request=1000] [requests per round=4] [rounds=9] [name=entry[:objects] | name=@rev …]
 * Without targets: ours (src/index.ts, with its Durable Object classes), the Hono floor, and the
 * floor answering with ours' help (bench/peer/hono-floor-help.ts).
 * `@rev` is the Worker at a git revision (its src/ against today's node_modules).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../../dev/stack.ts";
import { cpuMs, settle } from "../cpu.ts";
import type { Served } from "./served.ts";
import { startServices } from "./services.ts";
import { startWorkerdServe } from "./workerd-serve.ts";

process.env.WRANGLER_SEND_METRICS = "false";
const [acks = "1000", perRound = "4", rounds = "9", ...named] = process.argv.slice(2);
const targets: Array<[string, string]> = named.length
  ? named.map((t) => [t.slice(0, t.indexOf("=")), t.slice(t.indexOf("=") + 1)])
  : [
      ["ours", "src/index.ts:src/index.ts"],
      ["floor", "bench/peer/hono-echo.ts"],
      ["floor-help", "bench/peer/hono-floor-help.ts"],
    ];

const NO_OBJECTS = "data:text/javascript,export {}";

async function bundle(entry: string, objects: string | undefined): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "decipher-bench-isolate-"));
  const result = await build({
    entryPoints: [join(ROOT, "bench/peer/isolate-harness.ts")],
    bundle: true,
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["module", "main"],
    format: "esm",
    minify: true,
    write: false,
    logLevel: "silent",
    external: ["cloudflare:*", "node:*"],
    alias: {
      "bench-target": resolve(ROOT, entry),
      "bench-target-objects": objects ? resolve(ROOT, objects) : NO_OBJECTS,
    },
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${entry}`);
  writeFileSync(join(dir, "index.js"), code);
  return dir;
}

/** A revision's src/ and package.json, inside node_modules so its imports resolve to today's packages. */
function checkout(rev: string): string {
  const dir = join(ROOT, "node_modules/.cache/decipher-bench-isolate", rev);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tar = execFileSync("git", ["archive", rev, "src", "package.json"], { cwd: ROOT, maxBuffer: 1 << 28 });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  return dir;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

const services = await startServices();
const servers: Array<{ name: string; served: Served; dir: string }> = [];
try {
  for (const [name, spec] of targets) {
    const at = spec.startsWith("@") ? join(checkout(spec.slice(1)), "src/index.ts") : null;
    const [entry = "", objects] = at ? [at, at] : spec.split(":");
    const dir = await bundle(entry, objects);
    servers.push({ name, served: await startWorkerdServe(dir, services.vars, "workerd-serve"), dir });
  }
  const first = servers[0];
  if (!first) throw new Error("no target");
  const cells = [...servers.map((s) => ({ ...s, only: false })), { ...first, name: "harness", only: true }];
  const perAck = new Map<string, number[]>(cells.map((c) => [c.name, []]));
  const run = async (cell: (typeof cells)[number], n: number) => {
    const res = await fetch(`${cell.served.url}/acks?n=${n}${cell.only ? "&only=1" : ""}`);
    const text = await res.text();
    if (!res.ok) throw new Error(`${cell.name}: ${text}`);
  };
  for (const cell of cells) await run(cell, 200); // warm: the isolate, auth.test, the JIT
  for (let round = 0; round < Number(rounds); round++) {
    // Who goes first rotates, so a slow stretch of the box falls on each in turn.
    const order = cells.map((_, i) => cells[(i + round) % cells.length] as (typeof cells)[number]);
    for (const cell of order) {
      const pids = cell.served.pids();
      await settle(pids);
      const before = cpuMs(pids);
      for (let r = 0; r < Number(perRound); r++) await run(cell, Number(acks));
      await settle(pids, 300);
      perAck.get(cell.name)?.push(((cpuMs(pids) - before) * 1000) / (Number(acks) * Number(perRound)));
    }
  }
  const harness = median(perAck.get("harness") ?? []);
  const { loadavg } = await import("node:os");
  console.log(
    `load average ${loadavg()[0]?.toFixed(2)}; µs of workerd CPU per ack, ${rounds} rounds of ${Number(acks) * Number(perRound)}`,
  );
  for (const [name, values] of perAck) {
    const m = median(values);
    const net = name === "harness" ? "" : `, net of the harness ${(m - harness).toFixed(0)}`;
    console.log(
      `${name.padEnd(12)} median ${m.toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})${net}`,
    );
  }
} finally {
  for (const s of servers) {
    await s.served.stop().catch(() => {});
    rmSync(s.dir, { recursive: true, force: true });
  }
  await services.stop();
}
