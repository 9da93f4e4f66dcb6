import type { TestRun } from "../decipher/types.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import type { LedgerRow } from "../model/run-ledger.ts";
import type { TestSubscription } from "../model/subscription.ts";
import { messageGone, retryLater, type SlackFailure } from "../slack-api/slack-errors.ts";
import { parentDeleted } from "./decide-test-edits.ts";
import { decideTestStep } from "./decide-test-step.ts";
import type { OutageGroup, PollContext } from "./poll-context.ts";
import { type RenderContext, renderTestStep } from "./render-test-step.ts";
import type { Change, TestStep } from "./test-step.ts";

/** The ledger as the engine sees it; the object keeps it in SQLite (src/objects/sql-run-ledger.ts). */
export type RunLedger = {
  recent(now: Date, windowMs: number): LedgerRow[];
  /** `timeOf`: the time a run's row would be stamped with, where the ledger may look for it too. */
  byIds(ids: readonly number[], timeOf?: (id: number) => number | null): LedgerRow[];
  save(rows: readonly LedgerRow[]): void;
  /**
   * Stores the subscription's state as of these rows, with them, before a post: an object that
   * dies mid-post resumes from a streak that agrees with the fates it recorded.
   */
  checkpoint?(state: TestSubscription): Promise<void>;
  /** The failures before `beforeMs` back to the last pass, newest first, at most `limit`. */
  failingBefore?(beforeMs: number, limit: number): LedgerRow[];
};

/** What one poll's decisions are asked with, besides the state they change. */
export type StepInput = {
  runs: ReadonlyMap<number, TestRun>;
  hold: boolean;
  group: OutageGroup | null;
  cycle: string;
  waitingOnChannel: ReadonlySet<number>;
};

/**
 * Carries out the decisions of `decideTestStep` (src/engine/decide-test-step.ts) for one poll,
 * one step at a time, until it is done, holding, out of budget, or Slack refuses: records the
 * fates and the state each step changes, renders and posts through the outbox, makes the edits.
 * A fate that needs a message is recorded only with the message that carries it.
 */
export class TestStepExecutor {
  /** The ledger's rows as decided so far. */
  rows: LedgerRow[];
  /** The subscription's state as decided so far. */
  next: TestSubscription;
  posts = 0;
  failure: SlackFailure | null = null;
  held: HeldFailure | null = null;
  /** Outage messages (by ts) this test's streak recovered from: the channel re-renders them. */
  readonly outageRecoveries: string[] = [];
  readonly #ctx: PollContext & { ledger: RunLedger };
  readonly #rendering: RenderContext;
  /**
   * Rows are written once per poll each, with their fate when it is decided in the same poll,
   * and always before a post: what a post depends on is durable before Slack hears of it.
   */
  readonly #dirty: Map<number, LedgerRow>;
  /** The state stored with the rows before the last post. */
  #checkpointed: TestSubscription;
  /** An owed edit failed in this poll: it is tried again at the next one, not over and over now. */
  #editRefused = false;

  constructor(
    ctx: PollContext & { ledger: RunLedger },
    sub: TestSubscription,
    rows: LedgerRow[],
    fresh: readonly LedgerRow[],
    next: TestSubscription,
    rendering: RenderContext,
  ) {
    this.#ctx = ctx;
    this.#checkpointed = sub;
    this.rows = rows;
    this.next = next;
    this.#rendering = rendering;
    this.#dirty = new Map(fresh.map((r) => [r.id, r]));
  }

