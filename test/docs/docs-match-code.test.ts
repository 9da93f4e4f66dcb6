import { describe, expect, it } from "vitest";
import configurationPage from "../../docs/configuration.md?raw";
import deployingPage from "../../docs/deploying-by-hand.md?raw";
import packageJson from "../../package.json";
import readme from "../../README.md?raw";
import config from "../../src/config.ts?raw";
import generatedTypes from "../../src/worker-configuration.d.ts?raw";

// Every source file and every Markdown page, as text, and the path of every file of the repo
// (Vite reads them at build time: the tests run inside workerd, which has no file system).
const sources = import.meta.glob("../../src/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const docs = import.meta.glob("../../docs/**/*.md", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const otherPages = import.meta.glob(["../../*.md", "../../dev/**/*.md", "../../bench/**/*.md"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;
const repoFiles = Object.keys(
  import.meta.glob(["../../**/*", "!../../node_modules/**", "!../../dist/**", "!../../.wrangler/**"]),
).map(fromRoot);

/** `../../docs/alerts.md` → `docs/alerts.md`. */
function fromRoot(key: string): string {
  return key.replace(/^(\.\.\/)+/, "");
}

/** The pages whose links are checked: the README and docs/. */
const checkedPages: Record<string, string> = { "README.md": readme, ...rekey(docs) };
/** Every page a link may point into, for its headings. */
const allPages: Record<string, string> = { ...rekey(otherPages), ...checkedPages };

function rekey(pages: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(pages).map(([key, text]) => [fromRoot(key), text]));
}

/** The names the code reads from its environment: `env.NAME` anywhere, the `Env` type's own keys, and the bindings wrangler types generates. */
function namesRead(): Set<string> {
  const names = new Set<string>();
  const code = Object.entries(sources).filter(([file]) => !file.endsWith("worker-configuration.d.ts"));
  for (const [, text] of code)
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1] as string);
  for (const m of config.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??:/gm)) names.add(m[1] as string);
  const generatedEnv = generatedTypes.slice(0, generatedTypes.indexOf("}"));
  for (const m of generatedEnv.matchAll(/^\t([A-Z][A-Z0-9_]+)\??:/gm)) names.add(m[1] as string);
  return names;
}

/** The names a page's tables document: each row's first cell (docs/configuration.md, docs/deploying-by-hand.md). */
function namesDocumented(page = configurationPage): Set<string> {
  const names = new Set<string>();
  for (const row of page.split("\n").filter((line) => line.startsWith("| `")))
    for (const m of (row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1] as string);
  return names;
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(page: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const m of page.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const base = anchorOf((m[1] as string).trim());
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** `docs/alerts.md` and `../BENCHMARKS.md` → `BENCHMARKS.md`. */
function resolve(page: string, target: string): string {
  const parts = page.split("/").slice(0, -1);
  for (const part of target.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/** Each relative link of a page that leads nowhere: no such file, or no such heading in it. */
function brokenLinks(page: string, text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const broken: string[] = [];
  for (const m of withoutCode.matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1] as string;
    if (/^[a-z]+:/i.test(link)) continue;
    const [path = "", anchor] = link.split("#");
    const file = path === "" ? page : resolve(page, path);
    const isFolder = repoFiles.some((f) => f.startsWith(`${file}/`));
    if (!repoFiles.includes(file) && !isFolder) broken.push(`${page}: ${link} (no such file)`);
    else if (anchor !== undefined && !anchorsOf(allPages[file] ?? "").has(anchor))
      broken.push(`${page}: ${link} (no such heading in ${file})`);
  }
  return broken;
}

/** The README's "Dependencies" section. */
function dependenciesSection(): string {
  const start = readme.indexOf("## Dependencies");
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe("the docs match the code", () => {
  it("the README is a page people finish: at most 300 lines", () => {
    expect(readme.trimEnd().split("\n").length).toBeLessThanOrEqual(300);
  });

  it("every relative link in README.md and docs/ leads to a file, and to a heading of it", () => {
    expect(repoFiles).toContain("src/index.ts");
    expect(Object.keys(checkedPages).length).toBeGreaterThan(8);
    const broken = Object.entries(checkedPages).flatMap(([page, text]) => brokenLinks(page, text));
    expect(broken).toEqual([]);
  });

  it("every variable and binding the code reads is in docs/configuration.md", () => {
    const read = namesRead();
    expect(read.size).toBeGreaterThan(15);
    const documented = namesDocumented();
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it("deploying by hand says, for each mode, what becomes of every variable in docs/configuration.md", () => {
    const perMode = namesDocumented(deployingPage);
    expect([...namesDocumented()].filter((name) => !perMode.has(name)).sort()).toEqual([]);
  });

  it("every `npm run` command in README and docs/ is a script of package.json", () => {
    const scripts = new Set(Object.keys(packageJson.scripts));
    const missing = Object.entries(checkedPages).flatMap(([page, text]) =>
      [...text.matchAll(/npm run ([a-z][\w:-]*)/g)]
        .map((m) => m[1] as string)
        .filter((name) => !scripts.has(name))
        .map((name) => `${page}: npm run ${name}`),
    );
    expect([...new Set(missing)]).toEqual([]);
  });

  it("every dependency of package.json is explained in one line of the README's Dependencies", () => {
    const section = dependenciesSection();
    const names = [...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.devDependencies)];
    const lines = section.split("\n").filter((line) => line.startsWith("- `"));
    const explained = names.filter((name) => lines.some((line) => line.startsWith(`- \`${name}\``)));
    expect(names.filter((name) => !explained.includes(name))).toEqual([]);
  });
});
