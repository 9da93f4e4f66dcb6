import { decipherHelpMessage } from "../messages/help.ts";
import type { SlackMessage } from "../messages/limits.ts";

let built: SlackMessage | null = null;

/**
 * `/decipher help` (also the answer to a command the bot does not know). Its text depends on
 * nothing but the code, so it is built on an isolate's first use and reused; nothing mutates
 * it (replies spread it into a new object).
 */
export function helpMessage(): SlackMessage {
  built ??= decipherHelpMessage();
  return built;
}
