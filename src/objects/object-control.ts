import type { Config, Env } from "../config.ts";
import type { AlertControl } from "../model/alert-control.ts";
import { channelObject, objectNames, registry, registryDirectory, subscriptionObject } from "./addresses.ts";

/** A subscription's object takes it; a new one may be the channel's first, and the channel says who set it up, once. */
const subscribeIn =
  (env: Env, config: Config): AlertControl["subscribe"] =>
  async (ref, fresh) => {
    const done = await subscriptionObject(env, ref).install(ref, fresh, config);
    if (done.created)
      await channelObject(env, objectNames.channel(ref.teamId, ref.channelId))
        .introduce(ref.channelId, done.subscription, config, new Date().toISOString())
        .catch(() => console.warn("channel introduction failed"));
    return done;
  };

/** A test's state as its digest would read it now: the ledger and the runs since its last poll. */
const stateNowIn =
  (env: Env, config: Config): AlertControl["stateNow"] =>
  (ref, now) =>
    subscriptionObject(env, ref)
      .digestLine(now.toISOString(), config, true)
      .then((line) => line?.facts ?? null);

/** The engine as Slack handlers see it: every change goes to the object that owns it. */
export function objectControl(env: Env, config: Config): AlertControl {
  return {
    subscribe: subscribeIn(env, config),
    unsubscribe: (ref) => subscriptionObject(env, ref).remove(ref),
    subscription: (ref) => subscriptionObject(env, ref).read(),
    triage: (ref, action, now) => subscriptionObject(env, ref).triage(ref, action, now.toISOString(), config),
    setDigest: (teamId, channelId, when, now) =>
      channelObject(env, objectNames.channel(teamId, channelId)).setDigest(
        teamId,
        channelId,
        when,
        now.toISOString(),
      ),
    setWeekly: (teamId, channelId, when, now) =>
      channelObject(env, objectNames.channel(teamId, channelId)).setWeekly(
        teamId,
        channelId,
        when,
        now.toISOString(),
      ),
    // One team: its shard's figures and the cron's times; no team: every shard's, added up.
    health: async (teamId) => {
      if (teamId === undefined) return registryDirectory(env).totals();
      const [team, cycle] = await Promise.all([
        registry(env, teamId).health(),
        registryDirectory(env).cycleTimes(),
      ]);
      const lastSuccessAt = [team.lastSuccessAt, cycle.lastSuccessAt]
        .filter((t) => t !== null)
        .sort()
        .at(-1);
      return {
        ...team,
        firstCycleAt: cycle.firstCycleAt,
        lastCycleAt: cycle.lastCycleAt,
        lastSuccessAt: lastSuccessAt ?? null,
      };
    },
    postLanded: ({ teamId, channelId, owner, key, ts, textOnly }, now) =>
      owner.object === "channel"
        ? channelObject(env, objectNames.channel(teamId, channelId)).posted(
            channelId,
            { key, ts, textOnly },
            now.toISOString(),
            config,
          )
        : subscriptionObject(env, { teamId, channelId, kind: owner.kind, id: owner.id }).posted(
            { key, ts, textOnly },
            now.toISOString(),
            config,
          ),
    stateNow: stateNowIn(env, config),
    periodRuns: (ref, since, until) =>
      subscriptionObject(env, ref).periodRuns(since.toISOString(), until.toISOString()),
    channelIndex: (teamId, channelId, now) =>
      channelObject(env, objectNames.channel(teamId, channelId)).channelIndex(channelId, now.toISOString()),
  };
}