  /** Decides and carries out steps until the poll is done; the rows are saved at the end. */
  async run(input: StepInput): Promise<void> {
    for (let guard = 0; guard < 500; guard++) if (!(await this.#step(input))) break;
    this.#flush();
  }

  /** One step; false once the poll stops here. */
  async #step(input: StepInput): Promise<boolean> {
    const { budget, outbox } = this.#ctx;
    const step = this.#decide(input, this.rows);
    this.#apply(step.change);
    if (step.kind === "done") return false;
    if (step.kind === "hold") {
      this.held = step.held;
      return false;
    }
    if (step.kind === "edit") {
      // Out of budget, the edit stays owed to the next poll rather than dropped.
      if (!budget.has(1)) return false;
      await this.#edit(step);
      return true;
    }
    // A post, and room for the parent edit after it; short of that, only the edit.
    if (!budget.has(2)) {
      const last = this.#decide({ ...input, hold: false, group: null, waitingOnChannel: new Set() }, []);
      if (last.kind === "edit" && budget.has(1)) await this.#edit(last);
      return false;
    }
    await this.#flushWithState();
    const message = renderTestStep(step, this.#rendering);
    const result = await outbox.send(step.key, message, step.threadTs);
    if (!result.ok) {
      // A reply refused because its alert is gone: the alert is posted again, then the reply.
      if (step.threadTs && this.#parentDeleted(step.threadTs, result.failure)) return true;
      this.failure = result.failure;
      return false;
    }
    this.posts++;
    // Slack had it from an earlier decision (a lost answer): say what is true now, e.g. that
    // the failure it announced has passed since, or the failures read since that one reply
    // tells too. Their fates wait for the edit: an edit Slack puts off (or no budget for it)
    // is made by the next poll, which finds the same post by its key.
    if (result.earlier) {
      if (!budget.has(1)) return false;
      const edited = await outbox.edit(result.ts, message);
      if (!edited.ok && retryLater(edited.failure)) {
        this.failure = edited.failure;
        return false;
      }
    }
    this.#apply(step.delivered(result.ts));
    return true;
  }

  #decide(input: StepInput, rows: readonly LedgerRow[]): TestStep {
    const { now } = this.#rendering;
    return decideTestStep({
      sub: this.next,
      rows,
      runs: input.runs,
      test: this.#rendering.test,
      meaning: this.#rendering.meaning,
      appUrl: this.#rendering.appUrl,
      now,
      hold: input.hold,
      group: input.group,
      cycle: input.cycle,
      // The last edit of a poll out of budget is decided from the state alone.
      ...(rows.length > 0
        ? { inOutbox: this.#ctx.outbox.keys(), waitingOnChannel: input.waitingOnChannel }
        : {}),
      retryOwedEdit: !this.#editRefused,
    });
  }

  #apply(change: Change): void {
    for (const r of change.rows) this.#dirty.set(r.id, r);
    if (change.rows.length > 0) this.rows = merge(this.rows, change.rows);
    const was = this.next.streak;
    this.next = change.sub;
    if (was?.grouped && this.next.streak === null) this.outageRecoveries.push(was.threadTs);
  }

  /** Edits a parent; one Slack refuses for now is owed to the next poll rather than dropped. */
  async #edit(step: Extract<TestStep, { kind: "edit" }>): Promise<void> {
    const result = await this.#ctx.outbox.edit(step.ts, renderTestStep(step, this.#rendering));
    if (!result.ok && this.#parentDeleted(step.ts, result.failure)) return;
    if (result.ok || !retryLater(result.failure)) return this.#apply(step.after);
    this.#editRefused = true;
    this.#apply({ ...step.after, sub: { ...step.after.sub, ...step.owed } });
  }

  /** Slack says the open alert `ts` is gone (a person deleted it): the state notes it, and the loop goes on. */
  #parentDeleted(ts: string, failure: SlackFailure): boolean {
    if (!messageGone(failure)) return false;
    const next = parentDeleted(this.next, ts);
    if (!next) return false;
    this.#apply({ sub: next, rows: [] });
    return true;
  }

  #flush(): void {
    if (this.#dirty.size === 0) return;
    this.#ctx.ledger.save([...this.#dirty.values()]);
    this.#dirty.clear();
  }

  /** Before a post: the rows and the state they go with. */
  async #flushWithState(): Promise<void> {
    this.#flush();
    const { ledger } = this.#ctx;
    if (this.next !== this.#checkpointed && ledger.checkpoint) {
      await ledger.checkpoint(this.next);
      this.#checkpointed = this.next;
    }
  }
}

export function merge(rows: readonly LedgerRow[], changed: readonly LedgerRow[]): LedgerRow[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const r of changed) byId.set(r.id, r);
  return [...byId.values()];
}
