import type { SlackMessage } from "./limits.ts";

export type ResponseOptions = {
  /** `ephemeral` (default) shows only to the person who asked. */
  responseType?: "ephemeral" | "in_channel";
  /** Replace the message the button or the "working on it" ack was in. */
  replaceOriginal?: boolean;
};

/**
 * Answers through a `response_url` (5 uses within 30 min). Failures are logged by status only:
 * the URL itself is a bearer credential for the conversation and is never logged.
 */
export async function respond(
  responseUrl: string,
  message: SlackMessage,
  options: ResponseOptions = {},
): Promise<boolean> {
  try {
    const res = await fetch(responseUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        response_type: options.responseType ?? "ephemeral",
        replace_original: options.replaceOriginal ?? false,
        text: message.text,
        blocks: message.blocks,
      }),
    });
    if (!res.ok) console.warn(`response_url answered ${res.status}`);
    await res.body?.cancel();
    return res.ok;
  } catch (error) {
    console.warn(`response_url unreachable: ${error instanceof Error ? error.name : "unknown"}`);
    return false;
  }
}
