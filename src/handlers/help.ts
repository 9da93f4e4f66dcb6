import type { SlackResponse } from "slack-edge";
import { decipherHelpMessage } from "../messages/help.ts";
import type { SlackMessage } from "../messages/limits.ts";

let built: SlackMessage | null = null;
let ack: SlackResponse | null = null;

/**
 * `/decipher help` (also the answer to a command the bot does not know). Its text depends on
 * nothing but the code, so it is built on an isolate's first use and reused; nothing mutates
 * it (replies spread it into a new object).
 */
export function helpMessage(): SlackMessage {
  built ??= decipherHelpMessage();
  return built;
}

/**
 * The help as an ephemeral ack, serialised once per isolate: the help is the largest answer
 * given in an ack, and writing its JSON anew was most of what answering it cost
 * (BENCHMARKS.md, "The Slack edge").
 */
export function helpAck(): SlackResponse {
  ack ??= {
    status: 200,
    contentType: "application/json;charset=utf-8",
    body: JSON.stringify({ response_type: "ephemeral", ...helpMessage() }),
  };
  return ack;
}
