/** Finding processes and reading their memory, from Linux /proc. */
import { readdirSync, readFileSync } from "node:fs";

type Proc = { pid: number; comm: string; ppid: number; pgid: number };

function proc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const close = stat.lastIndexOf(")");
    const fields = stat.slice(close + 2).split(" ");
    return {
      pid,
      comm: stat.slice(stat.indexOf("(") + 1, close),
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
    };
  } catch {
    return null; // ended meanwhile
  }
}

function all(): Proc[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map((n) => proc(Number(n)))
    .filter((p): p is Proc => p !== null);
}

/** Every process in the process group of `pid` (wrangler dev: its Node process and workerd). */
export function groupOf(pid: number): Proc[] {
  const pgid = proc(pid)?.pgid;
  return pgid === undefined ? [] : all().filter((p) => p.pgid === pgid);
}

/** Direct children of `ppid` named `comm`. */
export function childrenNamed(ppid: number, comm: string): number[] {
  return all()
    .filter((p) => p.ppid === ppid && p.comm === comm)
    .map((p) => p.pid);
}

/** Resident set size in KB (`VmRSS`), summed over the processes. */
export function rssKb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kb;
}
