import type { PublicImageBlock } from "slack-edge";
import { fitMessage, type MessageBlock, truncatePlain } from "./limits.ts";
import { safeUrl } from "./mrkdwn.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

/** Link buttons in unfurls still send an interaction; this id is only acknowledged. */
export const UNFURL_LINK_ACTION_ID = "unfurl_open";

/** An unfurl's blocks: the message blocks this bot builds, plus an image. */
export type UnfurlBlock = MessageBlock | PublicImageBlock;

/** Slack's own image limits: a public http(s) URL up to 3000 chars, alt text up to 2000. */
export function imageBlock(url: string, alt: string, title?: string): PublicImageBlock | null {
  const safe = safeUrl(url);
  if (!safe || !/^https?:/i.test(safe)) return null;
  return {
    type: "image",
    image_url: safe,
    alt_text: truncatePlain(alt.trim() || "Screenshot", 2000),
    ...(title ? { title: { type: "plain_text", text: truncatePlain(title, 2000), emoji: true } } : {}),
  };
}

/**
 * Fits the message blocks to Slack's limits and puts the image after the first `imageAfter`
 * of them. An unfurl is small, so the 50-block cap never bites; the fitting is for lengths.
 */
export function unfurlBlocks(blocks: MessageBlock[], image: PublicImageBlock | null, imageAfter: number) {
  const fitted: UnfurlBlock[] = fitMessage({ text: "Decipher", blocks }).blocks;
  if (image) fitted.splice(Math.min(imageAfter, fitted.length), 0, image);
  return fitted.slice(0, SLACK_LIMITS.blocksPerMessage);
}
