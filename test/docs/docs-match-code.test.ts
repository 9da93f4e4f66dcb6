import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import readme from "../../README.md?raw";
import config from "../../src/config.ts?raw";

// Every source file and every page of docs/, as text (Vite reads them at build time: the tests
// run inside workerd, which has no file system).
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

/** The names the code reads from its environment: `env.NAME` anywhere, and the `Env` type's own keys. */
function namesRead(): Set<string> {
  const names = new Set<string>();
  const code = Object.entries(sources).filter(([file]) => !file.endsWith("worker-configuration.d.ts"));
  for (const [, text] of code)
    for (const m of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(m[1] as string);
  for (const m of config.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\??:/gm)) names.add(m[1] as string);
  return names;
}

/** The names README's Configuration table documents, each row's first cell. */
function namesDocumented(): Set<string> {
  const section = readme.slice(
    readme.indexOf("## Configuration"),
    readme.indexOf("\n## ", readme.indexOf("## Configuration") + 1),
  );
  const names = new Set<string>();
  for (const row of section.split("\n").filter((line) => line.startsWith("| `")))
    for (const m of (row.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1] as string);
  return names;
}

describe("the docs match the code", () => {
  it("every variable and binding the code reads is in README's Configuration table", () => {
    const read = namesRead();
    expect(read.size).toBeGreaterThan(15);
    const documented = namesDocumented();
    expect([...read].filter((name) => !documented.has(name)).sort()).toEqual([]);
  });

  it("every `npm run` command in README and docs/ is a script of package.json", () => {
    const scripts = new Set(Object.keys(packageJson.scripts));
    const pages = { "README.md": readme, ...docs };
    const missing = Object.entries(pages).flatMap(([page, text]) =>
      [...text.matchAll(/npm run ([a-z][\w:-]*)/g)]
        .map((m) => m[1] as string)
        .filter((name) => !scripts.has(name))
        .map((name) => `${page}: npm run ${name}`),
    );
    expect(Object.keys(pages).length).toBeGreaterThan(3);
    expect([...new Set(missing)]).toEqual([]);
  });
});
