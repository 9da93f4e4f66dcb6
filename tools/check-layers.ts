/**
 * The layer check `npm test` runs: folders are layers and imports point one way, down
 *   entry (index, app, cron) → handlers → wiring → objects → kinds → engine → messages / slack-api
 *   → model / store / decipher / config → util,
 * a folder may import its own tier (one way: no two folders import each other, even through
 * others), and no file (in src/, dev/, bench/, tools/) is part of an
 * import cycle, type-only imports included. dev/, bench/ and tools/ may import src/ but never
 * test/; src/ imports none of them. src/ takes only types from slack-edge's index and its
 * client's (see SLACK_EDGE_VALUE below). Prints each violation and exits 1 when there is any.
 */
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? ".");

const TIERS: Record<string, number> = {
  "src/index.ts": 10,
  "src/app.ts": 9,
  "src/cron.ts": 9,
  "src/handlers": 8,
  "src/wiring.ts": 7,
  "src/objects": 6,
  "src/kinds": 5,
  "src/engine": 4,
  "src/messages": 3,
  "src/slack-api": 3,
  "src/model": 2,
  "src/store": 2,
  "src/decipher": 2,
  "src/config.ts": 2,
  "src/util": 1,
};

const files: string[] = [];
function walk(dir: string): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) files.push(full);
  }
}
for (const dir of ["src", "dev", "bench", "tools"]) walk(path.join(root, dir));
const known = new Set(files);
const rel = (file: string) => path.relative(root, file).split(path.sep).join("/");

function target(from: string, spec: string): string | null {
  if (!spec.startsWith(".")) return null;
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, path.join(base, "index.ts")]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const IMPORT =
  /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
const edges = new Map<string, string[]>();
for (const file of files) {
  const text = fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const found = target(file, m[1] ?? m[2] ?? m[3] ?? "");
    if (found && found !== file) out.push(found);
  }
  edges.set(file, out);
}

function tierOf(file: string): { layer: string; tier: number } | null {
  const r = rel(file);
  for (const [layer, tier] of Object.entries(TIERS)) {
    if (r === layer || r.startsWith(`${layer}/`)) return { layer, tier };
  }
  return null;
}

const problems: string[] = [];
for (const [file, targets] of edges) {
  const from = rel(file);
  for (const t of targets) {
    const to = rel(t);
    if (to.startsWith("test/")) problems.push(`${from} imports ${to}: only tests may use test/`);
    // The version string comes from package.json, bundled at build time.
    if (from.startsWith("src/") && !to.startsWith("src/") && to !== "package.json")
      problems.push(`${from} imports ${to}: src/ stands alone`);
    const a = tierOf(file);
    const b = tierOf(t);
    if (from.startsWith("src/") && !a)
      problems.push(`${from} is in no layer: add its folder to tools/check-layers.ts`);
    if (a && b && b.tier > a.tier)
      problems.push(`${from} (${a.layer}) imports ${to} (${b.layer}), a higher layer`);
  }
}

// slack-edge and its Web API client are CommonJS: a value from either index brings all of that
// package (SlackApp, OAuth, Socket Mode, …) into the Worker's bundle. Values come from their
// modules, `…/dist/…` (src/handlers/lean-slack-app.ts).
const SLACK_EDGE_VALUE =
  /^\s*(?:import|export)\s+(?!type\b)[^'"`;]*?from\s*['"](?:slack-edge|slack-web-api-client)['"]/m;
// The library's client class binds all of Slack's some 280 methods in its constructor (18 KB
// that no bundler can drop); the bot's own client is src/slack-api/slack-client.ts.
const API_CLIENT_VALUE =
  /^\s*(?:import|export)\s+(?!type\b)[^'"`;]*?from\s*['"]slack-web-api-client\/dist\/client\/api-client(?:\.js)?['"]/m;
for (const file of files) {
  if (!rel(file).startsWith("src/")) continue;
  const text = fs.readFileSync(file, "utf8");
  if (SLACK_EDGE_VALUE.test(text))
    problems.push(
      `${rel(file)} imports a value from slack-edge's (or its client's) index: use \`import type\`, or the module`,
    );
  if (API_CLIENT_VALUE.test(text))
    problems.push(
      `${rel(file)} imports slack-web-api-client's SlackAPIClient: use the bot's client (src/slack-api/slack-client.ts)`,
    );
}

// Tarjan's strongly connected components: any component of more than one file is a cycle.
let counter = 0;
const index = new Map<string, number>();
const low = new Map<string, number>();
const stack: string[] = [];
const onStack = new Set<string>();
function visit(v: string): void {
  index.set(v, counter);
  low.set(v, counter);
  counter++;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!known.has(w)) continue;
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
  }
  if (low.get(v) === index.get(v)) {
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w) {
        onStack.delete(w);
        component.push(w);
      }
    } while (w && w !== v);
    if (component.length > 1) problems.push(`import cycle: ${component.map(rel).join(" ⇄ ")}`);
  }
}
for (const file of files) if (!index.has(file)) visit(file);

// Folders of one tier may import each other, but never both ways: a cycle between folders is a
// knot a reader must untie even when no file cycle closes it.
const folderOf = (file: string) => {
  const parts = rel(file).split("/");
  return parts[0] === "src" ? `src/${parts[1]}` : null;
};
const folderEdges = new Map<string, Set<string>>();
for (const [file, targets] of edges) {
  const a = folderOf(file);
  if (!a) continue;
  for (const t of targets) {
    const b = folderOf(t);
    if (b && b !== a) folderEdges.set(a, (folderEdges.get(a) ?? new Set()).add(b));
  }
}
const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
  if (from === to) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  return [...(folderEdges.get(from) ?? [])].some((next) => reaches(next, to, seen));
};
for (const [a, targets] of folderEdges)
  for (const b of targets) if (a < b && reaches(b, a)) problems.push(`folder cycle: ${a} ⇄ ${b}`);

for (const problem of problems) console.log(problem);
console.log(`layers: ${files.length} files, ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
process.exit(problems.length > 0 ? 1 : 0);
