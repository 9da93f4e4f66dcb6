import { permalink } from "../../messages/home-view.ts";
import type { SubscriptionWords } from "../../messages/kind-words.ts";
import { truncatePlain } from "../../messages/limits.ts";
import { collectionUrl } from "../../messages/links.ts";
import { code, escapeMrkdwn, link, oneLine, plainLine, plural } from "../../messages/mrkdwn.ts";
import { collectionCountLine } from "../../messages/subscription-state-lines.ts";
import { mentionToken } from "../../model/mention.ts";
import type { CollectionSubscription } from "../../model/subscription.ts";
import { mentionOption, NAME_CHARS } from "../words.ts";

function growthRule(growth: number | null): string {
  return growth === null ? "by 5 or by 50 %, whichever is smaller," : `by ${plural(growth, "session")},`;
}

/**
 * Home: its state and the count last told, as status says them, then its alert thread linked
 * (one time on the line: the last told, which a new user reads at a glance).
 */
function homeLastAlert(sub: CollectionSubscription, teamUrl: string | null, now: Date): string {
  const state = collectionWords.itemLine(sub, now);
  if (!sub.threadTs) return `${state} · ${collectionWords.noAlertYet}`;
  const url = permalink(teamUrl, sub.channelId, sub.threadTs);
  return url ? `${state} · ${link(url, "alert thread")}` : state;
}

export const collectionWords: SubscriptionWords<CollectionSubscription> = {
  label: (sub, appUrl) =>
    `collection ${link(collectionUrl(appUrl, sub.collectionId), `#${sub.collectionId}`)} — ${escapeMrkdwn(truncatePlain(sub.rootCause, NAME_CHARS))}`,
  optionsLine(sub) {
    const ping = mentionToken(sub.mention);
    const pings = ping ? ` · new alerts ping ${ping}` : "";
    return sub.growth === null
      ? `options: the default growth, +5 sessions or +50 %, whichever is smaller (${code("growth:<n>")} sets another)${pings}`
      : `options: ${code(`growth:${sub.growth}`)}${pings}`;
  },
  optionTokens(sub) {
    const growth = sub.growth === null ? "the default growth" : code(`growth:${sub.growth}`);
    return [growth, ...mentionOption(sub.mention)].join(" ");
  },
  changeExample: (sub) =>
    `/decipher subscribe collection ${sub.collectionId} growth:${sub.growth === 10 ? 20 : 10}`,
  rule: (sub) =>
    sub.wasResolved && !sub.regressed
      ? "It is resolved: I'll post here if it gets new sessions."
      : `I'll post here when its unresolved sessions grow ${growthRule(sub.growth)} or when it comes back after being resolved.`,
  noticeName: (sub) => `collection ${sub.collectionId}`,
  shortName: (sub) => plainLine(sub.rootCause) || `collection ${sub.collectionId}`,
  itemLine(sub) {
    const counted = collectionCountLine(sub);
    if (sub.regressed) return `:rotating_light: regressed: was resolved, has new sessions (${counted})`;
    if (sub.wasResolved) return ":large_green_circle: resolved";
    return `:large_orange_circle: unresolved · ${counted}`;
  },
  homeName: (sub, appUrl) =>
    `Collection ${link(collectionUrl(appUrl, sub.collectionId), String(sub.collectionId))} · ${oneLine(sub.rootCause.slice(0, 120))}`,
  homeLastAlert,
  noAlertYet: "no growth alert yet",
  mention: (sub) => sub.mention,
  overdueWhat: "growth",
  owedNote: () =>
    "Growth seen over 5 minutes ago has not been told yet: the bot tells it as soon as Slack and Decipher answer.",
  counted: () => [],
  mutedPolling: "not polled while muted: its growth is counted again from the unmute",
};
