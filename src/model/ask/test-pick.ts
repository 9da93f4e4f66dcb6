import { closeTo } from "../../util/edit-distance.ts";
import { type AskWord, FILLER, plainText } from "./words.ts";

/** A test the caller knows of (the channel's, or the workspace's): what a question may name. */
export type KnownTest = { id: number; name: string };

/**
 * The test a question names: by id (`test 101`, `#101`), by its whole name, or by a close
 * match of some of its words. `sure` is false when the words fit it only roughly or fit
 * another test as well, and the answer asks "Did you mean …?". `name` is null for an id of a
 * test the caller does not know.
 */
export type TestPick = { id: number; name: string | null; sure: boolean };

/** The ids named: `test 101`, `test #101`, `#101`, `test101`; a bare number only when it is a known test's. */
export function namedIds(words: readonly AskWord[], known: readonly KnownTest[]): number[] {
  const ids: number[] = [];
  words.forEach((w, i) => {
    const joined = /^(?:test|#)#?(\d{1,9})$/.exec(w.typed);
    const bare = /^#?(\d{1,9})$/.exec(w.typed);
    const afterTest = words[i - 1]?.key === "tests";
    const id = joined ? Number(joined[1]) : bare ? Number(bare[1]) : null;
    if (id === null) return;
    if (joined || (bare && (afterTest || w.typed.startsWith("#"))) || known.some((t) => t.id === id))
      ids.push(id);
  });
  return ids;
}

const nameWords = (name: string) =>
  plainText(name)
    .split(/\s+/)
    .filter((w) => w.length > 1 && !FILLER.has(w));

/** How a typed word fits a word of a name: 2 as typed, 1 mistyped or its start, 0 not. */
function wordFit(typed: string, word: string): number {
  if (typed === word) return 2;
  if (closeTo(typed, word) || (typed.length >= 4 && word.startsWith(typed))) return 1;
  return 0;
}

type Score = { test: KnownTest; exact: number; rough: number; whole: boolean };

function scoreOf(test: KnownTest, content: readonly string[], text: string): Score {
  const words = nameWords(test.name);
  let exact = 0;
  let rough = 0;
  for (const typed of content) {
    const best = Math.max(0, ...words.map((w) => wordFit(typed, w)));
    if (best === 2) exact++;
    else if (best === 1) rough++;
  }
  const whole = words.length > 0 && ` ${text} `.includes(` ${words.join(" ")} `);
  return { test, exact, rough, whole };
}

const better = (a: Score, b: Score) =>
  Number(b.whole) - Number(a.whole) || b.exact + b.rough - (a.exact + a.rough) || b.exact - a.exact;

/**
 * The test the content words (those that are not keywords or filler) name among `known`; null
 * when none fits at all.
 */
export function pickTest(content: readonly string[], known: readonly KnownTest[]): TestPick | null {
  if (content.length === 0) return null;
  const text = content.join(" ");
  const scores = known
    .map((t) => scoreOf(t, content, text))
    .filter((s) => s.whole || s.exact + s.rough > 0)
    .sort(better);
  const [best, next] = scores;
  if (!best) return null;
  const tied = next !== undefined && better(best, next) === 0;
  const sure = best.whole || (!tied && best.rough === 0);
  return { id: best.test.id, name: best.test.name, sure };
}
