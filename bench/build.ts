/** The Worker's deployable bundle (as `npm run build`) in a temporary folder, with its size. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
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

/** `wrangler deploy --dry-run --outdir <tmp>`; every emitted .js counts toward the size. */
export async function buildWorker(): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), "decipher-bench-build-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const res = await run(process.execPath, [
    bin("wrangler", "bin/wrangler.js"),
    "deploy",
    "--dry-run",
    "--outdir",
    dir,
  ]);
  if (res.code !== 0) {
    remove();
    throw new Error(`dry-run build failed:\n${res.stderr.slice(-2000)}`);
  }
  const files = readdirSync(dir).filter((f) => f.endsWith(".js"));
  return { ...sizeOf(files.map((f) => join(dir, f))), dir, remove };
}
