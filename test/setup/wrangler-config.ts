import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The Worker config the tests run with: wrangler.toml, copied into `.wrangler/vitest/` with its
 * `main` made absolute. wrangler reads the `.dev.vars` beside the config it is given, and
 * `npm start` writes one beside wrangler.toml for the sandbox (a random signing secret and
 * token, printed as "Using secrets defined in .dev.vars" once per test file); the tests take
 * their bindings from vitest.config.ts alone. Node only: it runs when vitest loads its config.
 */
export function testWranglerConfig(root: string): string {
  const source = readFileSync(join(root, "wrangler.toml"), "utf8");
  const copy = source.replace(
    /^main = "([^"]+)"$/m,
    (_line, main: string) => `main = ${JSON.stringify(resolve(root, main))}`,
  );
  const dir = join(root, ".wrangler", "vitest");
  const path = join(dir, "wrangler.toml");
  mkdirSync(dir, { recursive: true });
  // Rewritten only when wrangler.toml changed, so a running vitest's watcher is not woken.
  if (!existsSync(path) || readFileSync(path, "utf8") !== copy) writeFileSync(path, copy);
  if (existsSync(join(dir, ".dev.vars"))) throw new Error(`${dir} must not hold a .dev.vars`);
  return path;
}
