import { afterJoin, decideOutage } from "../engine/decide-outage.ts";
import { retryAtOf } from "../engine/poll-outcome.ts";
import { type OutagePart, outageAddition, outageMessages } from "../messages/outage.ts";
import type { HeldFailure } from "../model/held-failure.ts";
import type { Outage, OutagePost, PostedOutage } from "../model/outage.ts";
import { update } from "../slack-api/post-message.ts";
import type { SlackClient } from "../slack-api/slack-client.ts";
import { retryLater, type SlackFailure, type SlackFailureKind } from "../slack-api/slack-errors.ts";
import { SqlOutbox } from "./sql-outbox.ts";

/**
 * Carries out the channel's outage decisions (src/engine/decide-outage.ts) in the channel
 * object's storage and outbox: the record of its latest outage message under "outage", and
 * Slack's "come back at" under `SLACK_RETRY_AT`.
 */

/** Where the channel keeps Slack's "come back at" after a rate-limited post (`Retry-After`). */
const SLACK_RETRY_AT = "slack-retry-at";

/** One close of the window: where it posts, and the runs a message may name, not confirmed yet. */
type Close = {
  storage: DurableObjectStorage;
  slack: SlackClient;
  outbox: SqlOutbox;
  channelId: string;
  appUrl: string;
  now: Date;
  waiting: Set<number>;
  /** Runs an outage message set aside earlier names, found in Slack this cycle: their thread. */
  found: Map<number, string>;
};

/**
 * Outage messages whose outcome is unknown, set aside when the channel's next outage opened
 * (src/objects/channel-outage.ts `openOutage`): each is settled on its own, its runs waiting
 * meanwhile, so an unsettled message never holds the channel's other failures back.
 */
const SET_ASIDE = "outages-set-aside";

/** The outage messages set aside, whose outcome is still unknown. */
export const setAsideOutages = async (storage: DurableObjectStorage) =>
  (await storage.get<Outage[]>(SET_ASIDE)) ?? [];

/** The channel's latest outage message, as stored. */
export const storedOutage = async (storage: DurableObjectStorage) =>
  (await storage.get<Outage>("outage")) ?? null;

/**
 * Decides, for the failures held in this cycle, whether they are one outage, and posts its
 * message. Every failure held in this channel comes here, so a run an outage message names
 * (or may name: its answer was lost) is never also announced alone, however many tests are
 * held in a later cycle. Every message goes through the channel's outbox: an outage message
 * or a thread reply whose outcome is unknown is settled first (looked up in Slack), and the
 * failures an outage does not name yet are added in its thread, each test once.
 */
export async function postOutage(
  where: Omit<Close, "waiting" | "found">,
  items: HeldFailure[],
  subscribed: number,
): Promise<OutagePost> {
  const close: Close = { ...where, waiting: new Set(), found: new Map() };
  const wanted = items.map((i) => i.runId);
  // Slack rate-limited this channel's last message and said when to come back: until then
  // nothing is posted here, and every failure waits (decided once it can be told).
  const quietUntil = await close.storage.get<string>(SLACK_RETRY_AT);
  if (quietUntil && close.now.getTime() < Date.parse(quietUntil))
    return { ts: null, named: [], waiting: wanted };
  await settleSetAside(close);
  const earlier = await settleEarlier(close);
  // What the parent counts before this cycle: a reply found below is counted in its edit too.
  const namedBefore = earlier?.named.length ?? 0;
  if (earlier) await settleReplies(close, earlier);
  const open = items.filter((i) => !close.waiting.has(i.runId) && !close.found.has(i.runId));
  const answer = (ts: string | null, named: readonly number[]): OutagePost => ({
    ts,
    named: wanted.filter((id) => named.includes(id) && !close.waiting.has(id)),
    waiting: wanted.filter((id) => close.waiting.has(id)),
    ...foundEarlier(close, wanted),
  });
  const choice = decideOutage({ earlier, open, subscribed, now: close.now });
  if (choice.kind === "join") {
    const joined = await joinOutage(close, choice.outage, choice.fresh, namedBefore);
    return answer(joined.ts, joined.named);
  }
  if (earlier && close.waiting.size > 0) await close.storage.put("outage", earlier);
  if (choice.kind === "alone") return answer(null, []);
  const posted = await openOutage(close, choice.outage);
  return posted ? answer(posted.ts, posted.named) : answer(null, []);
}

/**
 * The channel's latest outage message may be in the channel with its outcome unknown: looked
 * up by its key, never sent blindly. Still unknown → its runs wait (even once overdue: `claim`
 * answers "wait" for them), and the cycle's other failures are decided without it. Not there →
 * it is dropped, and its runs are decided afresh with the others.
 */
