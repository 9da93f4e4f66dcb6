import { describe, expect, it } from "vitest";
import {
  bold,
  code,
  countryLabel,
  dateToken,
  escapeMrkdwn,
  flag,
  link,
  mention,
  safeUrl,
} from "../../src/messages/mrkdwn.ts";

describe("escapeMrkdwn", () => {
  it("escapes the three control characters, & first", () => {
    expect(escapeMrkdwn("a & b < c > d &amp;")).toBe("a &amp; b &lt; c &gt; d &amp;amp;");
  });

  it("turns vendor text that looks like a ping or a link into plain text", () => {
    expect(escapeMrkdwn("<!channel> <https://evil.test|click>")).toBe(
      "&lt;!channel&gt; &lt;https://evil.test|click&gt;",
    );
  });

  it("treats null as empty and repairs lone surrogates", () => {
    expect(escapeMrkdwn(null)).toBe("");
    expect(escapeMrkdwn("a\uD83Db")).toBe("a\uFFFDb");
  });
});

describe("link", () => {
  it("links an https URL with an escaped label", () => {
    expect(link("https://app.test/sessions/1", "Tom & <Jerry>")).toBe(
      "<https://app.test/sessions/1|Tom &amp; &lt;Jerry&gt;>",
    );
  });

  it("escapes & in the URL and percent-encodes characters that would end the link", () => {
    expect(link("https://x.test/a|b>c?q=1&r=2", "x")).toBe("<https://x.test/a%7Cb%3Ec?q=1&amp;r=2|x>");
  });

  it("refuses non-http(s) URLs and garbage, keeping the label as text", () => {
    expect(link("javascript:alert(1)", "click")).toBe("click");
    expect(link("not a url", "a<b")).toBe("a&lt;b");
    expect(link(null, "x")).toBe("x");
  });

  it("uses the host when the label is blank", () => {
    expect(link("https://app.test/x", "  ")).toBe("<https://app.test/x|app.test>");
  });

  it("refuses URLs over 3000 chars", () => {
    expect(safeUrl(`https://x.test/${"a".repeat(3000)}`)).toBeNull();
  });
});

describe("bold and code", () => {
  it("wrap escaped one-line text, and give nothing for blank text", () => {
    expect(bold("a <b>\nc")).toBe("*a &lt;b&gt; c*");
    expect(bold("  ")).toBe("");
    expect(code("a`b")).toBe("`aˋb`");
  });
});

describe("dateToken", () => {
  it("writes a Slack date token with an ISO UTC fallback", () => {
    expect(dateToken("2026-02-16T09:00:00.000Z")).toBe(
      "<!date^1771232400^{date_short_pretty} at {time}|2026-02-16 09:00 UTC>",
    );
  });

  it("says 'unknown time' for an invalid date instead of a broken token", () => {
    expect(dateToken("yesterday-ish")).toBe("unknown time");
    expect(dateToken(null)).toBe("unknown time");
  });
});

describe("flags and mentions", () => {
  it("turns a country code into a flag, either case", () => {
    expect(flag("de")).toBe("🇩🇪");
    expect(countryLabel("US")).toBe("🇺🇸 US");
  });

  it("falls back to the escaped text when it is not a country code", () => {
    expect(flag("DEU")).toBe("");
    expect(countryLabel("<x>")).toBe("&lt;x&gt;");
    expect(countryLabel(null)).toBe("");
  });

  it("mentions only well-formed user ids", () => {
    expect(mention("U012AB3CD")).toBe("<@U012AB3CD>");
    expect(mention("<!channel>")).toBe("someone");
  });
});
