import { type Config, type Env, readConfig } from "../config.ts";
import { describeError } from "../util/describe-error.ts";

// What an object's alarm needs besides its own state: the configuration to run with, and
// an alarm set only when it must move.

/** The configuration an alarm runs with, or null (said in the log) while the deployment's cannot be read. */
export function configOrNull(known: Config | null, env: Env, what: string): Config | null {
  try {
    return known ?? readConfig(env);
  } catch (error) {
    console.error(`${what}: ${describeError(error)}`);
    return null;
  }
}

/**
 * Arms the clock for a poll at `next` at the latest. An alarm still set for no later than that
 * (a poll its channel asked for ran beside the clock) is left as it is: setting it again is a
 * row written (issue #35).
 */
export async function armBy(storage: DurableObjectStorage, next: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current !== null && current > Date.now() && current <= next) return;
  await storage.setAlarm(next);
}
