import { FULL_SPEED, governPace, type Pace, type Plan, samePace } from "../model/plan-governor.ts";

/**
 * A subscription object's pace (src/model/plan-governor.ts), kept in its storage: the governor's
 * answer as of its last report to the registry, which says how many subscriptions the
 * deployment has. Full speed until a report says otherwise. Written only when it changes.
 */
const PACE = "pace";

export async function storedPace(storage: DurableObjectStorage): Promise<Pace> {
  return (await storage.get<Pace>(PACE)) ?? FULL_SPEED;
}

/** The governor's pace for `everywhere` subscriptions on `plan`, stored when it changed. */
export async function notePace(storage: DurableObjectStorage, plan: Plan, everywhere: number): Promise<void> {
  const { pace } = governPace(plan, everywhere);
  if (samePace(await storedPace(storage), pace)) return;
  if (samePace(pace, FULL_SPEED)) await storage.delete(PACE);
  else await storage.put(PACE, pace);
}
