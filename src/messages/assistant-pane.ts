import type { Question } from "../model/ask/question.ts";
import { byKind } from "../model/kind-facts.ts";
import type { Subscription } from "../model/subscription.ts";
import { testName } from "./broken-now.ts";
import { oneLine } from "./mrkdwn.ts";

/**
 * What the bot shows in Slack's assistant pane (Agents & AI apps) besides its answers: the
 * suggested prompts of a new thread and the status line while it looks something up
 * (docs/slack-platform.md, "The assistant pane").
 */

/** One of `assistant.threads.setSuggestedPrompts`' prompts: what the chip says, what clicking it sends. */
export type SuggestedPrompt = { title: string; message: string };

/** "Slack shows up to four suggested prompts" (the method's page). */
const MAX_PROMPTS = 4;
/** Long names make chips nobody reads: a prompt names a test in this many characters at most. */
const NAME_CHARS = 40;

const short = (name: string) => {
  const one = oneLine(name);
  return one.length > NAME_CHARS ? `${one.slice(0, NAME_CHARS - 1)}…` : one;
};

const prompt = (text: string): SuggestedPrompt => ({ title: text, message: text });

/**
 * The prompts of a new assistant thread, from the person's own watched tests and collections:
 * what failed, why the test that is failing now (else the first) failed, whether another is
 * flaky, what grows; "What can you answer?" when their channels watch nothing yet.
 */
export function suggestedPrompts(subscriptions: readonly Subscription[]): SuggestedPrompt[] {
  const { test, collection } = byKind(subscriptions);
  const failing = test.find((s) => s.streak) ?? test[0];
  const other = test.find((s) => s !== failing) ?? failing;
  return [
    prompt("What failed today?"),
    ...(failing ? [prompt(`Why did ${short(testName(failing))} fail?`)] : []),
    ...(other ? [prompt(`Is ${short(testName(other))} flaky?`)] : []),
    ...(collection.length > 0 ? [prompt("What's growing?")] : []),
    ...(test.length === 0 && collection.length === 0 ? [prompt("What can you answer?")] : []),
  ].slice(0, MAX_PROMPTS);
}

const testWords = (pick: { id: number; name: string | null } | null) =>
  pick ? short(pick.name?.trim() || `test ${pick.id}`) : null;

/**
 * The status line while the answer is read (`assistant.threads.setStatus`, shown after the app's
 * name: "Decipher is looking up Checkout flow's last failed run…"). It names what the question
 * is about in Decipher's words, never the words typed (an email stays out of it).
 */
export function lookingUp(q: Question): string {
  switch (q.intent) {
    case "failed": {
      const name = testWords(q.test);
      return name ? `is looking up ${name}'s failed runs…` : "is looking up what failed…";
    }
    case "why-failed": {
      const name = testWords(q.test);
      return name ? `is looking up ${name}'s last failed run…` : "is reading your channels' tests…";
    }
    case "flaky": {
      const name = testWords(q.test);
      return name ? `is looking up ${name}'s runs…` : "is reading your channels' tests…";
    }
    case "sessions":
      return "is looking up the sessions…";
    case "collections":
      return "is looking up your collections…";
    case "help":
      return "is reading your channels…";
  }
}
