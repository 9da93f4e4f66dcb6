/**
 * The size budgets of src/ that `npm test` holds (docs/architecture.md, "Size budgets"), in
 * lines as the files have them, comments and blank lines included:
 * - no function over 120 lines and no file over 450 (biome.json's override for src/ fails the
 *   lint on the same limits in lines of code, so the editor shows the worst at once);
 * - at most 8 functions over 60 lines: a count across the tree, which no lint rule expresses.
 *   Biome's own rule, run with a throwaway config, finds the candidates (it counts lines of
 *   code only); each is then measured as the file has it;
 * - at most 5 comparisons with a literal subscription kind outside src/kinds/: each kind's
 *   module answers for it (docs/architecture.md, "Adding a subscription kind").
 * Prints each count and what is over, and exits 1 when a budget is exceeded.
 * `--report` prints the counts and always exits 0.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const MAX_FUNCTION_LINES = 120;
const MAX_FILE_LINES = 450;
const LONG_FUNCTION_LINES = 60;
const MAX_LONG_FUNCTIONS = 8;
const MAX_KIND_COMPARISONS = 5;

/** Every function Biome counts over `maxLines` lines of code (comments and blank lines aside): `file:line`. */
function biomeFunctions(maxLines: number): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "check-sizes-"));
  const config = {
    files: { includes: ["**", "!**/worker-configuration.d.ts"] },
    formatter: { enabled: false },
    assist: { enabled: false },
    linter: {
      enabled: true,
      rules: {
        recommended: false,
        complexity: {
          noExcessiveLinesPerFunction: { level: "error", options: { maxLines } },
        },
      },
    },
  };
  fs.writeFileSync(path.join(dir, "biome.json"), JSON.stringify(config));
  const biome = path.join(root, "node_modules", ".bin", "biome");
  const run = spawnSync(
    biome,
    ["lint", `--config-path=${dir}`, "--max-diagnostics=none", "--colors=off", path.join(root, "src")],
    { encoding: "utf8" },
  );
  fs.rmSync(dir, { recursive: true, force: true });
  const out = `${run.stdout}\n${run.stderr}`;
  const found = [...out.matchAll(/^(\S+\.ts):(\d+):\d+ lint\/complexity\/noExcessiveLinesPerFunction/gm)];
  if (found.length === 0 && run.status !== 0 && !/Checked \d+ files?/.test(out))
    throw new Error(`biome did not run: ${out.slice(0, 500)}`);
  return found.map((m) => `${path.relative(root, m[1] ?? "")}:${m[2]}`);
}

/**
 * A function's length in lines as the file has them, comments and blank lines included (Biome
 * counts neither): from its first line to the line that closes it, which the formatter puts at
 * the first line's indentation.
 */
function rawLength(at: string): number {
  const [file, line] = at.split(":");
  const lines = fs.readFileSync(path.join(root, file ?? ""), "utf8").split("\n");
  const start = Number(line) - 1;
  const indent = /^ */.exec(lines[start] ?? "")?.[0].length ?? 0;
  for (let i = start + 1; i < lines.length; i++) {
    const text = lines[i] ?? "";
    if (/^ */.exec(text)?.[0].length === indent && /^}/.test(text.slice(indent))) return i - start + 1;
  }
  return 0;
}

/** Functions over `limit` lines as the file has them, longest first. */
function longFunctions(limit: number): { at: string; lines: number }[] {
  // Biome's count is never above the raw one: its candidates at a lower bar hold every long one.
  return biomeFunctions(Math.floor(limit / 3))
    .map((at) => ({ at, lines: rawLength(at) }))
    .filter((f) => f.lines > limit)
    .sort((a, b) => b.lines - a.lines);
}

/** Files of src/ over `limit` lines. */
function longFiles(limit: number): { at: string; lines: number }[] {
  const found: { at: string; lines: number }[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && entry.name !== "worker-configuration.d.ts") {
        const lines = fs.readFileSync(full, "utf8").replace(/\n$/, "").split("\n").length;
        if (lines > limit) found.push({ at: path.relative(root, full), lines });
      }
    }
  };
  walk(path.join(root, "src"));
  return found;
}

/** A literal kind compared or switched on: what a third kind would have to find by hand. */
const KIND_COMPARISON =
  /(?:===|!==)\s*["'](?:test|collection)["']|["'](?:test|collection)["']\s*(?:===|!==)|case\s+["'](?:test|collection)["']/g;

function kindComparisons(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const rel = path.relative(root, full).split(path.sep).join("/");
      if (entry.isDirectory()) {
        if (rel !== "src/kinds") walk(full);
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        fs.readFileSync(full, "utf8")
          .split("\n")
          .forEach((line, i) => {
            if (/^\s*(\/\/|\*)/.test(line)) return;
            for (const _ of line.matchAll(KIND_COMPARISON)) found.push(`${rel}:${i + 1}`);
          });
      }
    }
  };
  walk(path.join(root, "src"));
  return found;
}

const report = process.argv.includes("--report");
const long = longFunctions(LONG_FUNCTION_LINES);
const tooLong = long.filter((f) => f.lines > MAX_FUNCTION_LINES);
const files = longFiles(MAX_FILE_LINES);
const kinds = kindComparisons();
const show = (found: { at: string; lines: number }[]) => {
  for (const f of found) console.log(`  ${f.at} (${f.lines} lines)`);
};
let over = false;
console.log(`sizes: ${tooLong.length} functions over ${MAX_FUNCTION_LINES} lines (none allowed)`);
if (tooLong.length > 0) over = true;
show(tooLong);
console.log(`sizes: ${files.length} files over ${MAX_FILE_LINES} lines (none allowed)`);
if (files.length > 0) over = true;
show(files);
console.log(
  `sizes: ${long.length} functions over ${LONG_FUNCTION_LINES} lines (at most ${MAX_LONG_FUNCTIONS})`,
);
if (long.length > MAX_LONG_FUNCTIONS) over = true;
if (report || long.length > MAX_LONG_FUNCTIONS) show(long);
console.log(`sizes: ${kinds.length} kind comparisons outside src/kinds/ (at most ${MAX_KIND_COMPARISONS})`);
if (kinds.length > MAX_KIND_COMPARISONS) over = true;
if (report || kinds.length > MAX_KIND_COMPARISONS) for (const at of kinds) console.log(`  ${at}`);
process.exit(over && !report ? 1 : 0);
