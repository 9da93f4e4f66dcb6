import { closeTo } from "../../util/edit-distance.ts";

/**
 * A question as words: lower case, Slack's mention and link tokens taken apart, punctuation
 * gone but for what emails and `user:<id>` need, each word with the keyword it stands for
 * when it is one, mistyped or not ("faild" → `fail`).
 */
export type AskWord = { typed: string; key: string | null };

/** The keywords the intents and periods are read from, each with the spellings that mean it. */
const KEYWORDS: Record<string, readonly string[]> = {
  fail: [
    "fail",
    "failed",
    "failing",
    "fails",
    "failure",
    "failures",
    "broken",
    "broke",
    "break",
    "breaking",
    "breaks",
    "red",
    "down",
    "wrong",
    "status",
    "health",
    "outage",
    "issue",
    "issues",
    "problem",
    "problems",
    "error",
    "errors",
    "erroring",
    "crash",
    "crashed",
    "crashing",
    "passing",
    "pass",
    "green",
    "working",
    "work",
  ],
  why: ["why", "whyd", "happened", "reason", "cause", "caused", "explain", "details"],
  flaky: [
    "flaky",
    "flakey",
    "flaking",
    "flake",
    "flakes",
    "flakiness",
    "unstable",
    "intermittent",
    "intermittently",
    "randomly",
    "sometimes",
  ],
  sessions: ["sessions", "session", "recordings", "replays", "replay"],
  collections: ["collection", "collections", "growing", "grows", "grew", "growth", "spreading", "trending"],
  help: ["help", "commands", "usage", "examples", "howto"],
  anything: ["anything", "something", "attention", "look", "happening", "going"],
  today: ["today", "tonight", "morning"],
  yesterday: ["yesterday"],
  week: ["week", "weeks"],
  day: ["day", "days"],
  hour: ["hour", "hours", "hrs"],
  since: ["since"],
  last: ["last", "past", "previous"],
  tests: ["test", "tests"],
  monday: ["monday", "mon"],
  tuesday: ["tuesday", "tue", "tues"],
  wednesday: ["wednesday", "wed"],
  thursday: ["thursday", "thu", "thurs"],
  friday: ["friday", "fri"],
  saturday: ["saturday", "sat"],
  sunday: ["sunday", "sun"],
};

const SPELLINGS = new Map(
  Object.entries(KEYWORDS).flatMap(([key, spellings]) => spellings.map((s) => [s, key] as const)),
);
/** Mistypes are matched against the longer spellings only: "red" or "mon" must be typed as they are. */
const FUZZY = [...SPELLINGS.keys()].filter((s) => s.length >= 5);

/** The keyword a typed word stands for, mistyped or not; null when it is none. */
export function keyOf(typed: string): string | null {
  const exact = SPELLINGS.get(typed);
  if (exact) return exact;
  if (typed.length < 4 || /\d/.test(typed)) return null;
  const near = FUZZY.find((s) => closeTo(typed, s));
  return near ? (SPELLINGS.get(near) ?? null) : null;
}

/** Lower case, apostrophes dropped, Slack's `<mailto:x|x>` and `<@U…>` tokens undone, other marks spaces. */
export function plainText(text: string): string {
  return text
    .replace(/<@[UW][A-Z0-9]+(?:\|[^>]*)?>/g, " ")
    .replace(/<(?:mailto:)?([^|>]+)(?:\|[^>]*)?>/g, " $1 ")
    .toLowerCase()
    .replace(/(@[^\s]+\.[a-z]{2,})['’]s\b/g, "$1")
    .replace(/['’`]/g, "")
    .replace(/[^a-z0-9@._:#+\-\s]/g, " ")
    .replace(/(^|\s)[-.:]+|[-.:]+(?=\s|$)/g, " ");
}

export function askWords(text: string): AskWord[] {
  return plainText(text)
    .split(/\s+/)
    .filter(Boolean)
    .map((typed) => ({ typed, key: keyOf(typed) }));
}

/** Words that say nothing of what is asked or about what: left out of a test's name. */
export const FILLER = new Set(
  (
    "a an the is are was were be been it its this that these those there here what whats which who " +
    "did do does done has have had get got any anything of to for on in at with by from and or but " +
    "me my our we us you your i im can could would should will please pls plz hey hi hello ok so " +
    "about tell show give see know let lets up now right just still again today yesterday why how " +
    "when happened happening going on check checking today all run runs ran latest last most recent"
  ).split(" "),
);
