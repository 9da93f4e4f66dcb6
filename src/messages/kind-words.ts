import type { Mention } from "../model/mention.ts";
import type { Subscription, SubscriptionOf } from "../model/subscription.ts";
import type { SubscriptionKind } from "../model/subscription-kind.ts";

/**
 * What the messages say differently for each kind of subscription. Each kind's spec has its
 * words (src/kinds/<kind>/words.ts); messages/ sits below src/kinds/, so a builder that shows
 * subscriptions of any kind gets them from its caller (src/kinds/messages.ts binds them).
 */
export type SubscriptionWords<S extends Subscription> = {
  /** "test <link> (#101)": what list, status and `subscribe` call it. */
  label(sub: S, appUrl: string): string;
  /** Its options as the command that would set them (list, status). */
  optionsLine(sub: S): string;
  /** Its options as the tokens that set them, for a change's "old → new". */
  optionTokens(sub: S): string;
  /** `/decipher subscribe …` with an option, the example of how to change them. */
  changeExample(sub: S): string;
  /** What subscribing promises to post. */
  rule(sub: S): string;
  /** What the channel's notices call it. */
  noticeName(sub: S): string;
  /** Its name alone, plain, for a button ("Unmute Checkout flow"). */
  shortName(sub: S): string;
  /** What the watched item itself is doing (status). */
  itemLine(sub: S, now: Date): string;
  /** What the App Home calls it, linked. */
  homeName(sub: S, appUrl: string): string;
  /** The App Home's word of its last alert. */
  homeLastAlert(sub: S, teamUrl: string | null, now: Date): string;
  /** Status's words for an entry whose channel never got an alert of it ("no failure alert yet"). */
  noAlertYet: string;
  /** Who its new alerts ping. */
  mention(sub: S): Mention | null | undefined;
  /** What its overdue rows are ("failed runs", "growth"). */
  overdueWhat: string;
  /** Status's note on rows told late. */
  owedNote(overdue: number): string;
  /** The failures counted and not posted (`after:`, `trigger:`, …), if it counts any. */
  counted(sub: S): readonly { reason: string; at: string }[];
  /** What a mute does to its polling, in words. */
  mutedPolling: string;
};

export type KindWords = { [K in SubscriptionKind]: SubscriptionWords<SubscriptionOf<K>> };

/** The words of the subscription's own kind: `sub.kind` picks the entry made for that kind. */
export const wordsOf = <S extends Subscription>(words: KindWords, sub: S): SubscriptionWords<S> =>
  words[sub.kind] as unknown as SubscriptionWords<S>;

/** A builder with the kinds' words given: what callers above src/kinds/ call. */
export const withWords =
  <A extends unknown[], R>(build: (words: KindWords, ...args: A) => R, words: KindWords) =>
  (...args: A): R =>
    build(words, ...args);
