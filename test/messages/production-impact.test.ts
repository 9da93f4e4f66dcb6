import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { visibleText } from "../../dev/in-workerd/bot.ts";
import {
  IMPACT_REPLAY_ACTION_ID,
  productionImpactBlocks,
  productionImpactLine,
} from "../../src/messages/production-impact-blocks.ts";
import type { ImpactResult, ProductionImpact } from "../../src/model/production-impact.ts";
import { assertWithinSlackLimits } from "../helpers/block-kit.ts";
import { productionImpactMessage } from "../helpers/production-impact.ts";
import { anyDate, anyUrl, nasty, RUNS } from "./arbitraries.ts";
import { APP, SESSION_ID } from "./fixtures.ts";

function impact(overrides: Partial<ProductionImpact> = {}): ProductionImpact {
  return {
    unavailable: false,
    page: "/checkout",
    since: "2026-02-15T12:00:00.000Z",
    sessions: 37,
    more: false,
    example: {
      sessionId: SESSION_ID,
      createdAt: "2026-02-16T09:00:00.000Z",
      userEmail: "jane@acme.com",
      hasTimeline: true,
      overview: "Jane added two items to the cart and was stuck on the payment step.",
    },
    collections: [
      {
        id: 501,
        rootCause: "TypeError in PaymentForm.submit",
        path: "/checkout/payment",
        sessions: 4,
        addedToday: 5,
      },
    ],
    ...overrides,
  };
}

const build = (result: ImpactResult) => productionImpactMessage({ impact: result, appUrl: APP });

describe("production impact blocks", () => {
  it("say how many sessions reached the page in 24 h and which watched collections sit on it", () => {
    expect(productionImpactLine(impact())).toBe(
      "*Production:* 37 sessions on `/checkout` in 24 h; 4 in 'TypeError in PaymentForm.submit' (+5 in 24 h)",
    );
    const two = impact({
      collections: [
        { id: 501, rootCause: "TypeError", path: "/checkout", sessions: 1200, addedToday: null },
        { id: 502, rootCause: "", path: "/checkout", sessions: 2, addedToday: 0 },
      ],
    });
    expect(productionImpactLine(two)).toBe(
      "*Production:* 37 sessions on `/checkout` in 24 h; 1,200 in 'TypeError'; 2 in 'collection 502'",
    );
  });

  it("say 100+ past one page, one session in the singular, and none when none came", () => {
    expect(productionImpactLine(impact({ sessions: 100, more: true, collections: [] }))).toBe(
      "*Production:* 100+ sessions on `/checkout` in 24 h",
    );
    expect(productionImpactLine(impact({ sessions: 1, collections: [] }))).toMatch(/ 1 session on /);
    expect(productionImpactLine(impact({ sessions: 0, example: null, collections: [] }))).toBe(
      "*Production:* no sessions on `/checkout` in 24 h",
    );
  });

  it("show one example session with its overview cut to about 200 characters and a replay button", () => {
    const long = impact({
      example: {
        ...(impact().example as NonNullable<ProductionImpact["example"]>),
        overview: "word ".repeat(200),
      },
    });
    const blocks = productionImpactBlocks({ impact: long, appUrl: APP });
    expect(blocks).toHaveLength(2);
    const example = blocks[1];
    if (example?.type !== "section") throw new Error("expected a section");
    // A date token, not "3 h ago": the alert is read and re-rendered long after it was posted.
    expect(example.text?.text).toMatch(
      /^\*Example:\* jane@acme\.com, <!date\^\d+\^[^|]+\|[^>]+>\n“(word ){30,}/,
    );
    expect(example.text?.text.length).toBeLessThan(320);
    expect(example.text?.text).toContain("…”");
    expect(example.accessory).toMatchObject({
      type: "button",
      text: { text: "▶ Watch replay" },
      action_id: IMPACT_REPLAY_ACTION_ID,
      url: `${APP}/sessions/${SESSION_ID}`,
    });
  });

  it("say why there is no overview, and show no example when there is no session", () => {
    const base = impact().example as NonNullable<ProductionImpact["example"]>;
    expect(visibleText(build(impact({ example: { ...base, overview: null } })))).toContain(
      "(no AI overview fetched)",
    );
    expect(
      visibleText(build(impact({ example: { ...base, overview: null, hasTimeline: false } }))),
    ).toContain("(no AI timeline for this session)");
    expect(build(impact({ sessions: 0, example: null })).blocks).toHaveLength(1);
  });

  it("say the impact is unavailable, and why, in small print", () => {
    const message = build({ unavailable: true, page: "/checkout", reason: "Decipher answered 500" });
    expect(message.text).toBe("Production impact on `/checkout` unavailable (Decipher answered 500).");
    expect(message.blocks).toEqual([
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: ":grey_question: Production impact on `/checkout` unavailable (Decipher answered 500).",
          },
        ],
      },
    ]);
  });

  it("escape what Decipher and people wrote", () => {
    const text = visibleText(
      build(
        impact({
          page: "/a`b<!channel>",
          collections: [
            { id: 1, rootCause: "<!here> & <https://evil.test|x>", path: "/a", sessions: 1, addedToday: 1 },
          ],
        }),
      ),
    );
    expect(text).not.toMatch(/<!here>|<!channel>|<https:\/\/evil/);
    expect(text).toContain("&lt;!here&gt; &amp;");
  });

  it("stay within Slack's limits whatever the vendor sends", { timeout: 30_000 }, () => {
    const anyImpact: fc.Arbitrary<ImpactResult> = fc.oneof(
      fc.record({ unavailable: fc.constant(true as const), page: nasty, reason: nasty }),
      fc.record({
        unavailable: fc.constant(false as const),
        page: nasty,
        since: anyDate,
        sessions: fc.integer({ min: 0, max: 100 }),
        more: fc.boolean(),
        example: fc.option(
          fc.record({
            sessionId: fc.oneof(fc.uuid(), nasty),
            createdAt: anyDate,
            userEmail: fc.option(nasty, { nil: null }),
            hasTimeline: fc.boolean(),
            overview: fc.option(nasty, { nil: null }),
          }),
          { nil: null },
        ),
        collections: fc.array(
          fc.record({
            id: fc.integer({ min: 1 }),
            rootCause: nasty,
            path: nasty,
            sessions: fc.integer({ min: 0 }),
            addedToday: fc.option(fc.integer(), { nil: null }),
          }),
          { maxLength: 8 },
        ),
      }),
    );
    fc.assert(
      fc.property(anyImpact, anyUrl, (result, appUrl) => {
        const input = { impact: result, appUrl };
        assertWithinSlackLimits(productionImpactMessage(input));
        // Unfitted too: the blocks are meant to be spliced into an alert.
        assertWithinSlackLimits({
          text: productionImpactLine(result),
          blocks: productionImpactBlocks(input),
        });
      }),
      RUNS,
    );
  });
});
