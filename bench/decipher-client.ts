/**
 * `node bench/decipher-client.ts [rev]`: what one read of the Decipher client costs in CPU, the
 * client of this tree against the one of `rev` (default 5c1c3c9, before it ran on ofetch),
 * in one Node process: each client reads a page of 50 test runs from a fake `fetch` that
 * answers at once, so only the client's own work is timed (the request, the retry hooks, the
 * JSON, the schema check). Rounds alternate between the two, and each prints its median and
 * spread in µs per read. `rev`'s src/decipher/ (or src/vendor/) is taken with `git archive`
 * into a temp directory that shares this tree's node_modules.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const rev = process.argv[2] ?? "5c1c3c9";
const ROUNDS = 9;
const READS = 2_000;

type Client = { listTestRuns(id: number, query?: object): Promise<{ data: unknown[] }> };
type Create = (options: { baseUrl: string; apiKey: string; fetch: typeof fetch }) => Client;

function oldClientDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "decipher-client-"));
  const tree = execFileSync("git", ["ls-tree", "--name-only", rev, "src/"], { cwd: root, encoding: "utf8" });
  const folder = tree.includes("src/decipher") ? "src/decipher" : "src/vendor";
  const tar = execFileSync("git", ["archive", rev, folder, "src/util"], { cwd: root });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
  return path.join(dir, folder);
}

const run = (id: number) => ({
  object: "testRun",
  id,
  testId: 101,
  status: id % 10 === 0 ? "failed" : "passed",
  startTime: "2026-11-28T10:00:00.000Z",
  endTime: "2026-11-28T10:03:00.000Z",
  durationMs: 180_000,
  triggeredBy: "schedule",
  createdAt: "2026-11-28T10:00:00.000Z",
  summary: { oneLineSummary: "Checkout completed", firstFailedStepNumber: null },
  totalSteps: 9,
  failedSteps: 0,
});
const body = JSON.stringify({
  object: "list",
  data: Array.from({ length: 50 }, (_, i) => run(10_000 - i)),
  hasMore: false,
  nextCursor: null,
  test: { id: 101, name: "Checkout flow", url: "https://app.decipher.test/tests/101" },
});
const fakeFetch = (async () =>
  new Response(body, { status: 200, headers: { "content-type": "application/json" } })) as typeof fetch;

async function load(dir: string): Promise<Client> {
  const file = fs.existsSync(path.join(dir, "vendor-client.ts")) ? "vendor-client.ts" : "client.ts";
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { createVendorClient: Create };
  return mod.createVendorClient({
    baseUrl: "https://api.decipher.test",
    apiKey: "dcp_bench",
    fetch: fakeFetch,
  });
}

async function round(client: Client): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < READS; i++) await client.listTestRuns(101, { limit: 50 });
  return ((performance.now() - started) * 1000) / READS;
}

const clients = {
  [rev]: await load(oldClientDir()),
  "this tree": await load(path.join(root, "src/decipher")),
};
for (const client of Object.values(clients)) await round(client); // warm-up
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(clients).map((k) => [k, []]));
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? Object.keys(clients) : Object.keys(clients).reverse();
  for (const name of order) samples[name]?.push(await round(clients[name] as Client));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
console.log(
  `Decipher client, µs per read of 50 runs (no I/O: CPU) (${ROUNDS} rounds of ${READS}, alternating; load ${os.loadavg()[0]?.toFixed(2)})`,
);
for (const [name, xs] of Object.entries(samples))
  console.log(
    `  ${name.padEnd(10)} median ${median(xs).toFixed(1)}  min ${Math.min(...xs).toFixed(1)}  max ${Math.max(...xs).toFixed(1)}`,
  );
