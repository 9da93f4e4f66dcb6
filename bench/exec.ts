/** Runs a command from the repo root (or `cwd`), collecting its output; bounded by a timeout. */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../dev/stack.ts";

export function run(
  cmd: string,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 900_000,
  cwd = ROOT,
) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/** A whole vitest bench run takes as long as it takes: this bound only stops a hung one. */
export const VITEST_RUN_BOUND_MS = 3 * 60 * 60 * 1000;

/** A file inside an installed package. */
export const bin = (pkg: string, file: string) => join(ROOT, "node_modules", pkg, file);
