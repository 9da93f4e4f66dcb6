/** The worker side of load-thread.ts: sends the requests with bench/load.ts and posts back the samples. */
import { parentPort, workerData } from "node:worker_threads";
import { runLoad } from "../load.ts";
import type { PlainRequest } from "./load-thread.ts";

const { requests, concurrency } = workerData as { requests: PlainRequest[]; concurrency: number };
const samples = await runLoad(requests.length, concurrency, (i) => {
  const r = requests[i] as PlainRequest;
  return new Request(r.url, { method: r.method, headers: r.headers, ...(r.body ? { body: r.body } : {}) });
});
parentPort?.postMessage(samples);
