import * as CLASSIFY_THRESHOLDS from "../model/classify-thresholds.ts";
import * as OUTAGE from "../model/outage-thresholds.ts";
import { section } from "./elements.ts";
import { fitMessage, type SlackMessage } from "./limits.ts";
import { escapeMrkdwn } from "./mrkdwn.ts";

// Written raw and escaped once: `<email>` would otherwise be read as a Slack link token.
const SESSIONS_USAGE = escapeMrkdwn(
  [
    "*Usage:* `/sessions <email> | user:<userId> | url:<text> [since:<7d|24h|ISO>] [until:<…>]`",
    "*Examples:*",
    "• `/sessions jane@acme.com` — all of Jane's recorded sessions (add `since:7d` for the last 7 days)",
    "• `/sessions user:42 since:24h` — by user id, last 24 hours",
    "• `/sessions url:/checkout since:2026-02-01 until:2026-02-08` — who visited a page",
  ].join("\n"),
);

/** `/sessions` usage, led by what was wrong with the input when there is something to say. */
export function usageMessage(problem?: string): SlackMessage {
  const lead = problem ? `:warning: ${escapeMrkdwn(problem)}` : "";
  return fitMessage({
    text: `${problem ? `${escapeMrkdwn(problem)} ` : ""}Usage: /sessions &lt;email&gt; [since:7d]`,
    blocks: [...(lead ? [section(lead)] : []), section(SESSIONS_USAGE)],
  });
}

const DECIPHER_HELP = escapeMrkdwn(
  [
    "*`/decipher` manages what this channel watches:*",
    "• `subscribe test <testId> [flaky:thread|digest|alert] [after:<n>] [trigger:<value>] [page:</path>] [mention:@person|@group]` — alert here when a run of that test fails; several at once: `subscribe test 101 102` or `101-103`; again with one option changes only that one (`after:default` puts it back)",
    "• `subscribe collection <collectionId> [growth:<n>] [mention:@person|@group]` — alert here when an unresolved issue collection grows (default: +5 sessions or +50 %, whichever is smaller); `mention:` pings them in each new alert, never in its thread or its updates",
    "• `unsubscribe test <id>` / `unsubscribe collection <id>` — stop alerting here",
    "• `list` — this channel's subscriptions and digest time",
    "• `digest <HH:MM> [IANA zone]` — a daily digest here (default 09:00 UTC), e.g. `digest 08:30 Europe/Berlin`; `digest off` stops it",
    "• `weekly <day> <HH:MM> [IANA zone]` — a weekly report here: failures and recoveries per test, the flakiest tests, collections that grew or regressed, e.g. `weekly mon 09:00 Europe/Berlin`; `weekly off` stops it",
    "• `status` — per subscription: whether polling works, whether the test or collection is in trouble, who acknowledged, snoozed or muted it",
    "• `ask <question>` — a question in plain words, answered to you alone: `ask what failed today?`, `ask why did checkout fail?`, `ask is checkout flaky?` (the same as `@Decipher …`)",
    "• `doctor` — (admins) this deployment checked as Slack and Decipher see it: the token and its scopes, the Decipher key, the bot in each channel, the clocks; a failing line says what to do",
    "• `help` — this message",
    "*Alerts* have :eyes: Acknowledge (anyone), a Snooze menu and :no_bell: Mute (admins, when ADMIN_USER_IDS is set).",
  ].join("\n"),
);

const NOISE_HELP = escapeMrkdwn(
  [
    "*Quiet by understanding* (test options):",
    `• a failure is *new* after ${CLASSIFY_THRESHOLDS.newFailureAfterPasses}+ passes; a test is *broken* after ${CLASSIFY_THRESHOLDS.brokenAfterFailures} failures in a row; *flaky* when, in its last ${CLASSIFY_THRESHOLDS.flakyWindowRuns} runs (within 24 h), ${CLASSIFY_THRESHOLDS.flakyMinFailures} or more failed with passes in between, and either at most ${Math.round(CLASSIFY_THRESHOLDS.flakyMaxFailureShare * 100)} % failed or it failed again after passing ${CLASSIFY_THRESHOLDS.flakyRelapsesAnyShare}+ times (it keeps flipping)`,
    "• `flaky:thread` (default) — a flaky test's failures go into one thread a day; `flaky:digest` — only in the digest; `flaky:alert` — every failure alerts",
    "• `after:<n>` — alert only after n failures in a row (default 1); `trigger:<value>` — only runs started by that trigger, e.g. `trigger:schedule`",
    "• `page:</path>` — the page the test guards: its alerts show production sessions there in the last 24 h",
    "• `mention:@person` or `mention:@group` — a new failure pings them, once: in the alert, never in its thread or its updates",
    `• ${OUTAGE.tests} or more tests of this channel failing in one cycle (or ${Math.round(OUTAGE.share * 100)} % of them) are one outage message; a test that fails while one of its tests still fails, or within ${Math.round(OUTAGE.quietMs / 60_000)} min of the last one passing again (and within ${Math.round(OUTAGE.openForMs / 60_000)} min of the message), joins its thread; a test called flaky today keeps its failures in its own thread`,
  ].join("\n"),
);

// The filters, spelled out: they are what `/sessions` is for.
const SESSIONS_HELP = escapeMrkdwn(
  [
    "*`/sessions` finds recorded sessions:*",
    "• `/sessions <email>` — one person's sessions, e.g. `/sessions jane@acme.com`",
    "• `user:<userId>` — by your app's user id, e.g. `user:usr_42`",
    "• `url:<text>` — sessions that visited a URL containing the text, e.g. `url:/checkout`",
    "• `since:<7d|24h|30m|2w|ISO date>` and `until:<…>` — a time range, e.g. `since:24h` or `since:2026-02-01 until:2026-02-08`",
  ].join("\n"),
);

export function decipherHelpMessage(): SlackMessage {
  return fitMessage({
    text: "/decipher subscribe test|collection, unsubscribe, list, digest, weekly, status, doctor, help",
    blocks: [section(DECIPHER_HELP), section(NOISE_HELP), section(SESSIONS_HELP)],
  });
}

/** A vendor or input problem as one sentence the reader can act on. Never a stack trace. */
export function errorMessage(sentence: string): SlackMessage {
  const text = escapeMrkdwn(sentence);
  return fitMessage({ text, blocks: [section(`:warning: ${text}`)] });
}
