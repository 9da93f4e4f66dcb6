/**
 * A built Worker on a bare `workerd serve` (the binary wrangler and Miniflare run), with a
 * config written here: no dev proxy and no Miniflare entry worker in front, so a request goes
 * from the socket straight to the Worker. KV is a stub service that answers 500: the requests the
 * bench sends never touch KV (their vendor-call and reply counts would show it if they did).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { bin } from "../exec.ts";
import { freePort, onServerCpus, servedChild } from "./child.ts";
import type { PeerId, Served } from "./served.ts";
import { compatibilityDate, compatibilityFlags } from "./workerd-direct.ts";

function config(port: number, vars: Record<string, string>): string {
  const text = (s: string) => JSON.stringify(s); // a Cap'n Proto text literal, for plain ASCII
  const bindings = Object.entries(vars).map(([k, v]) => `(name = ${text(k)}, text = ${text(v)})`);
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "kv-stub", worker = (compatibilityDate = ${text(compatibilityDate())}, modules = [(name = "kv.js", esModule = "export default { fetch() { return new Response('no KV in this bench', { status: 500 }) } }")])),
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${text(compatibilityDate())},
  compatibilityFlags = [${compatibilityFlags().map(text).join(", ")}],
  bindings = [(name = "STATE", kvNamespace = "kv-stub"), ${bindings.join(", ")}],
  globalOutbound = "net",
);
`;
}

/**
 * Writes the config for `<buildDir>/index.js` and starts workerd on it, without waiting for it.
 * `inspectorPort` only for bench/peer/profile.ts: an attached inspector costs CPU.
 */
export async function spawnWorkerdServe(
  buildDir: string,
  vars: Record<string, string>,
  inspectorPort?: number,
): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const file = join(buildDir, `bench-workerd-${port}.capnp`);
  writeFileSync(
    file,
    config(port, { DECIPHER_APP_URL: "https://app.getdecipher.com", ADMIN_USER_IDS: "", ...vars }),
  );
  const inspector = inspectorPort ? [`--inspector-addr=127.0.0.1:${inspectorPort}`] : [];
  const child = spawn(
    ...onServerCpus(bin("workerd", "bin/workerd"), ["serve", file, "--experimental", ...inspector]),
    {
      stdio: "ignore",
    },
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

/** Polls until `ready()` says yes; false if the child exited or the time ran out first. */
export async function waitUntil(
  child: ChildProcess,
  ready: () => Promise<boolean>,
  timeoutMs: number,
  pollMs = 100,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    if (child.exitCode !== null || Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  return true;
}

export async function startWorkerdServe(
  buildDir: string,
  vars: Record<string, string>,
  id: PeerId = "workerd-serve",
  timeoutMs = 20_000,
  inspectorPort?: number,
): Promise<Served> {
  const { child, url } = await spawnWorkerdServe(buildDir, vars, inspectorPort);
  const served = servedChild(id, url, child);
  if (!(await waitUntil(child, () => fetch(`${url}/health`).then((r) => r.ok), timeoutMs))) {
    await served.stop();
    throw new Error(`workerd serve (${id}) did not come up`);
  }
  return served;
}
