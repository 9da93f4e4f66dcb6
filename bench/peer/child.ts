/** A server the bench starts as a child process: a free port for it, and its lifetime. */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import type { PeerId, Served } from "./served.ts";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * BENCH_SERVER_CPUS (e.g. "1"): servers run on those CPUs only (taskset, which execs the server
 * in the same process), so that with the bench itself pinned elsewhere (`taskset -c 0 npm run
 * bench`) a server's CPU is not taken by the load generator, the emulator or the stand-in.
 */
export function onServerCpus(cmd: string, args: string[]): [string, string[]] {
  const cpus = process.env.BENCH_SERVER_CPUS;
  return cpus ? ["taskset", ["-c", cpus, cmd, ...args]] : [cmd, args];
}

/** The child as a `Served`: killed with the bench if not stopped before; stop() waits for its exit. */
export function servedChild(id: PeerId, url: string, child: ChildProcess): Served {
  const onExit = () => child.kill("SIGKILL");
  process.once("exit", onExit);
  return {
    id,
    url,
    pids: () => (child.exitCode === null && child.pid ? [child.pid] : []),
    stop: async () => {
      process.off("exit", onExit);
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
