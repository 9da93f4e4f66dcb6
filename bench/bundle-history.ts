/**
 * Where the bundle's bytes came from: every commit on main's first-parent line since `from` that
 * touched the Worker's sources, its dependencies or wrangler.toml, built as `npm run build` does
 * (bench/build.ts, gzip level 9), with what it added or took away. A merge counts its whole
 * branch. Prints a Markdown table (BENCHMARKS.md, "The Slack edge: the bundle, by source"):
 *   node bench/bundle-history.ts <from-rev> [to-rev=HEAD]
 */
import { execFileSync } from "node:child_process";
import { ROOT } from "../dev/stack.ts";
import { buildWorkerAt } from "./build.ts";

const [from, to = "HEAD"] = process.argv.slice(2);
if (!from) throw new Error("usage: node bench/bundle-history.ts <from-rev> [to-rev]");
process.env.WRANGLER_SEND_METRICS = "false";

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
const touching = git(
  "log",
  "--first-parent",
  "--reverse",
  "--format=%h",
  `${from}..${to}`,
  "--",
  "src",
  "wrangler.toml",
  "package-lock.json",
)
  .split("\n")
  .filter(Boolean);

const gzipAt = async (rev: string) => {
  const build = await buildWorkerAt(rev);
  build.remove();
  return build.gzipBytes;
};

const subject = (rev: string) => git("log", "-1", "--format=%s", rev).replace(/\|/g, "/").slice(0, 110);
const start = await gzipAt(from);
console.log(
  `| commit | gzip bytes | change | what |\n|---|---:|---:|---|\n| \`${from}\` | ${start} | | the start |`,
);
let previous = start;
for (const rev of touching) {
  const bytes = await gzipAt(rev);
  const change = bytes - previous;
  console.log(`| \`${rev}\` | ${bytes} | ${change > 0 ? "+" : ""}${change} | ${subject(rev)} |`);
  previous = bytes;
}
console.log(
  `\n${touching.length} commits; ${start} → ${previous} bytes (${previous - start >= 0 ? "+" : ""}${previous - start}).`,
);
