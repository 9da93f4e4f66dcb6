/**
 * Where the Worker's bundle comes from: builds it as `npm run build` does (bench/build.ts), reads
 * the source map wrangler writes beside it, and gives every byte of the minified code to the
 * source it came from (a file of src/, or a package). Each source's bytes, put together, are
 * gzipped alone at level 9: a part alone compresses worse than inside the whole bundle, so the
 * parts add up to more than the bundle's gzip size, but they rank the sources and show what
 * removing one could save at most. With a git revision, the same for the Worker at that
 * revision (bench/build.ts `buildWorkerAt`), side by side. Then what each feature and library
 * weighs (`FEATURES`):
 *   node bench/bundle-sources.ts [git rev] [rows]
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Build, buildWorker, buildWorkerAt } from "./build.ts";
import { moduleName } from "./peer/profile.ts";

export type SourcePart = { source: string; rawBytes: number; gzipBytes: number };
export type Attribution = { rawBytes: number; gzipBytes: number; parts: SourcePart[] };

/** Code the source map gives to no source: esbuild's own helpers (CommonJS interop). */
const UNMAPPED = "(esbuild runtime)";

/** A package by its name, a file of the repo by its path (src/…), anything else by its file name. */
function sourceName(source: string): string {
  const name = moduleName(source);
  return name.startsWith("..") || name.startsWith("/") ? basename(name) : name;
}

/** The minified bundle in order, each stretch of it with the source it came from. */
type Segment = { source: string; text: string };

function segments(build: Build): Segment[] {
  const code = readFileSync(join(build.dir, "index.js"), "utf8");
  const map = new SourceMap(JSON.parse(readFileSync(join(build.dir, "index.js.map"), "utf8")));
  const out: Segment[] = [];
  const lines = code.split("\n");
  for (const [line, text] of lines.entries()) {
    let start = 0;
    let owner = UNMAPPED;
    const flush = (end: number) => {
      if (end > start) out.push({ source: owner, text: text.slice(start, end) });
      start = end;
    };
    // A segment runs from its column to the next one's: findEntry answers the segment a column is in.
    for (let column = 0; column < text.length; column++) {
      const entry = map.findEntry(line, column) as { originalSource?: string; generatedLine?: number };
      const source =
        entry.originalSource && entry.generatedLine === line ? sourceName(entry.originalSource) : UNMAPPED;
      if (source !== owner) {
        flush(column);
        owner = source;
      }
    }
    flush(text.length);
    if (line < lines.length - 1) out.push({ source: owner, text: "\n" });
  }
  return out;
}

const gzipOf = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length;

/** The minified bundle of a build, cut by source (src/ files one by one, packages whole). */
export function attribute(build: Build): Attribution {
  const pieces = new Map<string, string[]>();
  for (const { source, text } of segments(build)) pieces.set(source, [...(pieces.get(source) ?? []), text]);
  const parts = [...pieces].map(([source, list]): SourcePart => {
    const text = list.join("");
    return { source, rawBytes: Buffer.byteLength(text), gzipBytes: gzipOf(text) };
  });
  parts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { rawBytes: build.rawBytes, gzipBytes: build.gzipBytes, parts };
}

/**
 * The features and libraries a smaller bundle would have to give up, by the sources that are
 * theirs alone. The shared code they use (the Block Kit helpers, the engine, the clients) stays.
 */
