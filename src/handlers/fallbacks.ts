import type {
  BlockSuggestionAckHandler,
  GlobalShortcutAckHandler,
  MessageShortcutAckHandler,
  MessageShortcutLazyHandler,
  SlackEdgeAppEnv,
  SlashCommandAckHandler,
  SourceSpecifiedBlockActionLazyHandler,
  ViewClosedAckHandler,
  ViewSubmissionAckHandler,
} from "slack-edge";
import { errorMessage } from "../messages/help.ts";
import { reply } from "../slack-api/respond.ts";
import type { Deps } from "../wiring.ts";
import { fromHome } from "./actions/triage-buttons.ts";
import { helpAck } from "./help.ts";
import { refreshHome } from "./home/app-home.ts";
import type { LeanSlackApp } from "./lean-slack-app.ts";

/**
 * What the person sees when a control from an older message of the bot is used: its
 * `action_id` is one this version no longer has (an upgrade renamed it), so nothing happens
 * but this note, and the note says what to do instead.
 */
export const OLDER_MESSAGE_NOTE =
  "That button belongs to an older message from this app and no longer works, so nothing changed. Run `/decipher help` to see what the app can do now, or `/sessions <email>` to look someone's sessions up again.";

/** A shortcut or a legacy interactive message this app has no handler for. */
export const NO_HANDLER_NOTE =
  "This app has no action for that here, so nothing changed. Run `/decipher help` to see what it can do.";

/** Anything: registered after the real listeners, so only what none of them took reaches these. */
const ANY = /^/;

/** The answer to a command the bot does not know: the help, to the person alone. */
export const unknownCommandAnswer = helpAck;

const unknownCommand: SlashCommandAckHandler<SlackEdgeAppEnv> = async () => unknownCommandAnswer();

type OlderButton = SourceSpecifiedBlockActionLazyHandler<SlackEdgeAppEnv>;

/**
 * `refreshHome`: a Home tab has no `response_url` for the note, and an unknown control there
 * means the tab was published by an older version; publishing it again puts today's controls
 * in front of the person, which says more than a note could.
 */
const olderButton =
  (refreshHome: (req: Parameters<OlderButton>[0]) => Promise<void>): OlderButton =>
  async (req) => {
    // A link button also sends an interaction, and one without an action_id gets a random one
    // from Slack: it did its job by opening its link.
    if ("url" in (req.payload.actions[0] ?? {})) return;
    if (fromHome(req)) return refreshHome(req);
    await reply(req.context.respond, errorMessage(OLDER_MESSAGE_NOTE));
  };

const noOptions: BlockSuggestionAckHandler<SlackEdgeAppEnv> = async () => ({ options: [] });
const closeView: ViewSubmissionAckHandler<SlackEdgeAppEnv> = async () => {};
const viewClosed: ViewClosedAckHandler<SlackEdgeAppEnv> = async () => {};
const quietAck: GlobalShortcutAckHandler<SlackEdgeAppEnv> & MessageShortcutAckHandler<SlackEdgeAppEnv> =
  async () => {};
const shortcutNote: MessageShortcutLazyHandler<SlackEdgeAppEnv> = async (req) => {
  await reply(req.context.respond, errorMessage(NO_HANDLER_NOTE));
};

/**
 * Slack shows the person an error for anything but a 2xx within 3 s, and a payload no listener
 * takes would get a 404. These listeners, last in line, take whatever the others did not: an
 * unknown command gets the help, a control from an older message a note through its
 * `response_url` (on the Home tab, the tab published again), a suggestion request no options,
 * a modal an empty ack (it closes), a shortcut an empty ack and, where Slack gave a
 * `response_url`, a note. The shapes they cannot
 * match (no `actions`, no `view`, …) never reach the Slack app: src/handlers/slack-edge.ts
 * answers those first.
 */
export function registerFallbacks(app: LeanSlackApp, deps: Deps): void {
  app.command(ANY, unknownCommand);
  const republish: Parameters<typeof olderButton>[0] = (req) =>
    refreshHome(deps, req.payload.user.id, req.context.teamId, req.context.authorizeResult.url ?? null);
  app.action(ANY, async () => {}, olderButton(republish));
  app.options(ANY, noOptions);
  app.viewSubmission(ANY, closeView);
  app.viewClosed(ANY, viewClosed);
  app.globalShortcut(ANY, quietAck);
  app.messageShortcut(ANY, quietAck, shortcutNote);
}
