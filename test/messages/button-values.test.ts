import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeMoreValue,
  decodeSessionButtonValue,
  decodeShareValue,
  encodeMoreValue,
  encodeSessionIdValue,
  encodeShareValue,
  toSharedSessionCard,
} from "../../src/messages/button-values.ts";
import { anyCard, nasty, RUNS } from "./arbitraries.ts";
import { aSession, SESSION_ID } from "./fixtures.ts";

const query = fc.record(
  { userEmail: nasty, userId: nasty, url: nasty, since: nasty, until: nasty },
  { requiredKeys: [] },
);
const nonEmpty = (q: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ""));

describe("More button value", () => {
  it("round-trips a query, cursor and page number", () => {
    const more = { query: { userEmail: "jane@acme.com", since: "7d" }, cursor: "c_123", page: 3 };
    const value = encodeMoreValue(more);
    expect(value).not.toBeNull();
    expect(decodeMoreValue(value)).toEqual(more);
  });

  it("encodes the first page (no cursor) for the way back", () => {
    const first = { query: { url: "/checkout" }, cursor: null, page: 1 };
    expect(decodeMoreValue(encodeMoreValue(first))).toEqual(first);
  });

  it("reads values written before pages were counted as page 2", () => {
    expect(decodeMoreValue(JSON.stringify({ v: 1, q: { userId: "u1" }, c: "c9" }))).toEqual({
      query: { userId: "u1" },
      cursor: "c9",
      page: 2,
    });
  });

  it.each([0, -1, 1.5, "2", 10_001])("refuses a tampered page number %s", (p) => {
    expect(decodeMoreValue(JSON.stringify({ v: 1, q: { userId: "u1" }, c: "c9", p }))).toBeNull();
  });

  it("round-trips any query that fits, within 2000 chars", () => {
    fc.assert(
      fc.property(query, fc.string({ minLength: 1, maxLength: 100 }), (q, cursor) => {
        const value = encodeMoreValue({ query: q, cursor, page: 2 });
        if (value === null) return;
        expect(value.length).toBeLessThanOrEqual(2000);
        const decoded = decodeMoreValue(value);
        expect(decoded?.cursor).toBe(cursor);
        const { url, ...rest } = nonEmpty(q);
        const { url: decodedUrl, ...decodedRest } = decoded?.query ?? {};
        expect(decodedRest).toEqual(rest);
        // The url filter alone may be shortened, to a prefix.
        if (decodedUrl !== undefined) expect(url?.startsWith(decodedUrl)).toBe(true);
      }),
      RUNS,
    );
  });

  it("shortens an over-long url filter to fit 2000 chars rather than dropping the button", () => {
    const url = `/checkout/${"x".repeat(3000)}`;
    const value = encodeMoreValue({ query: { url, userEmail: "jane@acme.com" }, cursor: "c", page: 2 });
    expect(value?.length).toBeLessThanOrEqual(2000);
    const decoded = decodeMoreValue(value);
    expect(decoded?.query.userEmail).toBe("jane@acme.com");
    expect(url.startsWith(decoded?.query.url ?? "")).toBe(true);
    expect(decoded?.query.url?.length).toBeGreaterThan(1500);
  });

  it("gives no value when even the cursor does not fit", () => {
    expect(encodeMoreValue({ query: {}, cursor: "c".repeat(2100), page: 2 })).toBeNull();
  });

  it.each([
    "",
    "garbage",
    "{}",
    "[]",
    "null",
    '{"v":2,"q":{},"c":"x"}',
    '{"v":1,"q":{"token":"x"},"c":"x"}',
    '{"v":1,"q":{"url":5},"c":"x"}',
    '{"v":1,"q":{},"c":""}',
  ])("rejects %j", (value) => {
    expect(decodeMoreValue(value)).toBeNull();
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json(), fc.anything()), (v) => {
        expect(() => decodeMoreValue(v)).not.toThrow();
      }),
      RUNS,
    );
  });
});

describe("Share button value", () => {
  it("round-trips a session card", () => {
    const card = toSharedSessionCard(aSession());
    expect(decodeShareValue(encodeShareValue(card))).toEqual(card);
  });

  it("fits 2000 chars and decodes to the same session, whatever the display strings", () => {
    fc.assert(
      fc.property(anyCard, fc.uuid(), (card, id) => {
        const value = encodeShareValue({ ...card, id });
        expect(value).not.toBeNull();
        expect(value?.length).toBeLessThanOrEqual(2000);
        const decoded = decodeShareValue(value);
        expect(decoded?.id).toBe(id);
        expect(decoded?.hasTimeline).toBe(card.hasTimeline);
      }),
      RUNS,
    );
  });

  it("cannot share a session without a UUID", () => {
    expect(encodeShareValue({ ...toSharedSessionCard(aSession()), id: "../admin" })).toBeNull();
  });

  it.each([
    "",
    "x",
    "[1]",
    `[1,"not-a-uuid","",null,null,null,null,null,null,0]`,
    `[1,"${SESSION_ID}","",null,null,null,null,null,null,2]`,
  ])("rejects %j", (value) => {
    expect(decodeShareValue(value)).toBeNull();
  });
});

describe("Timeline and Clicks button values", () => {
  it("carry the session UUID and nothing else", () => {
    expect(encodeSessionIdValue(SESSION_ID)).toBe(SESSION_ID);
    expect(decodeSessionButtonValue(SESSION_ID)).toEqual({ id: SESSION_ID, card: null, collectionId: null });
  });

  it.each(["", "1234", `${SESSION_ID}x`, "../../etc", null, 42])("reject %j", (value) => {
    expect(decodeSessionButtonValue(value)).toBeNull();
  });
});
