/**
 * bench/load.ts's load generator in a worker thread: its clock and its event loop are then not
 * shared with the emulator and the Slack stand-in, which run in the bench's main thread and
 * serve the servers' vendor calls and replies while the acks are being timed.
 */
import { Worker } from "node:worker_threads";
import type { Sample } from "../load.ts";

export type PlainRequest = { url: string; method: string; headers: [string, string][]; body: string };

export async function runLoadInThread(requests: Request[], concurrency: number): Promise<Sample[]> {
  const plain: PlainRequest[] = await Promise.all(
    requests.map(async (r) => ({
      url: r.url,
      method: r.method,
      headers: [...r.headers],
      body: await r.text(),
    })),
  );
  const worker = new Worker(new URL("./load-thread-worker.ts", import.meta.url), {
    workerData: { requests: plain, concurrency },
  });
  try {
    return await new Promise<Sample[]>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
      worker.once("exit", (code) => reject(new Error(`load thread exited (${code}) before answering`)));
    });
  } finally {
    await worker.terminate();
  }
}
