// Which Chromium the browser test drives, found without any install step:
//   1. CHROMIUM_PATH, when set (it must exist: a typo is an error, not a silent fallback);
//   2. a system Chromium or Chrome (Debian's /usr/bin/chromium, chromium-browser, google-chrome…);
//   3. on Linux x64, the headless Chromium inside the @sparticuz/chromium devDependency, unpacked
//      once into the temp directory (≈1.5 s the first time, reused afterwards).
// Anywhere else it fails with a message that names the fix.
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export type FoundBrowser = {
  executablePath: string;
  /** Command-line switches for `chromium.launch({ args })`. */
  args: string[];
  source: "CHROMIUM_PATH" | "system" | "@sparticuz/chromium";
};

/** What the finder looks at; the defaults are the real machine, tests pass their own. */
export type FinderHost = {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  arch: string;
  isExecutable: (path: string) => boolean;
  /** Unpacks @sparticuz/chromium and returns its binary and recommended switches. */
  unpackSparticuz: () => Promise<{ executablePath: string; args: string[] }>;
};

/** Switches for a machine without network: otherwise Chromium waits on connections it cannot make. */
export const OFFLINE_ARGS = [
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A desktop Chromium or Chrome run headless by playwright-core. */
const SYSTEM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", ...OFFLINE_ARGS];

const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const SYSTEM_PATHS = [
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

export const NO_BROWSER_HINT =
  "set CHROMIUM_PATH to a Chromium or Chrome binary, or install one (Debian/Ubuntu: apt-get install -y chromium; macOS: brew install --cask chromium)";

/** System browsers in the order they are tried: /usr/bin first, then the rest of PATH, then macOS apps. */
export function systemCandidates(env: FinderHost["env"]): string[] {
  const dirs = ["/usr/bin", ...(env.PATH ?? "").split(delimiter).filter(Boolean)];
  const paths = dirs.flatMap((dir) => SYSTEM_NAMES.map((name) => join(dir, name)));
  return [...new Set([...paths, ...SYSTEM_PATHS])];
}

export async function findBrowser(host: FinderHost = realHost()): Promise<FoundBrowser> {
  const fromEnv = host.env.CHROMIUM_PATH?.trim();
  if (fromEnv) {
    if (!host.isExecutable(fromEnv)) {
      throw new Error(
        `CHROMIUM_PATH=${fromEnv} is not an executable file; unset it or point it at a browser`,
      );
    }
    return { executablePath: fromEnv, args: SYSTEM_ARGS, source: "CHROMIUM_PATH" };
  }
  const system = systemCandidates(host.env).find((path) => host.isExecutable(path));
  if (system) return { executablePath: system, args: SYSTEM_ARGS, source: "system" };
  if (host.platform === "linux" && host.arch === "x64") {
    const { executablePath, args } = await host.unpackSparticuz();
    return { executablePath, args: [...args, ...OFFLINE_ARGS], source: "@sparticuz/chromium" };
  }
  const why =
    host.platform === "linux"
      ? `the Chromium inside @sparticuz/chromium's npm package is built for Linux x64 only, not ${host.arch}`
      : `@sparticuz/chromium only runs on Linux, not ${host.platform}`;
  throw new Error(`No Chromium found for the browser test: ${why}; ${NO_BROWSER_HINT}`);
}

function realHost(): FinderHost {
  return {
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    isExecutable: (path) => {
      try {
        accessSync(path, constants.X_OK);
        // A directory is "executable" too, e.g. an empty one mounted over /usr/bin/chromium.
        return statSync(path).isFile();
      } catch {
        return false;
      }
    },
    unpackSparticuz,
  };
}

/**
 * `executablePath()` inflates into `os.tmpdir()` and reuses whatever `chromium` it finds
 * there, even half-written by another process. So each unpack goes into a fresh directory
 * (TMPDIR pointed at it for the call) that is renamed into place in one step; a process that
 * loses that race drops its copy and uses the winner's.
 */
async function unpackSparticuz(): Promise<{ executablePath: string; args: string[] }> {
  const { default: chromium } = await import("@sparticuz/chromium");
  const entry = fileURLToPath(import.meta.resolve("@sparticuz/chromium"));
  const { version } = JSON.parse(readFileSync(join(dirname(entry), "..", "package.json"), "utf8")) as {
    version: string;
  };
  const dir = join(tmpdir(), `decipher-slack-chromium-${version}`);
  const executablePath = join(dir, "chromium");
  if (!existsSync(executablePath)) {
    const partial = mkdtempSync(`${dir}.partial-`);
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = partial;
    try {
      await chromium.executablePath();
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    try {
      renameSync(partial, dir);
    } catch {
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(executablePath)) throw new Error(`could not unpack @sparticuz/chromium into ${dir}`);
    }
  }
  return { executablePath, args: chromium.args };
}
