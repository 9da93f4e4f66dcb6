import { describe, expect, it } from "vitest";
import { baseUrl, getJson } from "./helpers.ts";

/** The stand-in web-app pages the sandbox links to (DECIPHER_APP_URL = the emulator). */
describe("web-app pages", () => {
  it("a session page shows who, when and the AI timeline", async () => {
    const { data } = await getJson("/sessions?userEmail=jane%40acme.com&limit=20");
    const session = data.find((s: { hasTimeline: boolean }) => s.hasTimeline);
    const res = await fetch(`${baseUrl()}/sessions/${session.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html).toContain("Session replay of jane@acme.com");
    expect(html).toContain("AI timeline");
  });

  it("a test page lists its runs, each linking to a run page", async () => {
    const html = await (await fetch(`${baseUrl()}/tests/101`)).text();
    expect(html).toContain("Checkout flow");
    const runLink = /href="(\/tests\/101\/runs\/\d+)"/.exec(html)?.[1];
    expect(runLink).toBeDefined();
    const run = await fetch(`${baseUrl()}${runLink}`);
    expect(run.status).toBe(200);
    expect(await run.text()).toMatch(/run #\d+/);
  });

  it("a collection page (where collection alerts link) lists its sessions, each linking to a session page", async () => {
    const res = await fetch(`${baseUrl()}/monitoring/issue-collections/501`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Issue collection 501");
    expect(html).toMatch(/href="\/sessions\/[0-9a-f-]{36}"/);
    expect((await fetch(`${baseUrl()}/monitoring/issue-collections/999999`)).status).toBe(404);
  });

  it("answers 404 pages for ids it does not know, and escapes what it shows", async () => {
    const res = await fetch(`${baseUrl()}/sessions/%3Cscript%3E`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("<script>");
    expect((await fetch(`${baseUrl()}/tests/999999/runs/1`)).status).toBe(404);
  });
});
