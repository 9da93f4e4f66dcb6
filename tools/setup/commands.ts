// How `npm run setup` runs a command: for real (its output shown as it comes, and kept for the
// step that reads it), or, with `--dry-run`, printed and not run at all. A secret goes to a
// command's stdin only, never into its arguments: `ps` shows arguments to everyone.
import { spawn } from "node:child_process";

export type Result = { code: number; out: string };
export type RunOptions = { stdin?: string; interactive?: boolean; quiet?: boolean; env?: NodeJS.ProcessEnv };
export type Runner = {
  dryRun: boolean;
  run(cmd: string, args: string[], opts?: RunOptions): Promise<Result>;
};

const shown = (cmd: string, args: string[], opts: RunOptions) =>
  `$ ${[cmd, ...args].join(" ")}${opts.stdin !== undefined ? "   (the value on stdin)" : ""}`;

export function realRunner(log: (line: string) => void): Runner {
  return {
    dryRun: false,
    run(cmd, args, opts = {}) {
      log(shown(cmd, args, opts));
      return new Promise((resolve) => {
        const child = spawn(cmd, args, {
          stdio: opts.interactive ? "inherit" : ["pipe", "pipe", "inherit"],
          env: opts.env ?? process.env,
        });
        let out = "";
        child.stdout?.on("data", (chunk: Buffer) => {
          out += chunk.toString("utf8");
          if (!opts.quiet) process.stdout.write(chunk);
        });
        child.stdin?.end(opts.stdin ?? "");
        child.on("error", () => resolve({ code: 127, out }));
        child.on("close", (code) => resolve({ code: code ?? 1, out }));
      });
    },
  };
}

/** Prints each command and runs none; `answers` stands in for what a command would print. */
export function dryRunner(log: (line: string) => void, answers: (args: string[]) => string): Runner {
  return {
    dryRun: true,
    async run(cmd, args, opts = {}) {
      log(shown(cmd, args, opts));
      return { code: 0, out: answers(args) };
    },
  };
}
