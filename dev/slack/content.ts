import { blocksParam, type Params, stringParam } from "./api-params.ts";
import { validateBlocks } from "./block-limits.ts";
import type { Block } from "./standin-types.ts";

// The text/blocks checks every way of posting shares (chat.*, response_url, command acks).

export const MAX_TEXT = 40_000;

export type SlackErrorBody = { ok: false; error: string; [key: string]: unknown };

export type Content =
  | { ok: true; text: string | undefined; blocks: Block[] | undefined }
  | { ok: false; body: SlackErrorBody };

export function slackError(error: string, extra: Record<string, unknown> = {}): SlackErrorBody {
  return { ok: false, error, ...extra };
}

/**
 * `requireContent`: a new message needs text, blocks or attachments; an update may omit both.
 * `refusedBlocks`: block types the workspace does not have yet (`Workspace.refusedBlocks`).
 */
export function readContent(
  params: Params,
  requireContent: boolean,
  refusedBlocks: ReadonlySet<string> = new Set(),
): Content {
  const text = stringParam(params, "text");
  const parsed = blocksParam(params);
  if (!parsed.ok) return { ok: false, body: slackError(parsed.error) };
  const { blocks } = parsed;
  const hasAttachments = params.attachments !== undefined && params.attachments !== "";
  if (requireContent && !text && !(blocks && blocks.length > 0) && !hasAttachments) {
    return { ok: false, body: slackError("no_text") };
  }
  if (text && text.length > MAX_TEXT) return { ok: false, body: slackError("msg_too_long") };
  if (blocks) {
    const problems = validateBlocks(blocks, undefined, undefined, { refused: refusedBlocks });
    if (problems.length > 0) {
      return {
        ok: false,
        body: slackError("invalid_blocks", {
          errors: problems.map((p) => p.replace(/^\[ERROR\] /, "")),
          response_metadata: { messages: problems },
        }),
      };
    }
  }
  return { ok: true, text, blocks };
}
