import { APP_ID } from "./seed.ts";
import type { Block, Channel, StoredMessage, User } from "./standin-types.ts";

// What Slack POSTs to an app's Request URL, field for field. Pure: no I/O, no clock except
// what the caller passes in, so the shapes can be tested on their own.

export type Team = { teamId: string; domain: string; verificationToken: string };

export type SlashCommandInput = {
  team: Team;
  channel: Pick<Channel, "id" | "name">;
  user: Pick<User, "id" | "name">;
  command: string;
  text: string;
  responseUrl: string;
  triggerId: string;
};

/** Form body of a slash command, in the order Slack sends the fields. */
export function buildSlashCommandBody(input: SlashCommandInput): string {
  const command = input.command.startsWith("/") ? input.command : `/${input.command}`;
  return new URLSearchParams([
    ["token", input.team.verificationToken],
    ["team_id", input.team.teamId],
    ["team_domain", input.team.domain],
    ["channel_id", input.channel.id],
    ["channel_name", input.channel.id.startsWith("D") ? "directmessage" : input.channel.name],
    ["user_id", input.user.id],
    ["user_name", input.user.name],
    ["command", command],
    ["text", input.text],
    ["api_app_id", APP_ID],
    ["is_enterprise_install", "false"],
    ["response_url", input.responseUrl],
    ["trigger_id", input.triggerId],
  ]).toString();
}

export type FoundButton = { blockId: string; element: Record<string, unknown> };

/** Interactive elements the stand-in can deliver from a message: buttons and static menus. */
const INTERACTIVE = new Set(["button", "static_select"]);

/** What identifies one clicked element: Slack sends all three, a test may leave some out. */
export type ElementQuery = { actionId: string; blockId?: string | undefined; value?: string | undefined };

/**
 * Every button or `static_select` of a stored message that fits the query. Slack makes
 * action_ids unique only within a block, so cards that share an action_id are told apart by
 * their block_id (and a button by its value).
 */
export function matchingElements(message: Pick<StoredMessage, "blocks">, query: ElementQuery): FoundButton[] {
  const found: FoundButton[] = [];
  for (const block of message.blocks ?? []) {
    const id = String(block.block_id ?? "");
    if (query.blockId !== undefined && id !== query.blockId) continue;
    const candidates = [
      ...(Array.isArray(block.elements) ? block.elements : []),
      ...(block.accessory ? [block.accessory] : []),
    ] as Array<Record<string, unknown>>;
    for (const element of candidates) {
      if (!element || !INTERACTIVE.has(String(element.type)) || element.action_id !== query.actionId)
        continue;
      if (query.value !== undefined && element.type === "button" && element.value !== query.value) continue;
      found.push({ blockId: id, element });
    }
  }
  return found;
}

/** A button in a stored message, by action_id (and block_id when several blocks share one). */
export function findButton(
  message: Pick<StoredMessage, "blocks">,
  actionId: string,
  blockId?: string,
): FoundButton | undefined {
  const found = findElement(message, actionId, blockId);
  return found?.element.type === "button" ? found : undefined;
}

/** A button or a `static_select` in a stored message, by action_id (and block_id): the first. */
export function findElement(
  message: Pick<StoredMessage, "blocks">,
  actionId: string,
  blockId?: string,
): FoundButton | undefined {
  return matchingElements(message, { actionId, blockId })[0];
}

type SelectOption = { text: Block; value: string };

/** A menu's options, flattened out of `option_groups` when it has them. */
function menuOptions(element: Record<string, unknown>): SelectOption[] {
  const groups = Array.isArray(element.option_groups)
    ? (element.option_groups as Array<{ options?: unknown }>)
    : [{ options: element.options }];
  return groups.flatMap((g) => (Array.isArray(g.options) ? (g.options as SelectOption[]) : []));
}

export type ElementAction =
  | { ok: true; action: Record<string, unknown>; state: Record<string, unknown> }
  | { ok: false; error: string };

/**
 * The `actions[0]` entry Slack sends for a click (button) or a choice (static_select), plus
 * the menu's entry in `state.values`. A menu needs `selectedValue`, one of its own options'
 * values: Slack can only send what the menu offered.
 */
export function elementAction(found: FoundButton, actionTs: string, selectedValue?: string): ElementAction {
  const element = found.element;
  if (element.type === "button") {
    if (selectedValue !== undefined) return { ok: false, error: "not_a_select" };
    return {
      ok: true,
      state: {},
      action: {
        action_id: element.action_id,
        block_id: found.blockId,
        text: element.text as Block,
        ...(element.value !== undefined ? { value: element.value } : {}),
        ...(element.url !== undefined ? { url: element.url } : {}),
        ...(element.style !== undefined ? { style: element.style } : {}),
        type: "button",
        action_ts: actionTs,
      },
    };
  }
  if (selectedValue === undefined) return { ok: false, error: "selected_value_required" };
  const option = menuOptions(element).find((o) => o && o.value === selectedValue);
  if (!option) return { ok: false, error: "option_not_found" };
  const selected = { text: option.text, value: option.value };
  return {
    ok: true,
    state: {
      [found.blockId]: {
        [String(element.action_id)]: { type: "static_select", selected_option: selected },
      },
    },
    action: {
      type: "static_select",
      action_id: element.action_id,
      block_id: found.blockId,
      selected_option: selected,
      ...(element.placeholder !== undefined ? { placeholder: element.placeholder } : {}),
      action_ts: actionTs,
    },
  };
}

