import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { sleep } from "./load.ts";

/**
 * CPU time of a process from /proc/<pid>/stat: utime + stime (fields 14 and 15, all threads),
 * in clock ticks of 1/CLK_TCK s. Linux only.
 */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** One process, or several whose CPU is summed (e.g. wrangler and its workerd). */
export type Pids = number | number[];

export function cpuMs(pids: Pids): number {
  let ms = 0;
  for (const pid of typeof pids === "number" ? [pids] : pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the comm field: index 0 is field 3 (state), so utime (14) is index 11, stime (15) index 12.
    ms += ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  }
  return ms;
}

export const tickMs = 1000 / CLK_TCK;

/** Waits until the process has used no CPU for `quietMs` (background work finished), at most `maxMs`. */
export async function settle(pid: Pids, quietMs = 400, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = cpuMs(pid);
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    await sleep(100);
    const now = cpuMs(pid);
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= quietMs) return;
  }
}

/** CPU ms the process spent on `work`, measured after it went quiet on both sides. */
export async function cpuOf(pid: Pids, work: () => Promise<void>): Promise<number> {
  await settle(pid);
  const before = cpuMs(pid);
  await work();
  await settle(pid);
  return cpuMs(pid) - before;
}
