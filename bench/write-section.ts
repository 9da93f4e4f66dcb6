import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../dev/stack.ts";

/**
 * Writes a bench's section to its file in bench/sections/ (which bench/report.ts appends whenever
 * it rewrites BENCHMARKS.md) and into BENCHMARKS.md between its markers (`start` opens the
 * section's first line, `end` is its last line), or at the end when it has none yet.
 */
export function writeSection(sectionFile: string, start: string, end: string, section: string): void {
  writeFileSync(join(ROOT, "bench/sections", sectionFile), `${section}\n`);
  const file = join(ROOT, "BENCHMARKS.md");
  const current = existsSync(file) ? readFileSync(file, "utf8") : "";
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  writeFileSync(
    file,
    from >= 0 && to > from
      ? `${current.slice(0, from)}${section}${current.slice(to + end.length)}`
      : `${current.trimEnd()}\n\n${section}\n`,
  );
}
