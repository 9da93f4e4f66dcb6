/**
 * Cold start: from spawning a server's process to its first 200 for a signed `/decipher help`
 * (so the first request's own work counts: for ours the isolate's first `auth.test`, the
 * compile of the bundle and the once-per-isolate set-up), split at the first HTTP answer of
 * any kind (the process listens and has loaded its code: a 404 from its router). Every repetition is a fresh process,
 * and the servers take turns, like the load cells.
 */
import type { ChildProcess } from "node:child_process";
import { sleep } from "../load.ts";
import { commandRequest } from "../slack-requests.ts";
import type { Services } from "./compare.ts";
import type { PeerId } from "./served.ts";

export type Spawner = { id: PeerId; spawn(): Promise<{ child: ChildProcess; url: string }> };

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(5000)]);
  if (child.exitCode === null) child.kill("SIGKILL");
}

/** One cold start: ms from spawning to the first HTTP answer of any kind, and to the first 200. */
export type ColdStart = { upMs: number; firstOkMs: number };

async function once(services: Services, spawner: Spawner, timeoutMs: number): Promise<ColdStart> {
  // Signed before the clock starts, with a response_url from the stand-in, like a real command.
  const template = await commandRequest({ ...services, botUrl: "http://127.0.0.1:1" }, "/decipher", "help");
  const body = await template.text();
  const headers = [...template.headers];
  const started = performance.now();
  const { child, url } = await spawner.spawn();
  const within = () => performance.now() - started < timeoutMs;
  try {
    // Up: the process listens and its code is loaded (a 404 for a path no server routes; no Slack code).
    let upMs = Number.NaN;
    while (within() && Number.isNaN(upMs)) {
      const status = await fetch(`${url}/__cold-start`).then(
        (r) => r.arrayBuffer().then(() => r.status),
        () => 0,
      );
      if (status !== 0) upMs = performance.now() - started;
      else if (child.exitCode !== null) throw new Error(`${spawner.id} exited before answering`);
      else await sleep(2);
    }
    while (within()) {
      const status = await fetch(`${url}/slack/events`, { method: "POST", headers, body }).then(
        (r) => r.arrayBuffer().then(() => r.status),
        () => 0,
      );
      if (status === 200) return { upMs, firstOkMs: performance.now() - started };
      if (child.exitCode !== null) throw new Error(`${spawner.id} exited before answering`);
      await sleep(10);
    }
    throw new Error(`${spawner.id}: no 200 within ${timeoutMs} ms`);
  } finally {
    await stop(child);
  }
}

/** `reps` cold starts of each server, interleaved, in order. */
export async function coldStarts(
  services: Services,
  spawners: Spawner[],
  reps: number,
  timeoutMs = 20_000,
): Promise<Map<PeerId, ColdStart[]>> {
  const out = new Map<PeerId, ColdStart[]>(spawners.map((s) => [s.id, []]));
  for (let r = 0; r < reps; r++)
    for (const spawner of spawners) out.get(spawner.id)?.push(await once(services, spawner, timeoutMs));
  return out;
}
