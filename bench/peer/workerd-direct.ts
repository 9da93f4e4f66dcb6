/**
 * The built Worker served straight from workerd through Miniflare (the package wrangler uses
 * underneath), without `wrangler dev`'s proxy: a request goes from the socket to Miniflare's
 * entry worker and on to ours, all inside one workerd process.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare, NoOpLog } from "miniflare";
import { ROOT } from "../../dev/stack.ts";
import { freePort } from "./child.ts";
import { childrenNamed } from "./procs.ts";
import type { Served } from "./served.ts";

export type WorkerVars = {
  DECIPHER_API_URL: string;
  DECIPHER_API_KEY: string;
  SLACK_API_URL: string;
  SLACK_SIGNING_SECRET: string;
  SLACK_BOT_TOKEN: string;
};

export function compatibilityDate(): string {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1];
  if (!date) throw new Error("no compatibility_date in wrangler.toml");
  return date;
}

/** wrangler.toml's `compatibility_flags`, for the Worker wherever the bench serves it. */
export function compatibilityFlags(): string[] {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const list = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  return [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1] as string);
}

/** Serves `<buildDir>/index.js` with the KV binding and vars the Worker reads. */
/** `inspectorPort` only for bench/peer/profile.ts: an attached inspector costs CPU. */
export async function startWorkerd(
  buildDir: string,
  vars: WorkerVars,
  inspectorPort?: number,
): Promise<Served> {
  const before = new Set(childrenNamed(process.pid, "workerd"));
  // Miniflare 5 takes v4-style options through its converter (which also leaves the dev registry off).
  const options = convertV4MiniflareOptions({
    modules: true,
    scriptPath: join(buildDir, "index.js"),
    modulesRoot: buildDir,
    compatibilityDate: compatibilityDate(),
    compatibilityFlags: compatibilityFlags(),
    kvNamespaces: ["STATE"],
    bindings: { DECIPHER_APP_URL: "https://app.getdecipher.com", ADMIN_USER_IDS: "", ...vars },
    host: "127.0.0.1",
    port: await freePort(),
    log: new NoOpLog(),
    ...(inspectorPort ? { inspectorPort } : {}),
  });
  const mf = new Miniflare(options);
  const url = (await mf.ready).origin;
  const pids = childrenNamed(process.pid, "workerd").filter((p) => !before.has(p));
  if (pids.length === 0) throw new Error("no workerd child process found for Miniflare");
  return { id: "workerd", url, pids: () => pids, stop: () => mf.dispose() };
}
