/**
 * bench/peer/bolt-app.ts bundled with esbuild (the one wrangler ships) for Node, as a Bolt app
 * would be shipped: one CommonJS file. The bench runs this file and reports its gzip size.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../../dev/stack.ts";
import { type Size, sizeOf } from "../build.ts";

export type BoltBundle = Size & { file: string; remove(): void };

export async function bundleBolt(): Promise<BoltBundle> {
  const dir = mkdtempSync(join(tmpdir(), "decipher-bench-bolt-"));
  const result = await build({
    entryPoints: [join(ROOT, "bench/peer/bolt-app.ts")],
    bundle: true,
    platform: "node",
    target: "node22",
    format: "cjs",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error("esbuild produced no output for the Bolt app");
  const file = join(dir, "bolt-app.cjs");
  writeFileSync(file, code);
  return { ...sizeOf([code]), file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
