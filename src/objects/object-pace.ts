import {
  type DeploymentSize,
  FULL_SPEED,
  governPace,
  type Pace,
  type Plan,
  samePace,
} from "../model/plan-governor.ts";

/**
 * A subscription object's pace (src/model/plan-governor.ts), kept in its storage: the governor's
 * answer as of its last report to the registry, which says how many subscriptions the
 * deployment has. Full speed until a report says otherwise. Written only when it changes, read
 * from storage once per instance (every poll asks for it): the object is its only writer.
 */
const PACE = "pace";

export class ObjectPace {
  readonly #storage: DurableObjectStorage;
  #pace: Pace | undefined;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  async current(): Promise<Pace> {
    this.#pace ??= (await this.#storage.get<Pace>(PACE)) ?? FULL_SPEED;
    return this.#pace;
  }

  /** The governor's pace for the deployment's size on `plan`, stored when it changed. */
  async note(plan: Plan, size: DeploymentSize): Promise<void> {
    const { pace } = governPace(plan, size.subscriptions, size.teams);
    if (samePace(await this.current(), pace)) return;
    this.#pace = pace;
    if (samePace(pace, FULL_SPEED)) await this.#storage.delete(PACE);
    else await this.#storage.put(PACE, pace);
  }
}
