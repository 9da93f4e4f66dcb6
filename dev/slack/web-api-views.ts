import { isRecord } from "../../src/util/checks.ts";
import { type Params, stringParam } from "./api-params.ts";
import { MESSAGE_ONLY_BLOCKS, validateBlocks } from "./block-limits.ts";
import { slackError } from "./content.ts";
import { withBlockIds } from "./messages.ts";
import type { MethodBody, MethodContext } from "./method-types.ts";
import type { Block, StoredView } from "./standin-types.ts";
import type { Workspace } from "./workspaces.ts";

// views.publish (a user's Home tab) and views.open (a modal, needs a fresh trigger_id), with
// Slack's checks: 100 blocks, the view's type, a modal's title (24 chars) and a submit button
// when it has inputs. Errors come as `invalid_arguments` with Slack's json-pointer messages.

export const VIEW_LIMITS = { blocks: 100, title: 24, buttonText: 24, callbackId: 255, privateMetadata: 3000 };
/** Slack honours a trigger_id for 3 seconds, once. */
export const TRIGGER_TTL_MS = 3000;

function readView(params: Params): Record<string, unknown> | null {
  let value = params.view;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return isRecord(value) ? value : null;
}

function invalid(messages: string[]): MethodBody {
  return slackError("invalid_arguments", { response_metadata: { messages } });
}

function plainText(problems: string[], value: unknown, pointer: string, max: number, required: boolean) {
  if (value === undefined && !required) return;
  if (
    !isRecord(value) ||
    value.type !== "plain_text" ||
    typeof value.text !== "string" ||
    value.text === ""
  ) {
    problems.push(`[ERROR] must be a plain_text object [json-pointer:${pointer}]`);
  } else if (value.text.length > max) {
    problems.push(`[ERROR] must be less than ${max + 1} characters [json-pointer:${pointer}/text]`);
  }
}

function viewProblems(view: Record<string, unknown>, type: "home" | "modal"): string[] {
  const problems: string[] = [];
  if (view.type !== type) problems.push(`[ERROR] must be ${type} [json-pointer:/view/type]`);
  if (!Array.isArray(view.blocks)) {
    problems.push("[ERROR] must provide an array [json-pointer:/view/blocks]");
    return problems;
  }
  // Charts and tables are message blocks: a Home tab or a modal refuses them.
  problems.push(
    ...validateBlocks(view.blocks, VIEW_LIMITS.blocks, "/view/blocks", { refused: MESSAGE_ONLY_BLOCKS }),
  );
  if (typeof view.callback_id === "string" && view.callback_id.length > VIEW_LIMITS.callbackId) {
    problems.push(`[ERROR] must be less than 256 characters [json-pointer:/view/callback_id]`);
  }
  if (
    typeof view.private_metadata === "string" &&
    view.private_metadata.length > VIEW_LIMITS.privateMetadata
  ) {
    problems.push("[ERROR] must be less than 3001 characters [json-pointer:/view/private_metadata]");
  }
  if (type === "modal") {
    plainText(problems, view.title, "/view/title", VIEW_LIMITS.title, true);
    plainText(problems, view.submit, "/view/submit", VIEW_LIMITS.buttonText, false);
    plainText(problems, view.close, "/view/close", VIEW_LIMITS.buttonText, false);
    const hasInput = view.blocks.some((b) => isRecord(b) && b.type === "input");
    if (hasInput && view.submit === undefined) {
      problems.push(
        "[ERROR] must provide a submit button when using input blocks [json-pointer:/view/submit]",
      );
    }
  }
  return problems;
}

function storedView(
  ws: Workspace,
  type: "home" | "modal",
  userId: string,
  view: Record<string, unknown>,
): StoredView {
  return {
    id: `V0${String(ws.nextViewId++).padStart(8, "0")}`,
    type,
    userId,
    // Slack gives view blocks without one a block_id too, and echoes it in block_actions.
    view: { ...view, blocks: withBlockIds(ws, view.blocks as Block[]) },
    open: true,
    at: new Date().toISOString(),
  };
}

/** The view as Slack echoes it back: the stored JSON plus ids, state and a hash. */
export function viewObject(ws: Workspace, stored: StoredView): Record<string, unknown> {
  return {
    ...stored.view,
    id: stored.id,
    team_id: ws.teamId,
    state: { values: {} },
    hash: `${stored.id}.${stored.at}`,
    app_id: "A0DECIPHER",
    bot_id: "B0DECIPHER",
  };
}

export const viewsPublish = ({ ws, params }: MethodContext): MethodBody => {
  const userId = stringParam(params, "user_id");
  if (!userId) return invalid(["[ERROR] missing required field: user_id"]);
  const user = ws.users.get(userId);
  if (!user || user.isBot) return slackError("user_not_found");
  const view = readView(params);
  if (!view) return invalid(["[ERROR] failed to match all allowed schemas [json-pointer:/view]"]);
  const problems = viewProblems(view, "home");
  if (problems.length > 0) return invalid(problems);
  const previous = ws.homeViews.get(userId);
  const hash = stringParam(params, "hash");
  if (hash && previous && hash !== viewObject(ws, previous).hash) return slackError("hash_conflict");
  const stored = storedView(ws, "home", userId, view);
  ws.homeViews.set(userId, stored);
  return { ok: true, view: viewObject(ws, stored) };
};

export const viewsOpen = ({ ws, params }: MethodContext): MethodBody => {
  const triggerId = stringParam(params, "trigger_id");
  if (!triggerId) return invalid(["[ERROR] missing required field: trigger_id"]);
  const issued = ws.triggerIds.get(triggerId);
  if (issued === undefined) return slackError("invalid_trigger_id");
  if (issued.used) return slackError("exchanged_trigger_id");
  if (Date.now() - issued.at > TRIGGER_TTL_MS) return slackError("expired_trigger_id");
  const view = readView(params);
  if (!view) return invalid(["[ERROR] failed to match all allowed schemas [json-pointer:/view]"]);
  const problems = viewProblems(view, "modal");
  if (problems.length > 0) return invalid(problems);
  issued.used = true;
  const stored = storedView(ws, "modal", issued.userId, view);
  ws.modals.push(stored);
  return { ok: true, view: viewObject(ws, stored) };
};

/** Records a trigger_id the stand-in hands to the app (in a payload, or to a test) for `userId`. */
export function issueTriggerId(ws: Workspace, triggerId: string, userId: string, at = Date.now()): string {
  ws.triggerIds.set(triggerId, { at, userId, used: false });
  return triggerId;
}
