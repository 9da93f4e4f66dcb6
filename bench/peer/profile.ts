/**
 * Where the Worker's CPU goes on workerd: serves a build on a bare `workerd serve` (as the edge
 * comparison does) with an inspector, samples V8's CPU profiler while bench/load.ts sends one kind of request, and
 * reports self time by bundled module (the bundle's `// path` comments), by function, and what
 * V8 could not attribute to JS (GC, program, idle). bench/peer/edge.ts runs it on the build
 * before and after; by hand:
 *   node bench/peer/profile.ts [help|command|ack-only] [concurrency] [requests] [git rev]
 * (PROFILE_FLOOR=1: the Hono floor of bench/peer/hono-echo.ts instead of ours.)
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { join } from "node:path";
import { type Build, buildWorker, buildWorkerAt } from "../build.ts";
import { commandRequest } from "../slack-requests.ts";
import { freePort } from "./child.ts";
import type { PeerKind, Services } from "./compare.ts";
import { bundleHonoEcho } from "./hono-echo-bundle.ts";
import { runLoadInThread } from "./load-thread.ts";
import { startServices } from "./services.ts";
import type { WorkerVars } from "./workerd-direct.ts";
import { startWorkerdServe } from "./workerd-serve.ts";

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Self time per request (ms) of the heaviest items, heaviest first. */
export type ProfileResult = {
  title: string;
  /** All samples that were not idle, per request. */
  busyMs: number;
  modules: Array<[string, number]>;
  functions: Array<[string, number]>;
};

async function inspect(port: number) {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as Array<{
    title: string;
    webSocketDebuggerUrl: string;
  }>;
  const target = targets.find((t) => !t.title.startsWith("core:")) ?? targets[0];
  if (!target) throw new Error("no inspector target");
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r, j) => {
    ws.onopen = r;
    ws.onerror = j;
  });
  let id = 0;
  const pending = new Map<number, (v: unknown) => void>();
  ws.onmessage = (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
    if (msg.id !== undefined) pending.get(msg.id)?.(msg.result);
  };
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      pending.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { title: target.title, send, close: () => ws.close() };
}

/** A package name, or a path under src/, from a source path as esbuild writes it into the map. */
export function moduleName(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
    source.slice(source.lastIndexOf("node_modules/") - 1),
  );
  if (pkg?.[1]) return pkg[1];
  const src = source.lastIndexOf("/src/");
  return src >= 0 ? source.slice(src + 1) : source;
}

/**
 * Where a position of the (minified) bundle comes from, through the source map wrangler writes
 * beside it: the module, and the function as `name (file:line)`.
 */
function locator(buildDir: string): (line: number, column: number, minified: string) => [string, string] {
  const mapFile = join(buildDir, "index.js.map");
  const map = existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, "utf8"))) : null;
  return (line, column, minified) => {
    const entry = map?.findEntry(line, column) as
      | { originalSource?: string; originalLine?: number; name?: string }
      | undefined;
    if (!entry?.originalSource) return ["(bundle)", minified || "(anonymous)"];
    const module = moduleName(entry.originalSource);
    const file = entry.originalSource.split("/").slice(-1)[0];
    return [
      module,
      `${entry.name ?? minified ?? "(anonymous)"} (${module === file ? "" : `${module} `}${file}:${(entry.originalLine ?? 0) + 1})`,
    ];
  };
}

const top = (m: Map<string, number>, per: number, n: number): Array<[string, number]> =>
  [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => [k, v / per]);

export async function profileWorker(
  buildDir: string,
  services: Services,
  vars: WorkerVars,
  kind: PeerKind,
  concurrency: number,
  count: number,
  topN = 12,
): Promise<ProfileResult> {
  const inspectorPort = await freePort();
  const served = await startWorkerdServe(buildDir, vars, "workerd-serve", 20_000, inspectorPort);
  try {
    const make = () =>
      Promise.all(
        Array.from({ length: count }, () =>
          commandRequest(
            { ...services, botUrl: served.url },
            kind === "help" ? "/decipher" : "/sessions",
            kind === "help" ? "help" : kind === "command" ? "jane@acme.com" : "",
          ),
        ),
      );
    await runLoadInThread(await make(), 1); // warm-up
    const requests = await make();
    const insp = await inspect(inspectorPort);
    await insp.send("Profiler.enable");
    await insp.send("Profiler.setSamplingInterval", { interval: 200 });
    await insp.send("Profiler.start");
    await runLoadInThread(requests, concurrency);
    await new Promise((r) => setTimeout(r, 1500)); // lazy halves
    const { profile } = (await insp.send("Profiler.stop")) as { profile: Profile };
    insp.close();
    if (process.env.PROFILE_DUMP) writeFileSync(process.env.PROFILE_DUMP, JSON.stringify(profile));
    const locate = locator(buildDir);
    const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
    const modules = new Map<string, number>();
    const functions = new Map<string, number>();
    profile.samples.forEach((nodeId, i) => {
      const f = byNode.get(nodeId)?.callFrame;
      const ms = (profile.timeDeltas[i] ?? 0) / 1000;
      const inBundle = f?.url.endsWith("index.js") ?? false;
      const [module, fn] =
        f && inBundle
          ? locate(f.lineNumber, f.columnNumber, f.functionName)
          : [`(${f?.functionName || f?.url || "native"})`, ""];
      modules.set(module, (modules.get(module) ?? 0) + ms);
      if (fn) functions.set(fn, (functions.get(fn) ?? 0) + ms);
    });
    modules.delete("((idle))");
    const busy = [...modules.values()].reduce((a, v) => a + v, 0);
    return {
      title: insp.title,
      busyMs: busy / count,
      modules: top(modules, count, topN),
      functions: top(functions, count, topN),
    };
  } finally {
    await served.stop();
  }
}

const isMain = process.argv[1]?.endsWith("profile.ts");
if (isMain) {
  const [kind = "help", conc = "50", count = "300", rev] = process.argv.slice(2);
  const build: Build =
    process.env.PROFILE_FLOOR === "1"
      ? await bundleHonoEcho()
      : rev
        ? await buildWorkerAt(rev)
        : await buildWorker();
  const services = await startServices();
  try {
    const r = await profileWorker(
      build.dir,
      services,
      services.vars,
      kind as PeerKind,
      Number(conc),
      Number(count),
    );
    console.log(
      `${r.title}: ${kind} × ${count} at ${conc} in flight; ${r.busyMs.toFixed(3)} ms/request not idle`,
    );
    for (const [k, v] of r.modules) console.log(`${v.toFixed(3).padStart(8)} ms/request  ${k}`);
    console.log("");
    for (const [k, v] of r.functions) console.log(`${v.toFixed(3).padStart(8)} ms/request  ${k}`);
  } finally {
    await services.stop();
    build.remove();
  }
}