export const FEATURES: Array<[string, RegExp]> = [
  ["Hono (the routes)", /^hono$/],
  ["slack-edge and slack-web-api-client", /^slack-(edge|web-api-client)$/],
  ["valibot (the vendor's responses checked at the boundary)", /^valibot$/],
  [
    "Add to Slack (multi-workspace installs, sealed tokens, Connect Decipher)",
    /^src\/(handlers\/install\/|objects\/(workspace-object|install-state-object|tenancy)\.ts|util\/secret-box\.ts|messages\/connect-decipher\.ts)/,
  ],
  [
    "Events API: App Home, unfurls, mentions, the event gate",
    /^src\/(handlers\/(home|unfurl|mentions|events)\/|messages\/(home-view|session-unfurl|test-unfurl|unfurl-blocks|mention-help|find-sessions-modal)\.ts|objects\/(slack-event-gate|event-gate-client)\.ts)/,
  ],
  ["weekly report", /^src\/.*weekly/],
  [
    "triage buttons (acknowledge, snooze, mute)",
    /^src\/(engine\/(apply-triage|snooze)|messages\/(triage-controls|triage-values|alert-status)|model\/triage-state|handlers\/actions\/triage-buttons)\.ts/,
  ],
  ["daily digest", /^src\/.*digest/],
  [
    "charts and tables (data_visualization, table blocks)",
    /^src\/(messages\/(charts|digest-charts|growth-chart|run-chart|rich-blocks)|engine\/rich-block-gate|store\/rich-block-store)\.ts/,
  ],
];

export type FeatureWeight = { feature: string; rawBytes: number; gzipSaved: number };

/**
 * What each feature weighs: its sources' minified bytes, and how much smaller the bundle's gzip
 * is with those bytes cut out (the rest gzipped as it stands; not a build without the feature,
 * whose call sites would go too).
 */
export function weighFeatures(build: Build): FeatureWeight[] {
  const all = segments(build);
  const whole = gzipOf(all.map((s) => s.text).join(""));
  return FEATURES.map(([feature, pattern]) => {
    const theirs = all.filter((s) => pattern.test(s.source));
    const rest = all.filter((s) => !pattern.test(s.source));
    return {
      feature,
      rawBytes: Buffer.byteLength(theirs.map((s) => s.text).join("")),
      gzipSaved: whole - gzipOf(rest.map((s) => s.text).join("")),
    };
  });
}

const bytes = (n: number | undefined) => (n === undefined ? "–" : n.toLocaleString("en-US"));

/** A markdown table of the top sources; with `before`, its figures beside them. */
export function renderAttribution(after: Attribution, rows: number, before?: Attribution): string {
  const old = new Map(before?.parts.map((p) => [p.source, p]));
  const head = before
    ? "| source | gzip alone, before | gzip alone | minified bytes, before | minified bytes |\n|---|---:|---:|---:|---:|"
    : "| source | gzip alone | minified bytes |\n|---|---:|---:|";
  const line = (p: SourcePart) =>
    before
      ? `| ${p.source} | ${bytes(old.get(p.source)?.gzipBytes)} | ${bytes(p.gzipBytes)} | ${bytes(old.get(p.source)?.rawBytes)} | ${bytes(p.rawBytes)} |`
      : `| ${p.source} | ${bytes(p.gzipBytes)} | ${bytes(p.rawBytes)} |`;
  const total = before
    ? `| **the bundle** (every emitted .js, gzip level 9) | **${bytes(before.gzipBytes)}** | **${bytes(after.gzipBytes)}** | ${bytes(before.rawBytes)} | ${bytes(after.rawBytes)} |`
    : `| **the bundle** (every emitted .js, gzip level 9) | **${bytes(after.gzipBytes)}** | ${bytes(after.rawBytes)} |`;
  return [head, ...after.parts.slice(0, rows).map(line), total].join("\n");
}

export function renderFeatures(weights: FeatureWeight[]): string {
  return [
    "| feature or library | minified bytes | gzip bytes without it |",
    "|---|---:|---:|",
    ...weights.map((w) => `| ${w.feature} | ${bytes(w.rawBytes)} | −${bytes(w.gzipSaved)} |`),
  ].join("\n");
}

if (process.argv[1]?.endsWith("bundle-sources.ts")) {
  process.env.WRANGLER_SEND_METRICS = "false";
  const [rev, rows = "25"] = process.argv.slice(2);
  const builds: Build[] = [];
  try {
    if (rev) builds.push(await buildWorkerAt(rev));
    builds.push(await buildWorker());
    const [before, after] = rev ? builds.map(attribute) : [undefined, attribute(builds[0] as Build)];
    console.log(renderAttribution(after as Attribution, Number(rows), before));
    console.log("");
    console.log(renderFeatures(weighFeatures(builds.at(-1) as Build)));
  } finally {
    for (const b of builds) b.remove();
  }
}
