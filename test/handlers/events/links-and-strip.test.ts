import { describe, expect, it } from "vitest";
import {
  decipherLinks,
  MAX_LINKS_PER_EVENT,
  parseDecipherLink,
} from "../../../src/handlers/unfurl/decipher-links.ts";
import { runStrip } from "../../../src/messages/run-strip.ts";

const APP = "https://app.getdecipher.com";
const SID = "3f0c1a52-8c1e-4f63-9a7e-2b4d5c6e7f80";

describe("parseDecipherLink", () => {
  it.each([
    [`${APP}/sessions/${SID}`, { kind: "session", sessionId: SID }],
    [`${APP}/sessions/${SID.toUpperCase()}/?t=30#x`, { kind: "session", sessionId: SID }],
    [`${APP}/tests/101`, { kind: "test", testId: 101 }],
    [`${APP}/tests/101/runs/10029`, { kind: "run", testId: 101, runId: 10029 }],
  ])("reads %s", (url, expected) => {
    expect(parseDecipherLink(url, APP)).toMatchObject({ ...expected, url });
  });

  it.each([
    "https://example.com/tests/101",
    "https://app.getdecipher.com.evil.com/tests/101",
    `${APP}/sessions/not-a-uuid`,
    `${APP}/tests/0`,
    `${APP}/tests/abc`,
    `${APP}/tests/101/runs`,
    `${APP}/collections/501`,
    `ftp://app.getdecipher.com/tests/101`,
    "not a url",
  ])("leaves %s alone", (url) => {
    expect(parseDecipherLink(url, APP)).toBeNull();
  });

  it("honours an app served under a path", () => {
    expect(parseDecipherLink("https://x.test/decipher/tests/7", "https://x.test/decipher")).toMatchObject({
      testId: 7,
    });
    expect(parseDecipherLink("https://x.test/tests/7", "https://x.test/decipher")).toBeNull();
  });

  it("handles each URL once and at most five per event", () => {
    const urls = [
      `${APP}/tests/1`,
      `${APP}/tests/1`,
      ...Array.from({ length: 9 }, (_, i) => `${APP}/tests/${i + 2}`),
    ];
    const links = decipherLinks(urls, APP);
    expect(links).toHaveLength(MAX_LINKS_PER_EVENT);
    expect(new Set(links.map((l) => l.url)).size).toBe(MAX_LINKS_PER_EVENT);
  });
});

describe("runStrip", () => {
  const run = (id: number, status: "passed" | "failed" | "running", minute: number) => ({
    id,
    status,
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
  });

  it("shows the last ten runs oldest first, newest last, whatever order they come in", () => {
    const runs = Array.from({ length: 12 }, (_, i) => run(i + 1, i % 3 === 0 ? "failed" : "passed", i));
    const strip = [...runStrip([...runs].reverse())];
    expect(strip).toHaveLength(10);
    // Runs 3..12: run 4, 7, 10 failed (i = 3, 6, 9).
    expect(strip.join("")).toBe("🟩🟥🟩🟩🟥🟩🟩🟥🟩🟩");
  });

  it("marks running runs and is empty without runs", () => {
    expect(runStrip([run(1, "passed", 1), run(2, "running", 2)])).toBe("🟩⬜");
    expect(runStrip([])).toBe("");
  });

  it("orders runs created at the same time by id", () => {
    expect(runStrip([run(2, "failed", 1), run(1, "passed", 1)])).toBe("🟩🟥");
  });
});
