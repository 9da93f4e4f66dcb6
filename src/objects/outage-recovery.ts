import type { Config, Env } from "../config.ts";
import { createEngineDeps } from "../engine/engine-deps.ts";
import type { PostedOutage } from "../model/outage.ts";
import { SUBREQUESTS_PER_INVOCATION, SubrequestBudget } from "../util/subrequest-budget.ts";
import { editParent, storedOutage } from "./channel-outage.ts";

/**
 * A test named by the channel's latest outage message `ts` passed again at `at`
 * (src/objects/channel-object.ts `noteRecovery`): the parent is edited; false while Slack
 * refuses the edit for now.
 */
export async function noteOutageRecovery(
  storage: DurableObjectStorage,
  env: Env,
  team: Config,
  recovery: { channelId: string; ts: string; testId: number; at: string },
): Promise<boolean> {
  const { channelId, ts, testId, at } = recovery;
  const outage = await storedOutage(storage);
  if (!outage?.ts || outage.ts !== ts || !outage.items.some((i) => i.testId === testId)) return true;
  const known = (outage.recovered ?? []).includes(testId);
  if (known && !outage.editOwed) return true;
  const updated: PostedOutage = known
    ? { ...outage, ts: outage.ts }
    : { ...outage, ts: outage.ts, recovered: [...(outage.recovered ?? []), testId], lastRecoveredAt: at };
  await storage.put("outage", updated);
  const deps = createEngineDeps(team, env, { budget: new SubrequestBudget(SUBREQUESTS_PER_INVOCATION) });
  const shown = await editParent(deps.slack, channelId, updated, team.decipherAppUrl);
  await storage.put("outage", updated);
  return shown;
}
