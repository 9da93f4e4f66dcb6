import type { VendorClient } from "../decipher/vendor-client.ts";
import type { KindTriage } from "../engine/apply-triage.ts";
import type { Who } from "../engine/baseline.ts";
import type { PollContext } from "../engine/poll-context.ts";
import type { PollOutcome } from "../engine/poll-outcome.ts";
import type { RunLedger } from "../engine/test-step-executor.ts";
import type { SubscriptionWords } from "../messages/kind-words.ts";
import type { LedgerRow } from "../model/run-ledger.ts";
import type { SubscriptionOf } from "../model/subscription.ts";
import type { SubscriptionKind } from "../model/subscription-kind.ts";
import type { KindOptions, SubscribeCommandOf } from "./kind-options.ts";

/**
 * Everything one kind of subscription does, in one module per kind (src/kinds/test/,
 * src/kinds/collection/), held complete by the Record in src/kinds/kinds.ts. The rest of the
 * code asks the spec of a subscription's kind rather than compare kinds
 * (docs/architecture.md, "Adding a subscription kind").
 */
export interface KindSpec<K extends SubscriptionKind> extends KindOptions<K> {
  readonly kind: K;
  /** The subscription as subscribing starts it, from Decipher's state now (nothing before is replayed). */
  baseline(vendor: VendorClient, command: SubscribeCommandOf<K>, who: Who): Promise<SubscriptionOf<K>>;
  /**
   * Notes under the subscribe reply on options that match nothing `baseline` read (a
   * `trigger:` no recent run had): such a typo would stop alerts without a word.
   */
  optionNotes(fresh: SubscriptionOf<K>): string[];
  /** Subscribed again while live with `fresh`'s options: what it becomes, or null when nothing changed. */
  resubscribed(existing: SubscriptionOf<K>, fresh: SubscriptionOf<K>): SubscriptionOf<K> | null;
  /** The ledger a new subscription starts with, from what `baseline` read, and its state from it; null for none. */
  firstLedger(
    fresh: SubscriptionOf<K>,
    sub: SubscriptionOf<K>,
  ): { rows: LedgerRow[]; sub: SubscriptionOf<K> } | null;
  /**
   * Its failures join the channel's outage window (src/objects/channel-outage.ts): a poll holds
   * them there, claims its runs from the window's decisions and tells it of recoveries.
   */
  readonly joinsOutages: boolean;
  /** The cycle of the outage check a held failure of it follows, or null. */
  heldCycle(sub: SubscriptionOf<K>): string | null;
  /** One poll: read Decipher, decide, post (its object runs it, one at a time). */
  poll(sub: SubscriptionOf<K>, ctx: PollContext & { ledger: RunLedger }): Promise<PollOutcome>;
  /** What the triage buttons do to it that differs by kind. */
  readonly triage: KindTriage<SubscriptionOf<K>>;
  /** What list, status, Home and the notices say of it. */
  readonly words: SubscriptionWords<SubscriptionOf<K>>;
}
