import { DurableObject } from "cloudflare:workers";
import type { Env } from "../config.ts";
import type { EngineHealth, SubscriptionRef } from "../model/alert-control.ts";
import { keys } from "../store/keys.ts";
import { copyKey } from "./addresses.ts";

/** One subscription as the cron knows it. */
export type RegistryEntry = { name: string; ref: SubscriptionRef };

/** How one poll went, as the registry keeps it for `/health` and `/decipher status`. */
export type PollStatus = "ok" | "failing" | "paused" | "busy" | "gone" | "waiting";
export type PollSummary = {
  name: string;
  status: PollStatus;
  at: string;
  failingSince: string | null;
  /** Failed runs older than 5 minutes with no fate (src/model/run-ledger.ts): always 0 when the engine works. */
  overdue?: number;
};

export type WorkspaceCondition = EngineHealth["slackWorkspace"];

type CycleMeta = { firstCycleAt: string | null; lastCycleAt: string | null; lastSuccessAt: string | null };

type Polls = Record<
  string,
  { status: PollStatus; at: string; failingSince: string | null; overdue?: number }
>;

/**
 * The one writer of the subscription index, the digest timetable and the engine's health.
 * KV has no compare-and-swap: two subscribes editing one index key lose an entry; here they
 * run one after the other. The index is mirrored to KV (on change only) for readers.
 */
export class RegistryObject extends DurableObject<Env> {
  async #get<T>(key: string, fallback: T): Promise<T> {
    return ((await this.ctx.storage.get<T>(key)) ?? fallback) as T;
  }

  async #entries(): Promise<Record<string, RegistryEntry>> {
    return this.#get<Record<string, RegistryEntry>>("index", {});
  }

  async #saveIndex(index: Record<string, RegistryEntry>): Promise<void> {
    await this.ctx.storage.put("index", index);
    const copy = Object.values(index)
      .map((e) => copyKey(this.env, e.ref))
      .sort();
    await this.env.STATE.put(keys.subscriptionIndex(), JSON.stringify(copy));
  }

  async add(entry: RegistryEntry): Promise<void> {
    const index = await this.#entries();
    if (index[entry.name]) return;
    index[entry.name] = entry;
    await this.#saveIndex(index);
  }

  async remove(name: string): Promise<void> {
    const index = await this.#entries();
    if (!index[name]) return;
    delete index[name];
    await this.#saveIndex(index);
    const polls = await this.#get<Polls>("polls", {});
    if (polls[name]) {
      delete polls[name];
      await this.ctx.storage.put("polls", polls);
    }
  }

  async list(): Promise<RegistryEntry[]> {
    return Object.values(await this.#entries());
  }

  /** The channel objects' digest times: the cron wakes only those that are due. */
  async setDigestDue(channelName: string, nextDueAt: string | null): Promise<void> {
    const due = await this.#get<Record<string, string>>("digests", {});
    if (nextDueAt === null) {
      if (!(channelName in due)) return;
      delete due[channelName];
    } else {
      if (due[channelName] === nextDueAt) return;
      due[channelName] = nextDueAt;
    }
    await this.ctx.storage.put("digests", due);
  }

  /** What one cycle has to do: every subscription, and the channels whose digest is due. */
  async beginCycle(at: string): Promise<{ entries: RegistryEntry[]; dueDigests: string[] }> {
    const due = await this.#get<Record<string, string>>("digests", {});
    const now = Date.parse(at);
    return {
      entries: Object.values(await this.#entries()),
      dueDigests: Object.entries(due)
        .filter(([, dueAt]) => Date.parse(dueAt) <= now)
        .map(([name]) => name),
    };
  }

  /** Results of polls (the cron's own, or a queue chunk's): one storage write per call. */
  async recordPolls(at: string, summaries: PollSummary[], complete: boolean): Promise<void> {
    const polls = await this.#get<Polls>("polls", {});
    const index = await this.#entries();
    for (const s of summaries) {
      if (s.status === "busy") continue;
      if (s.status === "waiting") {
        // A poll held back (a Slack backoff) still read its ledger: what is overdue shows meanwhile.
        const kept = polls[s.name];
        if (kept) polls[s.name] = { ...kept, overdue: s.overdue ?? 0 };
        continue;
      }
      if (s.status === "gone" || !index[s.name]) delete polls[s.name];
      else
        polls[s.name] = { status: s.status, at: s.at, failingSince: s.failingSince, overdue: s.overdue ?? 0 };
    }
    const meta = await this.#get<CycleMeta>("cycle", {
      firstCycleAt: null,
      lastCycleAt: null,
      lastSuccessAt: null,
    });
    const succeeded = summaries.some((s) => s.status === "ok") || (complete && summaries.length === 0);
    await this.ctx.storage.put({
      polls,
      cycle: {
        firstCycleAt: meta.firstCycleAt ?? at,
        lastCycleAt: complete ? at : meta.lastCycleAt,
        lastSuccessAt: succeeded ? at : meta.lastSuccessAt,
      } satisfies CycleMeta,
    });
  }

  /** A token or scope refusal: remembered from its first sighting until a post succeeds. */
  async setWorkspaceCondition(condition: WorkspaceCondition): Promise<void> {
    const current = await this.#get<WorkspaceCondition>("workspace", null);
    if (condition === null && current === null) return;
    if (condition && current?.code === condition.code) return;
    await this.ctx.storage.put("workspace", condition);
  }

  async health(): Promise<EngineHealth> {
    const [index, polls, cycle, workspace] = await Promise.all([
      this.#entries(),
      this.#get<Polls>("polls", {}),
      this.#get<CycleMeta>("cycle", { firstCycleAt: null, lastCycleAt: null, lastSuccessAt: null }),
      this.#get<WorkspaceCondition>("workspace", null),
    ]);
    const live = Object.entries(polls).filter(([name]) => index[name]);
    return {
      firstCycleAt: cycle.firstCycleAt,
      lastCycleAt: cycle.lastCycleAt,
      lastSuccessAt: cycle.lastSuccessAt,
      subscriptions: Object.keys(index).length,
      failing: live.filter(([, p]) => p.status === "failing").length,
      paused: live.filter(([, p]) => p.status === "paused").length,
      overdue: live.reduce((n, [, p]) => n + (p.overdue ?? 0), 0),
      slackWorkspace: workspace,
    };
  }
}
