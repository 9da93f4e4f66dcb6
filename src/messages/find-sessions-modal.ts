import type { ModalView, ViewInputBlock } from "slack-edge";

/** The Home tab's Find sessions form: the same search as `/sessions`, in fields. */
export const FIND_SESSIONS_CALLBACK_ID = "find_sessions";

/** Block ids of the inputs; each input's action id is `value`. */
export const FIND_FIELDS = { email: "email", user: "user", url: "url", since: "since" } as const;

function input(blockId: string, label: string, placeholder: string, hint?: string): ViewInputBlock {
  return {
    type: "input",
    block_id: blockId,
    optional: true,
    label: { type: "plain_text", text: label },
    element: {
      type: "plain_text_input",
      action_id: "value",
      max_length: 1000,
      placeholder: { type: "plain_text", text: placeholder },
    },
    ...(hint ? { hint: { type: "plain_text", text: hint } } : {}),
  } as ViewInputBlock;
}

export function findSessionsModal(): ModalView {
  return {
    type: "modal",
    callback_id: FIND_SESSIONS_CALLBACK_ID,
    title: { type: "plain_text", text: "Find sessions" },
    submit: { type: "plain_text", text: "Find" },
    close: { type: "plain_text", text: "Cancel" },
    blocks: [
      input(FIND_FIELDS.email, "Email", "jane@acme.com", "Fill in one of email, user id or URL."),
      input(FIND_FIELDS.user, "User id", "usr_123"),
      input(FIND_FIELDS.url, "Visited URL contains", "/checkout"),
      input(FIND_FIELDS.since, "Since", "7d, 24h or 2026-02-16", "Default: all recorded sessions."),
    ],
  };
}
