/** A floor Worker (bench/peer/hono-echo.ts or a variant) bundled for workerd (esbuild, as wrangler bundles ours) into a temporary folder. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { ROOT } from "../../dev/stack.ts";
import { type Build, sizeOf } from "../build.ts";

export async function bundleHonoEcho(entry = "bench/peer/hono-echo.ts"): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), "decipher-bench-floor-"));
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    format: "esm",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`esbuild produced no output for ${entry}`);
  writeFileSync(join(dir, "index.js"), code);
  return { ...sizeOf([code]), dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
