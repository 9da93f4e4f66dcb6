import { afterEach, describe, expect, it, vi } from "vitest";
import { formatSlackDate, renderMrkdwn } from "../../dev/slack/page/mrkdwn.js";
import {
  messageTime,
  parseReadingClock,
  readingHref,
  readingNote,
  retime,
} from "../../dev/slack/page/reading-clock.js";

// The sandbox page's reading clock (`?at=+1h`): what a message says an hour or a day after it
// was posted, without moving the computer's clock. workerd reads in UTC and en-US.

const POSTED = Date.UTC(2026, 10, 24, 9, 5) / 1000;
const HOUR = 3_600_000;

type FakeNode = {
  textContent: string;
  children?: (FakeNode | string)[];
  getAttribute?: (name: string) => string | null;
};

/** Just enough of the DOM for mrkdwn.js to render a line: workerd has none. */
function fakeDocument() {
  const element = (tag: string) => {
    const attrs: Record<string, string> = {};
    const node = {
      tag,
      className: "",
      textContent: "",
      children: [] as unknown[],
      classList: {
        add: (c: string) => {
          node.className += ` ${c}`;
        },
      },
      setAttribute: (name: string, value: unknown) => {
        attrs[name] = String(value);
      },
      getAttribute: (name: string) => attrs[name] ?? null,
      append: (...children: unknown[]) => void node.children.push(...children),
    };
    return node;
  };
  return {
    createElement: element,
    createDocumentFragment: () => element("#fragment"),
    createTextNode: (text: string) => ({ textContent: text }),
  };
}

type Timed = FakeNode & { getAttribute: (name: string) => string | null };

/** The nodes the page re-reads: those that carry the time they show. */
function timed(node: FakeNode | string): Timed[] {
  if (typeof node === "string") return [];
  const own = node.getAttribute?.("data-time") != null ? [node as Timed] : [];
  return [...own, ...(node.children ?? []).flatMap(timed)];
}

describe("the sandbox page's reading clock", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("reads +1h, +1d and +30m from the URL, and real time for none or now", () => {
    expect(parseReadingClock("+1h")).toEqual({ at: "+1h", offsetMs: HOUR, label: "+1 hour" });
    expect(parseReadingClock("+1d")).toEqual({ at: "+1d", offsetMs: 24 * HOUR, label: "+1 day" });
    expect(parseReadingClock("30m")).toMatchObject({ at: "+30m", offsetMs: HOUR / 2, label: "+30 minutes" });
    expect(parseReadingClock(null)).toEqual({ at: "", offsetMs: 0, label: "now" });
    expect(parseReadingClock("now")).toEqual({ at: "", offsetMs: 0, label: "now" });
  });

  it("reads real time and says why for a value it does not know, the past, or more than 30 days", () => {
    for (const bad of ["-1h", "+2w", "+0h", "+31d", "tomorrow"]) {
      const clock = parseReadingClock(bad);
      expect(clock.offsetMs, bad).toBe(0);
      expect(clock.error, bad).toContain(`"?at=${bad}" is not a reading time: use +1h, +1d`);
    }
  });

  it("renders a Slack date token posted now as it reads an hour and a day later", () => {
    const at = (offset: number) => POSTED * 1000 + offset;
    expect(formatSlackDate(POSTED, "{ago}", at(60_000))).toBe("1 minute ago");
    expect(formatSlackDate(POSTED, "{ago}", at(HOUR))).toBe("1 hour ago");
    expect(formatSlackDate(POSTED, "{date_short_pretty} at {time}", at(HOUR))).toBe("today at 9:05 AM");
    expect(formatSlackDate(POSTED, "{date_short_pretty} at {time}", at(24 * HOUR))).toBe(
      "yesterday at 9:05 AM",
    );
    expect(formatSlackDate(POSTED, "{ago}", at(24 * HOUR))).toBe("yesterday");
  });

  it("lists a message's time alone on its day, and with the day once the reading clock passes midnight", () => {
    expect(messageTime(POSTED, POSTED * 1000 + HOUR)).toBe("9:05 AM");
    expect(messageTime(POSTED, POSTED * 1000 + 24 * HOUR)).toBe("yesterday at 9:05 AM");
    expect(messageTime(POSTED, POSTED * 1000 + 72 * HOUR)).toBe("Nov 24, 2026 at 9:05 AM");
  });

  it("re-reads the tokens and message times already drawn as the clock moves, writing only those that changed", () => {
    // A message drawn once stays on screen: "6 minutes ago" must not still say so 2 minutes
    // or a day later (the page rebuilds a message only when its JSON changes).
    vi.stubGlobal("document", fakeDocument());
    const drawn = POSTED * 1000 + 6 * 60_000;
    const line = renderMrkdwn(
      `Run #10072 <!date^${POSTED}^{ago}|${POSTED}> · <!date^${POSTED}^{date_short_pretty} at {time}^https://ci.test/10072|x>`,
      { now: () => drawn },
    ) as unknown as FakeNode;
    const messageTimeNode: Timed = {
      textContent: messageTime(POSTED, drawn),
      getAttribute: (name) => (name === "data-time" ? `${POSTED}.000100` : null),
    };
    const nodes = [...timed(line), messageTimeNode];
    const texts = () => nodes.map((n) => n.textContent);
    expect(texts()).toEqual(["6 minutes ago", "today at 9:05 AM", "9:05 AM"]);

    expect(retime(nodes, drawn + 2 * 60_000)).toBe(1);
    expect(texts()).toEqual(["8 minutes ago", "today at 9:05 AM", "9:05 AM"]);
    expect(retime(nodes, drawn + 2 * 60_000)).toBe(0);

    expect(retime(nodes, POSTED * 1000 + 24 * HOUR)).toBe(3);
    expect(texts()).toEqual(["yesterday", "yesterday at 9:05 AM", "yesterday at 9:05 AM"]);
  });

  it("keeps the workspace and the channel when it changes the reading time in the page's address", () => {
    const href = "http://127.0.0.1:8790/?ws=xoxb-globex#C0DEMO";
    expect(readingHref(href, "+1d")).toBe("/?ws=xoxb-globex&at=%2B1d#C0DEMO");
    expect(readingHref("http://127.0.0.1:8790/?at=%2B1h&ws=x#C0DEMO", "")).toBe("/?ws=x#C0DEMO");
    expect(parseReadingClock(new URL(`http://h${readingHref(href, "+1d")}`).searchParams.get("at")).at).toBe(
      "+1d",
    );
  });

  it("says on the page that only the page reads ahead and when it reads", () => {
    const note = readingNote(parseReadingClock("+1h"), POSTED * 1000);
    expect(note).toContain("Reading clock +1 hour");
    expect(note).toContain("Nov 24, 10:05 AM");
    expect(note).toContain("the bot and the emulator keep real time");
  });
});
