// STUB — replaced by the Slack stand-in work. Interface is fixed: see test/setup/global.ts.
import type { RunningServer } from "../emulator/server.ts";
import { startEmulator } from "../emulator/server.ts";

export type SlackStandInOptions = {
  port?: number;
  host?: string;
  /** Where signed slash commands and interactions are delivered (the bot's /slack/events). */
  botUrl?: string;
  signingSecret?: string;
  botToken?: string;
};

export async function startSlackStandIn(
  options: SlackStandInOptions = {},
): Promise<RunningServer & { apiUrl: string }> {
  const s = await startEmulator({ port: options.port ?? 0 });
  return { ...s, apiUrl: `${s.url}/api/` };
}
