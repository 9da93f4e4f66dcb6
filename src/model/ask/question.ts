import { type AskPeriod, readPeriod, todayIn } from "./period.ts";
import { type KnownTest, namedIds, pickTest, type TestPick } from "./test-pick.ts";
import { type AskWord, askWords, FILLER } from "./words.ts";

/**
 * What a person asked the bot in their own words (src/handlers/mentions/app-mention.ts),
 * understood without a model: one of a few intents and its slots.
 */
export type Question =
  /** "what failed today?", "anything broken?", "is checkout broken?" */
  | { intent: "failed"; test: TestPick | null; period: AskPeriod }
  /** "why did checkout fail?", "what happened to test 101?" */
  | { intent: "why-failed"; test: TestPick | null }
  /** "is checkout flaky?" */
  | { intent: "flaky"; test: TestPick | null }
  /** "what did jane@acme.com do today?", "sessions of user:42 this week" */
  | { intent: "sessions"; user: SessionsUser; period: AskPeriod | null }
  /** "what's happening with collection 501?", "what's growing?" */
  | { intent: "collections"; collectionId: number | null }
  /** "help", and anything it cannot place. */
  | { intent: "help" };

export type SessionsUser = { userEmail: string } | { userId: string };

export type AskContext = {
  /** The tests a question may name (the channel's). */
  tests: readonly KnownTest[];
  now: Date;
  /** The IANA zone days and weeks are counted in. */
  zone: string;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/;

function userOf(words: readonly AskWord[]): SessionsUser | null {
  for (const w of words) {
    const email = w.typed.replace(/[.]+$/, "");
    if (EMAIL.test(email)) return { userEmail: email };
    const id = /^user:([a-z0-9_\-.]{1,80})$/.exec(w.typed);
    if (id?.[1]) return { userId: id[1] };
  }
  return null;
}

/** `collection 501`, `collection #501`, `#501 collection`: the id; undefined when no collection is named. */
function collectionOf(words: readonly AskWord[]): number | null | undefined {
  const at = words.findIndex((w) => w.key === "collections");
  if (at < 0) return undefined;
  for (const w of [words[at + 1], words[at - 1]]) {
    const id = /^#?(\d{1,9})$/.exec(w?.typed ?? "");
    if (id) return Number(id[1]);
  }
  return null;
}

/** Words that may be part of a test's name: not keywords, filler, ids, emails or periods. */
function contentWords(words: readonly AskWord[]): string[] {
  return words
    .filter((w) => !w.key)
    .map((w) => w.typed.replace(/^[#.:_-]+|[.:_-]+$/g, ""))
    .filter((t) => t.length > 1 && !FILLER.has(t) && !/^\d+[hd]?$/.test(t) && !t.includes("@"));
}

/** "what went wrong with …", "whats wrong with …": asking why, in words that alone would ask what failed. */
const ASKS_WHY = /\b(went wrong|wrong with|the matter with|what happened)\b/;

function testOf(words: readonly AskWord[], ctx: AskContext): TestPick | null {
  const [id] = namedIds(words, ctx.tests);
  if (id !== undefined) {
    const known = ctx.tests.find((t) => t.id === id);
    return { id, name: known?.name ?? null, sure: true };
  }
  return pickTest(contentWords(words), ctx.tests);
}

/** The question in `text`, with its test, collection, user and period, days counted in `ctx.zone`. */
export function understand(text: string, ctx: AskContext): Question {
  const words = askWords(text);
  const has = (key: string) => words.some((w) => w.key === key);
  const phrase = ` ${words.map((w) => w.typed).join(" ")} `;
  const period = readPeriod(words, ctx.now, ctx.zone);
  const user = userOf(words);
  if (user) return { intent: "sessions", user, period };
  const collectionId = collectionOf(words);
  if (collectionId !== undefined) return { intent: "collections", collectionId };
  const test = testOf(words, ctx);
  if (has("flaky")) return { intent: "flaky", test };
  if (has("why") || ASKS_WHY.test(phrase)) return { intent: "why-failed", test };
  if (has("fail") || has("anything"))
    return { intent: "failed", test, period: period ?? todayIn(ctx.now, ctx.zone) };
  if (test && !has("help") && !has("sessions")) return { intent: "why-failed", test };
  return { intent: "help" };
}