async function settleEarlier(close: Close): Promise<PostedOutage | null> {
  const outage = await storedOutage(close.storage);
  if (!outage || outage.ts !== null) return outage?.ts ? { ...outage, ts: outage.ts } : null;
  const settled = await settleOutage(close, outage);
  if (settled === "unknown") for (const i of outage.items) close.waiting.add(i.runId);
  if (settled === "absent") await close.storage.delete("outage");
  if (typeof settled === "string") return null;
  await close.storage.put("outage", settled);
  return { ...settled };
}

/**
 * The outage messages set aside: each one found names its runs (they adopt its thread), each
 * one Slack does not have lets its runs be decided afresh, each one still unknown keeps them
 * waiting. A found one is no longer the channel's latest: later failures do not join it, and
 * its parent is not edited as its tests pass again.
 */
async function settleSetAside(close: Close): Promise<void> {
  const setAside = await setAsideOutages(close.storage);
  if (setAside.length === 0) return;
  const still: Outage[] = [];
  for (const outage of setAside) {
    const settled = await settleOutage(close, outage);
    if (settled === "unknown") {
      still.push(outage);
      for (const i of outage.items) close.waiting.add(i.runId);
    } else if (settled !== "absent") for (const id of settled.named) close.found.set(id, settled.ts);
  }
  if (still.length > 0) await close.storage.put(SET_ASIDE, still);
  else await close.storage.delete(SET_ASIDE);
}

/** The runs of this cycle that an outage message set aside names, grouped by its ts. */
function foundEarlier(close: Close, wanted: readonly number[]): Pick<OutagePost, "foundEarlier"> {
  const byTs = new Map<string, number[]>();
  for (const id of wanted) {
    const ts = close.found.get(id);
    if (ts) byTs.set(ts, [...(byTs.get(ts) ?? []), id]);
  }
  return byTs.size > 0 ? { foundEarlier: [...byTs].map(([ts, named]) => ({ ts, named })) } : {};
}

/** An outage message whose outcome is unknown, looked up: found (and its thread parts sent), absent or unknown. */
async function settleOutage(close: Close, outage: Outage): Promise<PostedOutage | "absent" | "unknown"> {
  const settled = await close.outbox.settle(outage.key);
  if (settled === "unknown" || settled === "absent") return settled;
  const { parent, overflow } = outageMessages({
    items: outage.items,
    appUrl: close.appUrl,
    subscribed: outage.subscribed,
    recovered: outage.recovered ?? [],
  });
  // Found as text alone, it names no test: its runs alert alone, as when posted so.
  const found: PostedOutage = {
    ...outage,
    ts: settled.ts,
    named: settled.textOnly ? [] : parent.runIds,
    posted: outage.items.length,
    ...(settled.textOnly ? { textOnly: true } : {}),
  };
  await sendParts(close, found, overflow, settled.ts);
  return found;
}

/** Thread replies of the outage whose answer was lost: found → named; not there → told again. */
async function settleReplies(close: Close, earlier: PostedOutage): Promise<void> {
  for (const { key } of close.outbox.unknown()) {
    if (!key.startsWith(`${earlier.key}:more:`)) continue;
    const settled = await close.outbox.settle(key);
    if (typeof settled === "object" && !settled.textOnly) {
      const ids = idsOfPart(key);
      earlier.named = [...new Set([...earlier.named, ...ids])];
      // A test named again is failing again: the parent no longer marks it as passed.
      const tests = earlier.items.filter((i) => ids.includes(i.runId)).map((i) => i.testId);
      earlier.recovered = (earlier.recovered ?? []).filter((id) => !tests.includes(id));
    }
    if (settled === "unknown") for (const id of idsOfPart(key)) close.waiting.add(id);
  }
}

/** The failures that join the earlier outage go in its thread; its parent counts them. */
async function joinOutage(
  close: Close,
  outage: PostedOutage,
  fresh: readonly HeldFailure[],
  namedBefore: number,
): Promise<PostedOutage> {
  if (fresh.length > 0) await sendParts(close, outage, outageAddition([...fresh], close.appUrl), outage.ts);
  const joined = afterJoin(outage, fresh, close.now);
  await close.storage.put("outage", joined);
  // An edit Slack refuses for now is owed: the next cycle or recovery makes it.
  if (joined.named.length > namedBefore || joined.editOwed) {
    await editParent(close.slack, close.channelId, joined, close.appUrl);
    await close.storage.put("outage", joined);
  }
  return joined;
}

