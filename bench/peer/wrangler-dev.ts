/**
 * The processes behind `wrangler dev` (dev/stack.ts): wrangler's Node processes, esbuild, and two
 * workerd processes — the dev proxy, which owns the port the bot is reached on, and the one that
 * runs the Worker. CPU and memory of "ours under wrangler dev" are summed over all of them.
 */
import { readFileSync } from "node:fs";
import type { Stack } from "../../dev/stack.ts";
import { groupOf } from "./procs.ts";
import type { Served } from "./served.ts";

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
};

export function wranglerProcesses(stack: Stack) {
  const any = stack.workerdPid();
  if (!any) throw new Error("no workerd process found for wrangler dev");
  const group = groupOf(any);
  const entry = `--socket-addr=entry=${new URL(stack.botUrl).host}`;
  const workerds = group.filter((p) => p.comm === "workerd");
  const proxy = workerds.find((p) => cmdline(p.pid).includes(entry))?.pid;
  const worker = workerds.find((p) => p.pid !== proxy)?.pid;
  if (!worker) throw new Error("cannot tell wrangler dev's Worker process from its proxy");
  return { all: group.map((p) => p.pid), worker, proxy };
}

export function wranglerDev(stack: Stack): Served {
  const { all } = wranglerProcesses(stack);
  return { id: "wrangler", url: stack.botUrl, pids: () => all, stop: async () => {} };
}
