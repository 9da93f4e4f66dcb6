/**
 * The size budgets of src/ that `npm test` holds (docs/architecture.md, "Size budgets"):
 * - no function over 120 lines and no file over 450 (biome.json's override for src/ fails the
 *   lint on either, so the editor shows them too);
 * - at most 8 functions over 60 lines: a count across the tree, which no lint rule expresses,
 *   so this runs Biome's own rule at 60 lines with a throwaway config and counts what it finds;
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
const LONG_FUNCTION_LINES = 60;
const MAX_LONG_FUNCTIONS = 8;
const MAX_KIND_COMPARISONS = 5;

function longFunctions(): string[] {
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
          noExcessiveLinesPerFunction: { level: "error", options: { maxLines: LONG_FUNCTION_LINES } },
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
const long = longFunctions();
const kinds = kindComparisons();
let over = false;
console.log(
  `sizes: ${long.length} functions over ${LONG_FUNCTION_LINES} lines (at most ${MAX_LONG_FUNCTIONS})`,
);
if (long.length > MAX_LONG_FUNCTIONS) {
  over = true;
  for (const at of long) console.log(`  ${at}`);
}
console.log(`sizes: ${kinds.length} kind comparisons outside src/kinds/ (at most ${MAX_KIND_COMPARISONS})`);
if (kinds.length > MAX_KIND_COMPARISONS) over = true;
if (report || kinds.length > MAX_KIND_COMPARISONS) for (const at of kinds) console.log(`  ${at}`);
process.exit(over && !report ? 1 : 0);