export type BlockActionInput = {
  team: Team;
  channel: Pick<Channel, "id" | "name">;
  user: Pick<User, "id" | "name">;
  message: Pick<StoredMessage, "ts" | "ephemeral" | "threadTs">;
  button: FoundButton;
  responseUrl: string;
  triggerId: string;
  actionTs: string;
  /** The message as Slack renders it in payloads (see toSlackMessage), when the caller has it. */
  slackMessage?: Record<string, unknown>;
  /** A menu's chosen option's value (static_select only). */
  selectedValue?: string;
};

/**
 * A `block_actions` payload for a button click or a menu choice, as the JSON in the `payload`
 * form field; an error when the choice is not one the menu offers.
 */
export function buildBlockActionsPayload(
  input: BlockActionInput,
): { ok: true; payload: Record<string, unknown> } | { ok: false; error: string } {
  const { team, channel, user, message, button } = input;
  const acted = elementAction(button, input.actionTs, input.selectedValue);
  if (!acted.ok) return acted;
  const payload = {
    type: "block_actions",
    user: { id: user.id, username: user.name, name: user.name, team_id: team.teamId },
    api_app_id: APP_ID,
    token: team.verificationToken,
    container: {
      type: "message",
      message_ts: message.ts,
      channel_id: channel.id,
      is_ephemeral: message.ephemeral,
      // A reply's button names its thread, so an answer can go where the question was.
      ...(message.threadTs && message.threadTs !== message.ts ? { thread_ts: message.threadTs } : {}),
    },
    trigger_id: input.triggerId,
    team: { id: team.teamId, domain: team.domain },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel.id, name: channel.name },
    // Slack leaves the message out when the button sat in an ephemeral message.
    ...(message.ephemeral || !input.slackMessage ? {} : { message: input.slackMessage }),
    state: { values: acted.state },
    response_url: input.responseUrl,
    actions: [acted.action],
  };
  return { ok: true, payload };
}

export function buildBlockActionsBody(payload: Record<string, unknown>): string {
  return new URLSearchParams([["payload", JSON.stringify(payload)]]).toString();
}

/** Slack's trigger ids look like "13345224609.738474920.8088930838d88f008e0". */
export function newTriggerId(): string {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(10)), (b) => b.toString(16).padStart(2, "0"));
  return `${Date.now()}.${Math.floor(Math.random() * 1e9)}.${hex.join("").slice(0, 19)}`;
}

/**
 * Requests from ids alone, for callers outside the stand-in (the test bot, the test helpers, the
 * benchmarks): the workspace, channel and user fields Slack would add are those of a test
 * workspace. Built by the same functions as the stand-in's own deliveries.
 */
export type RequestIds = {
  teamId: string;
  channelId: string;
  userId: string;
  responseUrl: string;
  /** "alice" unless named. */
  userName?: string;
};

const testTeam = (teamId: string): Team => ({
  teamId,
  domain: "test",
  verificationToken: "legacy-verification-token",
});

/** A slash command's form body. */
export function slashCommandFor(ids: RequestIds & { command: string; text: string }): string {
  return buildSlashCommandBody({
    team: testTeam(ids.teamId),
    channel: { id: ids.channelId, name: "alerts" },
    user: { id: ids.userId, name: ids.userName ?? "alice" },
    command: ids.command,
    text: ids.text,
    responseUrl: ids.responseUrl,
    triggerId: "1.2.3",
  });
}

/** A button, or a menu offering `value`, for clicks on controls no stored message holds. */
export function madeUpControl(
  actionId: string,
  value: string,
  type: "button" | "static_select" = "button",
): FoundButton {
  const label = { type: "plain_text", text: "x" };
  const element =
    type === "button"
      ? { type, action_id: actionId, value, text: label }
      : { type, action_id: actionId, options: [{ text: label, value }] };
  return { blockId: "b", element };
}

/**
 * The form body of a click on `button` (or of choosing `selectedValue` in a menu) in the
 * message `messageTs`; throws when the menu does not offer that value.
 */
export function clickFor(
  ids: RequestIds & {
    messageTs: string;
    /** The thread the clicked message is a reply in. */
    threadTs?: string | undefined;
    ephemeral?: boolean;
    button: FoundButton;
    selectedValue?: string;
    /** When the click happened; the message's own ts unless given. */
    actionTs?: string;
  },
): string {
  const built = buildBlockActionsPayload({
    team: testTeam(ids.teamId),
    channel: { id: ids.channelId, name: "alerts" },
    user: { id: ids.userId, name: ids.userName ?? "alice" },
    message: {
      ts: ids.messageTs,
      ephemeral: ids.ephemeral ?? false,
      ...(ids.threadTs ? { threadTs: ids.threadTs } : {}),
    },
    button: ids.button,
    responseUrl: ids.responseUrl,
    triggerId: "1.2.3",
    actionTs: ids.actionTs ?? ids.messageTs,
    ...(ids.selectedValue === undefined ? {} : { selectedValue: ids.selectedValue }),
  });
  if (!built.ok) throw new Error(`cannot click ${String(ids.button.element.action_id)}: ${built.error}`);
  return buildBlockActionsBody(built.payload);
}
