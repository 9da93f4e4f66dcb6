/** The Worker's deployable bundle (as `npm run build`) in a temporary folder, with its size. */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
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

/** The .js files a build wrote into `dir` (paths): the ones that count toward the bundle's size. */
export const bundleFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith(".js"))
        .map((f) => join(dir, f))
    : [];

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
  return { ...sizeOf(bundleFiles(dir)), dir, remove };
}

/** Runtime libraries installed for another lockfile, by its text, once per bench process. */
const installed = new Map<string, string>();

/** The node_modules a tree builds with: this checkout's, or `npm ci --omit=dev` of its lockfile. */
async function librariesFor(tree: string, rev: string): Promise<string> {
  const lock = readFileSync(join(tree, "package-lock.json"), "utf8");
  if (lock === readFileSync(join(ROOT, "package-lock.json"), "utf8")) return join(ROOT, "node_modules");
  let dir = installed.get(lock);
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), "decipher-bench-libs-"));
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(tree, file), join(dir, file));
    const npm = process.platform === "win32" ? "npm.cmd" : "npm";
    const args = ["ci", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund"];
    const res = await run(npm, args, {}, 900_000, dir);
    if (res.code !== 0) throw new Error(`npm ci for ${rev} failed:\n${res.stderr.slice(-2000)}`);
    installed.set(lock, dir);
  }
  return join(dir, "node_modules");
}

/**
 * The Worker as it was at git revision `rev` (a before/after comparison in one run): the tree
 * from `git archive` in a temporary folder, built with this checkout's wrangler. Its libraries
 * are this checkout's node_modules when its lockfile is the same, or else its own lockfile's
 * runtime dependencies (librariesFor: an older revision may import a library since dropped).
 * The temporary tree is gone when this returns.
 */
export async function buildWorkerAt(rev: string): Promise<Build> {
  const tree = mkdtempSync(join(tmpdir(), "decipher-bench-rev-"));
  try {
    const archive = execFileSync("git", ["archive", "--format=tar", rev], { cwd: ROOT, maxBuffer: 1 << 28 });
    execFileSync("tar", ["-x", "-C", tree], { input: archive });
    // A few revisions tracked a node_modules symlink by mistake: it is replaced.
    rmSync(join(tree, "node_modules"), { recursive: true, force: true });
    symlinkSync(await librariesFor(tree, rev), join(tree, "node_modules"));
    return await buildWorker(tree);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }
}
