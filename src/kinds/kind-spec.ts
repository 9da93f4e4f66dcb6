import type { VendorClient } from "../decipher/vendor-client.ts";
import type { KindTriage } from "../engine/apply-triage.ts";
import type { Who } from "../engine/baseline.ts";
import type { PollContext } from "../engine/poll-context.ts";
import type { PollOutcome } from "../engine/poll-outcome.ts";
import type { RunLedger } from "../engine/test-step-executor.ts";
import type { SubscriptionWords } from "../messages/kind-words.ts";
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
  /** One poll: read Decipher, decide, post (its object runs it, one at a time). */
  poll(sub: SubscriptionOf<K>, ctx: PollContext & { ledger: RunLedger }): Promise<PollOutcome>;
  /** What the triage buttons do to it that differs by kind. */
  readonly triage: KindTriage<SubscriptionOf<K>>;
  /** What list, status, Home and the notices say of it. */
  readonly words: SubscriptionWords<SubscriptionOf<K>>;
}
