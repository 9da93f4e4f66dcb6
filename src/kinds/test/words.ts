import { permalink } from "../../messages/home-view.ts";
import type { SubscriptionWords } from "../../messages/kind-words.ts";
import { truncatePlain } from "../../messages/limits.ts";
import { testUrl } from "../../messages/links.ts";
import { code, dateToken, link, oneLine, plainLine, plural } from "../../messages/mrkdwn.ts";
import { STATE_ICON, testStateGlance, testStateLine } from "../../messages/test-state-line.ts";
import type { FailingAtSubscribe } from "../../model/failing-at-subscribe.ts";
import { mentionToken } from "../../model/mention.ts";
import { resolveTestOptions, type TestSubscription } from "../../model/subscription.ts";
import { factsOfSubscription, testState } from "../../model/test-state.ts";
import { mentionOption, NAME_CHARS } from "../words.ts";

/** A test subscription's options as the tokens `/decipher subscribe` takes, mention aside. */
function optionTokens(o: ReturnType<typeof resolveTestOptions>): string[] {
  return [
    `flaky:${o.flaky}`,
    `after:${o.after}`,
    ...(o.trigger ? [`trigger:${o.trigger}`] : []),
    ...(o.page ? [`page:${o.page}`] : []),
  ];
}

/** Home: the test's state in a word, and its open thread (failure or flaky) linked. */
function homeLastAlert(sub: TestSubscription, teamUrl: string | null, now: Date): string {
  const facts = factsOfSubscription(sub, now);
  const state = testStateGlance(facts);
  const called = facts?.calledFlakyAt ?? null;
  const thread = sub.streak
    ? { ts: sub.streak.threadTs, what: "failure thread", since: sub.streak.firstRun?.createdAt ?? null }
    : typeof sub.flakyThread?.ts === "string" && sub.flakyThread.ts
      ? { ts: sub.flakyThread.ts, what: "flaky thread", since: called }
      : null;
  if (!thread) return called ? `${state} · called flaky ${dateToken(called)}` : state;
  const url = permalink(teamUrl, sub.channelId, thread.ts);
  // The date token stays outside the link: a label is escaped text, and a token there shows raw.
  const since = thread.since ? ` since ${dateToken(thread.since)}` : "";
  return `${state} · ${url ? link(url, thread.what) : thread.what}${since}`;
}

/** One run is no row: "Its last run failed today at 6:16 AM", else "It has failed 5 runs in a row since …". */
const failingSince = (was: FailingAtSubscribe) =>
  was.failedRuns === 1
    ? `Its last run failed ${dateToken(was.since)}`
    : `It has failed ${plural(was.failedRuns, "run")} in a row since ${dateToken(was.since)}`;

/** A test already flaky when subscribed: what its `flaky:` option does with its failures. */
const FLAKY_RULE: Record<ReturnType<typeof resolveTestOptions>["flaky"], string> = {
  thread: "It is flaky: its failures go into one thread a day, not a post each (`flaky:alert` posts each).",
  alert: "It is flaky: I'll post each of its failures here, as `flaky:alert` asks.",
  digest: "It is flaky: its failures are counted for the digest, not posted, as `flaky:digest` asks.",
};

export const testWords: SubscriptionWords<TestSubscription> = {
  label: (sub, appUrl) =>
    `test ${link(testUrl(appUrl, sub.testId), `${truncatePlain(sub.testName, NAME_CHARS)} (#${sub.testId})`)}`,
  optionsLine(sub) {
    const o = resolveTestOptions(sub.options);
    // Shown as a name, not as the option's token: these replies are ephemeral, so nobody is pinged.
    const ping = mentionToken(o.mention);
    return `options: ${optionTokens(o)
      .map((p) => code(p))
      .join(" ")}${ping ? ` · new failures ping ${ping}` : ""}`;
  },
  optionTokens(sub) {
    const o = resolveTestOptions(sub.options);
    return [...optionTokens(o).map((p) => code(p)), ...mentionOption(o.mention)].join(" ");
  },
  // An example that would change something: never the value already set.
  changeExample: (sub) =>
    `/decipher subscribe test ${sub.testId} after:${resolveTestOptions(sub.options).after === 2 ? 3 : 2}`,
  rule: (sub) =>
    sub.failingAtSubscribe
      ? `${failingSince(sub.failingAtSubscribe)}: I'll tell this channel when it passes, and post each new failure.`
      : sub.stateFacts && testState(sub.stateFacts) === "flaky"
        ? FLAKY_RULE[resolveTestOptions(sub.options).flaky]
        : "I'll post here when a new run fails, and thread follow-ups until it passes again.",
  shortName: (sub) => plainLine(sub.testName) || `test ${sub.testId}`,
  noticeName: (sub) => `test ${sub.testName ? `“${oneLine(sub.testName)}” ` : ""}(${sub.testId})`,
  itemLine(sub, now) {
    const facts = factsOfSubscription(sub, now);
    const { trigger } = resolveTestOptions(sub.options);
    // Runs of other triggers exist: "no run seen yet" would read as if the test never ran.
    if (trigger && facts && testState(facts) === "unknown")
      return `${STATE_ICON.unknown} no run with trigger ${code(trigger)} seen yet`;
    return testStateLine(facts);
  },
  homeName: (sub, appUrl) => `Test ${link(testUrl(appUrl, sub.testId), sub.testName || `#${sub.testId}`)}`,
  homeLastAlert,
  // A pass told to the channel (failing when subscribed) is not an alert of a failure.
  noAlertYet: "no failure alert yet",
  mention: (sub) => sub.options?.mention,
  overdueWhat: "failed runs",
  owedNote: (overdue) =>
    `${plural(overdue, "failed run")} seen over 5 minutes ago ${overdue === 1 ? "has" : "have"} not been told yet: the bot tells ${overdue === 1 ? "it" : "them"} late, marked as late.`,
  counted: (sub) => sub.counted ?? [],
  mutedPolling: "still polled while muted: its state stays current",
};
