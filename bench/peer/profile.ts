/**
 * Diagnostic, not part of `npm run bench`: where the Worker's CPU goes on workerd under a burst.
 * Serves the build through Miniflare with an inspector, samples V8's CPU profiler while
 * bench/load.ts sends one kind of request, and prints self time by bundled module (the bundle's
 * `// path` comments) plus what V8 could not attribute to JS (GC, program, idle).
 * Usage: node bench/peer/profile.ts [command|ack-only] [concurrency] [requests]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startStack } from "../../dev/stack.ts";
import { buildWorker } from "../build.ts";
import { commandRequest } from "../slack-requests.ts";
import { freePort } from "./child.ts";
import { runLoadInThread } from "./load-thread.ts";
import { startWorkerd } from "./workerd-direct.ts";

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [kind = "ack-only", conc = "50", count = "300"] = process.argv.slice(2);

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

/** Module of each bundle line, from esbuild's `// path` comments. */
function moduleOfLine(bundle: string): (line: number) => string {
  const starts: Array<[number, string]> = [];
  bundle.split("\n").forEach((text, i) => {
    const m = /^\/\/ ((?:node_modules|src)\/\S+)/.exec(text);
    if (m?.[1]) starts.push([i, m[1].replace(/^node_modules\//, "").replace(/\/dist\/.*$|\/[^/]*$/, "")]);
  });
  return (line) => {
    let found = "(bundle preamble)";
    for (const [start, name] of starts) if (start <= line) found = name;
    return found;
  };
}

const build = await buildWorker();
const stack = await startStack({
  ports: { bot: 0, emulator: 0, slack: 0 },
  cronIntervalMs: null,
  quiet: true,
  persistTo: ".wrangler/bench-profile",
});
const inspectorPort = await freePort();
try {
  const served = await startWorkerd(
    build.dir,
    {
      DECIPHER_API_URL: stack.emulatorUrl,
      DECIPHER_API_KEY: stack.apiKey,
      SLACK_API_URL: `${stack.slackUrl}/api/`,
      SLACK_SIGNING_SECRET: stack.signingSecret,
      SLACK_BOT_TOKEN: stack.botToken,
    },
    inspectorPort,
  );
  const make = () =>
    Promise.all(
      Array.from({ length: Number(count) }, () =>
        commandRequest(
          { ...stack, botUrl: served.url },
          "/sessions",
          kind === "command" ? "jane@acme.com" : "",
        ),
      ),
    );
  await runLoadInThread(await make(), 1); // warm-up
  const requests = await make();
  const insp = await inspect(inspectorPort);
  await insp.send("Profiler.enable");
  await insp.send("Profiler.setSamplingInterval", { interval: 200 });
  await insp.send("Profiler.start");
  await runLoadInThread(requests, Number(conc));
  await new Promise((r) => setTimeout(r, 1500)); // lazy halves
  const { profile } = (await insp.send("Profiler.stop")) as { profile: Profile };
  insp.close();
  const moduleOf = moduleOfLine(readFileSync(join(build.dir, "index.js"), "utf8"));
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((nodeId, i) => {
    const f = byNode.get(nodeId)?.callFrame;
    const key = !f
      ? "?"
      : f.url.endsWith("index.js")
        ? moduleOf(f.lineNumber)
        : `(${f.functionName || f.url || "native"})`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const total = [...self.entries()].filter(([k]) => k !== "((idle))").reduce((a, [, v]) => a + v, 0);
  console.log(
    `${insp.title}: ${kind} × ${count} at ${conc} in flight; ${total.toFixed(0)} ms of samples not idle`,
  );
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(v / Number(count)).toFixed(3).padStart(8)} ms/request  ${k}`);
  if (process.env.FUNCS) {
    const fn = new Map<string, number>();
    profile.samples.forEach((nodeId, i) => {
      const f = byNode.get(nodeId)?.callFrame;
      if (!f?.url.endsWith("index.js")) return;
      const key = `${moduleOf(f.lineNumber)} ${f.functionName || "(anonymous)"}:${f.lineNumber}`;
      fn.set(key, (fn.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    for (const [k, v] of [...fn.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
      console.log(`${(v / Number(count)).toFixed(3).padStart(8)} ms/request  ${k}`);
  }
  await served.stop();
} finally {
  await stack.stop();
  build.remove();
}
