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
