import type { ModalView, ViewInputBlock } from "slack-edge";
import type { MessageBlock } from "./limits.ts";

/** The Home tab's Connect Decipher section and form (multi-workspace mode). */
export const CONNECT_DECIPHER_ACTION_ID = "decipher_connect_open";
export const CONNECT_DECIPHER_CALLBACK_ID = "decipher_connect";
export const CONNECT_FIELDS = { key: "key", remove: "remove", admins: "admins" } as const;

/** What the Home shows about the key: never more than its last 4 characters. */
export type KeyShown = { last4: string; setBy: string; setAt: string } | null;

const dateToken = (iso: string) =>
  `<!date^${Math.floor(Date.parse(iso) / 1000)}^{date_short_pretty} at {time}|${iso.slice(0, 16).replace("T", " ")} UTC>`;

export function connectDecipherBlocks(key: KeyShown): MessageBlock[] {
  const text = key
    ? `*Decipher organization:* connected with the key ending \`${key.last4}\`, added by <@${key.setBy}> ${dateToken(key.setAt)}.`
    : "*Decipher organization:* not connected yet. Commands and alerts start working once an API key is connected here.";
  return [
    {
      type: "section",
      block_id: "decipher_connect",
      text: { type: "mrkdwn", text },
      accessory: {
        type: "button",
        action_id: CONNECT_DECIPHER_ACTION_ID,
        text: { type: "plain_text", text: key ? "Replace or remove key" : "Connect Decipher" },
        ...(key ? {} : { style: "primary" }),
      },
    } as MessageBlock,
    { type: "divider" } as MessageBlock,
  ];
}

export function connectDecipherModal(key: KeyShown, admins: string[]): ModalView {
  const keyInput = {
    type: "input",
    block_id: CONNECT_FIELDS.key,
    optional: key !== null,
    label: { type: "plain_text", text: key ? `New API key (now: …${key.last4})` : "Decipher API key" },
    element: {
      type: "plain_text_input",
      action_id: "value",
      max_length: 200,
      placeholder: { type: "plain_text", text: "dcp_…" },
    },
    hint: {
      type: "plain_text",
      text: "From Decipher: Settings → API keys. It is checked with Decipher first, stored encrypted, and never shown again.",
    },
  } as ViewInputBlock;
  const remove = {
    type: "input",
    block_id: CONNECT_FIELDS.remove,
    optional: true,
    label: { type: "plain_text", text: "Remove" },
    element: {
      type: "checkboxes",
      action_id: "value",
      options: [
        {
          text: { type: "plain_text", text: "Remove the key: alerts stop until one is connected" },
          value: "remove",
        },
      ],
    },
  } as ViewInputBlock;
  const adminInput = {
    type: "input",
    block_id: CONNECT_FIELDS.admins,
    optional: true,
    label: { type: "plain_text", text: "Bot admins" },
    element: {
      type: "multi_users_select",
      action_id: "value",
      ...(admins.length > 0 ? { initial_users: admins } : {}),
    },
    hint: {
      type: "plain_text",
      text: "Only they may change subscriptions, snooze or mute. Empty: everyone may.",
    },
  } as ViewInputBlock;
  return {
    type: "modal",
    callback_id: CONNECT_DECIPHER_CALLBACK_ID,
    title: { type: "plain_text", text: "Connect Decipher" },
    submit: { type: "plain_text", text: "Save" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: key ? [keyInput, remove, adminInput] : [keyInput, adminInput],
  };
}

export function notAllowedModal(installerUserId: string): ModalView {
  return {
    type: "modal",
    title: { type: "plain_text", text: "Connect Decipher" },
    close: { type: "plain_text", text: "Close" },
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `Only <@${installerUserId}> (who installed the app), the bot's admins or a workspace admin can connect Decipher here. Ask one of them.`,
        },
      },
    ],
  } as ModalView;
}

/** The DM to the installer when another member approved the app again (src/model/installer.ts). */
export function reinstalledBy(userId: string): { text: string } {
  return {
    text: `<@${userId}> installed Decipher again in this workspace. The Decipher key, who installed it and the bot admins stay as they were: only you, a bot admin or a workspace admin can change them, in the app's Home tab.`,
  };
}
