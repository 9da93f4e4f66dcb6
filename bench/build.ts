/** The Worker's deployable bundle (as `npm run build`) in a temporary folder, with its size. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT } from "../dev/stack.ts";
import { bin, run } from "./exec.ts";

export type Size = { rawBytes: number; gzipBytes: number };
export type Build = Size & { dir: string; remove(): void };

/** Raw and gzip (level 9) bytes of the given files, summed. */
export function sizeOf(files: Array<string | Uint8Array>): Size {
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const data = typeof file === "string" ? readFileSync(file) : file;
    rawBytes += data.length;
    gzipBytes += gzipSync(data, { level: 9 }).length;
  }
  return { rawBytes, gzipBytes };
}

/**
 * `wrangler deploy --dry-run --outdir <tmp>`; every emitted .js counts toward the size. `from`
 * builds another checkout of the repo (see buildWorkerAt) with this one's wrangler.
 */
export async function buildWorker(from = ROOT): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), "decipher-bench-build-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const res = await run(
    process.execPath,
    [bin("wrangler", "bin/wrangler.js"), "deploy", "--dry-run", "--outdir", dir],
    {},
    900_000,
    from,
  );
  if (res.code !== 0) {
    remove();
    throw new Error(`dry-run build failed:\n${res.stderr.slice(-2000)}`);
  }
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  return { ...sizeOf(files.map((f) => join(dir, f))), dir, remove };
}

/**
 * The Worker as it was at git revision `rev` (a before/after comparison in one run): the tree
 * from `git archive` in a temporary folder, built with this checkout's wrangler. Its libraries
 * are this checkout's node_modules when its lockfile is the same, or else its own lockfile's
 * runtime dependencies, installed with `npm ci --omit=dev` (an older revision may import a
 * library since dropped). The
 * temporary tree is gone when this returns.
 */
export async function buildWorkerAt(rev: string): Promise<Build> {
  const tree = mkdtempSync(join(tmpdir(), "decipher-bench-rev-"));
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", rev], { cwd: ROOT, maxBuffer: 1 << 28 });
    execFileSync("tar", ["-x", "-C", tree], { input: archive });
    const lock = "package-lock.json";
    if (readFileSync(join(tree, lock), "utf8") === readFileSync(join(ROOT, lock), "utf8"))
      symlinkSync(join(ROOT, "node_modules"), join(tree, "node_modules"));
    else {
      const npm = process.platform === "win32" ? "npm.cmd" : "npm";
      const installed = await run(
        npm,
        ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"],
        {},
        900_000,
        tree,
      );
      if (installed.code !== 0) throw new Error(`npm ci at ${rev} failed:\n${installed.stderr.slice(-2000)}`);
    }
    return await buildWorker(tree);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
