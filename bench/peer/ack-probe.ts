/**
 * A quick look at one cell of the edge comparison (bench/peer/edge.ts) while working on the ack
 * path: `/decipher help` CPU per ack and latency, ours (this checkout's build) against the
 * Hono floor, Bolt and optionally a build of a git revision, taking turns over a few rounds.
 * Prints only; the figures that count come from `npm run bench`.
 *   node bench/peer/ack-probe.ts [concurrency=1] [requests per round=300] [rounds=5] [git rev]
 */
import { type Build, buildWorker, buildWorkerAt } from "../build.ts";
import { bundleBolt } from "./bolt-bundle.ts";
import { startBolt } from "./bolt-process.ts";
import { comparePeers } from "./compare.ts";
import { bundleHonoEcho } from "./hono-echo-bundle.ts";
import type { Served } from "./served.ts";
import { startServices } from "./services.ts";
import { startWorkerdServe } from "./workerd-serve.ts";

process.env.WRANGLER_SEND_METRICS = "false";
const [conc = "1", requests = "300", rounds = "5", rev] = process.argv.slice(2);
const services = await startServices();
const builds: Build[] = [];
const servers: Served[] = [];
try {
  const ours = await buildWorker();
  builds.push(ours);
  servers.push(await startWorkerdServe(ours.dir, services.vars, "workerd-serve"));
  if (rev) {
    const base = await buildWorkerAt(rev);
    builds.push(base);
    servers.push(await startWorkerdServe(base.dir, services.vars, "workerd-serve-base"));
  }
  const floor = await bundleHonoEcho();
  builds.push(floor);
  servers.push(await startWorkerdServe(floor.dir, services.vars, "hono-floor"));
  if (process.env.PROBE_BOLT !== "0") {
    const bolt = await bundleBolt();
    builds.push({ ...bolt, dir: "" });
    servers.push(
      await startBolt(bolt.file, {
        signingSecret: services.signingSecret,
        botToken: services.botToken,
        slackApiUrl: services.vars.SLACK_API_URL,
        emulatorUrl: services.emulatorUrl,
        apiKey: services.apiKey,
      }),
    );
  }
  const { loadavg } = await import("node:os");
  console.log(
    `load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(" / ")}`,
  );
  const rows = await comparePeers(
    services,
    servers,
    {
      cells: [{ kind: "help", concurrency: Number(conc), requests: Number(requests) }],
      rounds: Number(rounds),
      requestsPerRound: Number(requests),
    },
    console.log,
  );
  for (const row of rows)
    console.log(
      `${row.target.padEnd(20)} CPU ${row.cpuMs.toFixed(3)} (${row.cpuRounds.map((v) => v.toFixed(2)).join("–")}) p50 ${row.p50.toFixed(2)}`,
    );
} finally {
  for (const s of servers) await s.stop().catch(() => {});
  await services.stop();
  for (const b of builds) b.remove();
}
