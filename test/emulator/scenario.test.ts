import { describe, expect, it } from "vitest";
import { createEmulatorApp } from "../../dev/emulator/emulator-app.ts";
import readme from "../../dev/emulator/README.md?raw";
import type { TestRun } from "../../src/decipher/types.ts";
import { createVendorClient } from "../../src/decipher/vendor-client.ts";
import { classifyTest } from "../../src/model/test-classification.ts";
import { ACME, baseUrl, emulator, getJson, type Json } from "./helpers.ts";

const tick = async (key: string) => (await emulator.org(key).tick()).changes[key] as Json[];
const noisy = (apiKey: string) => emulator.org(apiKey).scenario("noisy");

async function runsOf(key: string, testId: number): Promise<TestRun[]> {
  const vendor = createVendorClient({ baseUrl: baseUrl(), apiKey: key });
  return (await vendor.listTestRuns(testId, { limit: 100 })).data;
}

const outcomes = (changes: Json[]) =>
  changes
    .filter((c) => c.kind === "run")
    .map((c) => `${c.testId}:${{ failed: "F", passed: "P", running: "R" }[c.status as "failed"]}`);

describe("the noisy scenario", () => {
  it("records a day of /checkout traffic with timelines as soon as it starts", async () => {
    const key = await emulator.newOrg();
    const before = await getJson("/sessions?url=/checkout&limit=100&since=2000-01-01", key);
    const started = await noisy(key);
    expect(started.changes[key]).toEqual([{ kind: "pageSessions", path: "/checkout", added: 12 }]);
    const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
    const after = await getJson(`/sessions?url=/checkout&limit=100&since=${since}`, key);
    const fresh = after.data.filter((s: Json) => !before.data.some((b: Json) => b.id === s.id));
    expect(fresh).toHaveLength(12);
    for (const s of fresh) expect(s.hasTimeline).toBe(true);
    const timeline = await getJson(`/sessions/${fresh[0].id}/timeline`, key);
    expect(timeline.pages.map((p: Json) => p.page).join(" ")).toContain("/checkout");
  });

  it("fails a test now and then, then all of them at once, then flaps them, and keeps visitors coming", async () => {
    const key = await emulator.newOrg();
    await noisy(key);
    const ticks: Json[][] = [];
    for (let i = 0; i < 11; i++) ticks.push(await tick(key));
    const byTest = (id: number) =>
      ticks
        .map(outcomes)
        .map((o) => o.find((x) => x.startsWith(`${id}:`))?.slice(-1))
        .join("");
    expect(byTest(101)).toBe("PPPPPPPPFFF");
    expect(byTest(102)).toBe("PPFPPPPPFFF");
    expect(byTest(103)).toBe("PPPPFPPPFFF");
    // The outage: ticks 9–11 fail every test, and collection 501 grows meanwhile.
    for (const t of ticks.slice(8)) {
      expect(outcomes(t)).toEqual(["101:F", "102:F", "103:F"]);
      expect(t.some((c) => c.kind === "collectionGrew" && c.collectionId === 501)).toBe(true);
    }
    for (const t of ticks) expect(t.find((c) => c.kind === "pageSessions")?.added).toBeGreaterThan(0);
  });

  it("gives the classifier no flaky test before the outage, broken ones during it and flaky ones after", async () => {
    const key = await emulator.newOrg();
    await noisy(key);
    for (let i = 0; i < 8; i++) await tick(key);
    for (const id of [101, 102, 103])
      expect(classifyTest(await runsOf(key, id), new Date()).kind).not.toBe("flaky");
    for (let i = 0; i < 3; i++) await tick(key);
    for (const id of [101, 102, 103])
      expect(classifyTest(await runsOf(key, id), new Date()).kind).toBe("broken");
    for (let i = 0; i < 5; i++) await tick(key);
    for (const id of [101, 102, 103])
      expect(classifyTest(await runsOf(key, id), new Date()).kind).toBe("flaky");
  });

  it("is the same for the same ticks, and `cycle` brings the four-step demo back", async () => {
    const [a, b] = [await emulator.newOrg(), await emulator.newOrg()];
    await noisy(a);
    await noisy(b);
    expect([await tick(a), await tick(a)]).toEqual([await tick(b), await tick(b)]);
    await emulator.org(a).scenario("cycle");
    expect(outcomes(await tick(a))).toEqual(["101:F", "103:R"]);
  });

  it("refuses an unknown scenario", async () => {
    await expect(
      emulator.call("POST", "/scenario", { apiKey: await emulator.newOrg(), name: "chaos" }),
    ).rejects.toThrow(/answered 400: .*"field":"name"/);
  });

  it("is what SIMULATE=noisy starts the demo orgs in", async () => {
    const emulator = createEmulatorApp({ scenario: "noisy" });
    const since = new Date(Date.now() - 24 * 3_600_000).toISOString();
    const res = await emulator.app.fetch(
      new Request(`http://emulator.test/api/v1/sessions?url=/checkout&limit=100&since=${since}`, {
        headers: { authorization: `Bearer ${ACME}` },
      }),
    );
    expect(((await res.json()) as Json).data.length).toBeGreaterThanOrEqual(12);
    expect(outcomes(emulator.tickDemo()[ACME] as Json[])).toEqual(["101:P", "102:P", "103:P"]);
  });
});

describe("dev/emulator/README.md", () => {
  // The README's tables, read as the emulator plays them: a table that drifts from the script
  // fails here.
  const lines = readme.split("\n");
  const row = (pattern: RegExp) => lines.find((line) => pattern.test(line)) ?? "";

  it("gives each noisy test's 16 ticks as the scenario plays them", async () => {
    const key = await emulator.newOrg();
    await noisy(key);
    const ticks: Json[][] = [];
    for (let i = 0; i < 16; i++) ticks.push(await tick(key));
    for (const id of [101, 102, 103]) {
      const played = ticks
        .map((t) =>
          outcomes(t)
            .find((x) => x.startsWith(`${id}:`))
            ?.slice(-1),
        )
        .join("");
      expect(row(new RegExp(`^\\| ${id} +\\| \``)), `test ${id}`).toContain(`\`${played}\``);
    }
  });

  it("says which of Acme's tests fail at each step of the cycle: at most two of three", async () => {
    const key = await emulator.newOrg();
    for (let step = 1; step <= 4; step++) {
      const failed = (await tick(key))
        .filter((c) => (c.kind === "run" || c.kind === "runFinished") && c.status === "failed")
        .map((c) => String(c.testId));
      expect(failed.length, `step ${step}`).toBeLessThanOrEqual(2);
      const said = row(new RegExp(`^\\| ${step} +\\|`)).split("|")[2] ?? "";
      for (const id of failed)
        expect(said, `step ${step}`).toMatch(new RegExp(`${id}( run \\*\\*fails| failed)`));
    }
  });
});
