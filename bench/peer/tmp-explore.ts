import { startStack } from "../../dev/stack.ts";
import { buildWorker } from "../build.ts";
import { peerBenchmark } from "./peers.ts";
process.env.WRANGLER_SEND_METRICS = "false";
const t0 = Date.now();
const build = await buildWorker();
const stack = await startStack({ ports: { bot: 0, emulator: 0, slack: 0 }, cronIntervalMs: null, quiet: true, persistTo: ".wrangler/bench-x" });
try {
  const f = await peerBenchmark(stack, build.dir, Number(process.env.N ?? 100));
  console.log(f.bolt, build.gzipBytes, (Date.now() - t0) / 1000);
} finally { await stack.stop(); build.remove(); }
