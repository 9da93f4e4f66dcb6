// The browser finder's order and its failure messages, on pretend machines (no browser started).
import assert from "node:assert/strict";
import { test } from "node:test";
import { type FinderHost, findBrowser, OFFLINE_ARGS, systemCandidates } from "./find-browser.ts";

const SPARTICUZ = "/tmp/decipher-slack-chromium-153.0.0/chromium";

function host(over: Partial<FinderHost> & { executables?: string[] } = {}) {
  const unpacked: string[] = [];
  const { executables = [], ...rest } = over;
  const h: FinderHost = {
    env: { PATH: "/usr/local/bin:/usr/bin" },
    platform: "linux",
    arch: "x64",
    isExecutable: (path) => executables.includes(path),
    unpackSparticuz: async () => {
      unpacked.push("yes");
      return { executablePath: SPARTICUZ, args: ["--headless='shell'", "--single-process"] };
    },
    ...rest,
  };
  return { h, unpacked };
}

test("CHROMIUM_PATH wins over a system browser", async () => {
  const { h, unpacked } = host({
    env: { CHROMIUM_PATH: "/opt/chrome/chrome", PATH: "/usr/bin" },
    executables: ["/opt/chrome/chrome", "/usr/bin/chromium"],
  });
  const found = await findBrowser(h);
  assert.equal(found.executablePath, "/opt/chrome/chrome");
  assert.equal(found.source, "CHROMIUM_PATH");
  assert.deepEqual(unpacked, []);
});

test("a CHROMIUM_PATH that does not exist is an error naming it, not a silent fallback", async () => {
  const { h } = host({ env: { CHROMIUM_PATH: "/nope/chromium" }, executables: ["/usr/bin/chromium"] });
  await assert.rejects(findBrowser(h), /CHROMIUM_PATH=\/nope\/chromium is not an executable/);
});

test("system browsers: Debian's /usr/bin/chromium first, then the other names and PATH", async () => {
  const candidates = systemCandidates({ PATH: "/usr/local/bin:/usr/bin" });
  assert.equal(candidates[0], "/usr/bin/chromium");
  assert.ok(candidates.indexOf("/usr/bin/google-chrome") < candidates.indexOf("/usr/local/bin/chromium"));
  assert.equal(new Set(candidates).size, candidates.length, "no path twice");

  const { h, unpacked } = host({
    executables: ["/usr/local/bin/google-chrome", "/usr/bin/chromium-browser"],
  });
  const found = await findBrowser(h);
  assert.equal(found.executablePath, "/usr/bin/chromium-browser");
  assert.equal(found.source, "system");
  assert.ok(found.args.includes("--headless"));
  assert.deepEqual(unpacked, []);
});

test("no system browser on Linux x64: @sparticuz/chromium with its own switches plus the offline ones", async () => {
  const { h, unpacked } = host();
  const found = await findBrowser(h);
  assert.deepEqual(unpacked, ["yes"]);
  assert.equal(found.executablePath, SPARTICUZ);
  assert.equal(found.source, "@sparticuz/chromium");
  assert.deepEqual(found.args, ["--headless='shell'", "--single-process", ...OFFLINE_ARGS]);
});

for (const [platform, arch, why] of [
  ["darwin", "arm64", /only runs on Linux, not darwin/],
  ["win32", "x64", /only runs on Linux, not win32/],
  ["linux", "arm64", /Linux x64 only, not arm64/],
] as const) {
  test(`no browser on ${platform} ${arch}: fails naming the fix`, async () => {
    const { h, unpacked } = host({ platform, arch });
    await assert.rejects(findBrowser(h), (error: Error) => {
      assert.match(error.message, why);
      assert.match(error.message, /set CHROMIUM_PATH/);
      assert.match(error.message, /apt-get install -y chromium/);
      return true;
    });
    assert.deepEqual(unpacked, []);
  });
}