/** A new outage: stored first, so an object that dies mid-post has the next cycle settle its key instead of posting anew. */
async function openOutage(close: Close, next: Outage): Promise<PostedOutage | null> {
  // The latest message's outcome is still unknown: set aside, settled on its own from now on.
  const unsettled = await storedOutage(close.storage);
  if (unsettled && unsettled.ts === null)
    await close.storage.put(SET_ASIDE, [...(await setAsideOutages(close.storage)), unsettled]);
  await close.storage.put("outage", next);
  const { parent, overflow } = outageMessages({
    items: next.items,
    appUrl: close.appUrl,
    subscribed: next.subscribed,
    recovered: next.recovered ?? [],
  });
  const sent = await close.outbox.send(next.key, parent.message, undefined);
  if (!sent.ok) {
    await backOff(close, sent.failure);
    if (undecided(sent.failure.kind)) for (const i of next.items) close.waiting.add(i.runId);
    else await close.storage.delete("outage");
    return null;
  }
  // Text alone names no test: those runs alert alone (in no thread of this message).
  const posted: PostedOutage = {
    ...next,
    ts: sent.ts,
    named: sent.textOnly ? [] : parent.runIds,
    posted: next.items.length,
    ...(sent.textOnly ? { textOnly: true } : {}),
  };
  await sendParts(close, posted, overflow, sent.ts);
  await close.storage.put("outage", posted);
  return posted;
}

/** Sends an outage's thread parts in order; the first one refused stops the rest. */
async function sendParts(close: Close, outage: PostedOutage, parts: OutagePart[], threadTs: string) {
  for (const [i, part] of parts.entries()) {
    const sent = await close.outbox.send(
      `${outage.key}:more:${part.runIds.join(",")}:${i}`,
      part.message,
      threadTs,
    );
    if (!sent.ok) {
      // This part and the ones after it (not sent) wait to be named here by a later cycle.
      if (undecided(sent.failure.kind))
        for (const later of parts.slice(i)) for (const id of later.runIds) close.waiting.add(id);
      await backOff(close, sent.failure);
      break;
    }
    if (!sent.textOnly) outage.named = [...new Set([...outage.named, ...part.runIds])];
  }
}

/** Notes Slack's `Retry-After` of a failed post. */
async function backOff(close: Close, failure: SlackFailure): Promise<void> {
  const retryAt = retryAtOf(failure, close.now);
  if (retryAt) await close.storage.put(SLACK_RETRY_AT, retryAt);
}

/**
 * Not known whether Slack has it (a lost answer; a lookup refused or over budget), or Slack
 * said "not now" (a rate limit): the runs it would name wait, and a later cycle posts it. Told
 * alone instead, each of them would be one more post into the rate-limited channel. Only
 * Slack's "no" to this message (a channel gone, blocks refused) lets them alert alone.
 */
const undecided = (kind: SlackFailureKind) =>
  kind === "unknown" || kind === "deferred" || kind === "workspace" || kind === "transient";

/**
 * Whether a message of this channel whose outcome is unknown may name the run: the latest
 * outage's parent, one set aside, or a thread reply of the outage.
 */
export async function mayNameUnsettled(storage: DurableObjectStorage, runId: number): Promise<boolean> {
  const outage = await storedOutage(storage);
  const unsettled = [...(outage?.ts === null ? [outage] : []), ...(await setAsideOutages(storage))];
  if (unsettled.some((o) => o.items.some((i) => i.runId === runId))) return true;
  SqlOutbox.migrate(storage.sql);
  return storage.sql
    .exec<{ key: string }>("SELECT key FROM outbox WHERE state IN ('intended', 'unknown')")
    .toArray()
    .some((r) => r.key.includes(":more:") && idsOfPart(r.key).includes(runId));
}

/** The run ids an outage thread reply's key names (`<outage key>:more:<ids>:<i>`). */
export const idsOfPart = (key: string) =>
  (key.split(":more:")[1] ?? "").split(":")[0]?.split(",").map(Number).filter(Number.isInteger) ?? [];

/** The parent as it was posted (its items, in their order), with what happened since. */
function outageParent(outage: Outage, appUrl: string) {
  const listed = outage.posted ?? outage.items.length;
  const { message } = outageMessages({
    items: outage.items.slice(0, listed),
    later: outage.items.slice(listed).filter((i) => outage.named.includes(i.runId)),
    appUrl,
    subscribed: outage.subscribed,
    recovered: outage.recovered ?? [],
  }).parent;
  // An empty list removes blocks on an edit; the title alone names no run.
  return outage.textOnly ? { text: message.text, blocks: [] } : message;
}

/**
 * Edits the outage's parent to say what is true now. True once it does, or once Slack refused
 * it for good (the message deleted); false while Slack says "not now", and `editOwed` is set.
 */
export async function editParent(
  slack: SlackClient,
  channelId: string,
  outage: PostedOutage,
  appUrl: string,
) {
  const result = await update(slack, channelId, outage.ts, outageParent(outage, appUrl));
  outage.editOwed = !result.ok && retryLater(result.failure);
  return !outage.editOwed;
}
