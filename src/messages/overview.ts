import { link, oneLine } from "./mrkdwn.ts";

/**
 * AI overviews run to 2,500 characters in one block of text. Shown as paragraphs of a few
 * sentences, cut at a sentence (or word) boundary, and, when cut, ended with a link to the
 * whole text in Decipher.
 */

/** A paragraph closes at the first sentence end past this many characters. */
const PARAGRAPH = 280;

/** Sentences of one paragraph of the raw text (blank lines in it stay paragraph breaks). */
function paragraphsOf(raw: string): string[] {
  const out: string[] = [];
  for (const block of raw.split(/\n\s*\n/)) {
    const sentences = block
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=[.!?…])\s+/)
      .filter(Boolean);
    let current = "";
    for (const sentence of sentences) {
      current = current ? `${current} ${sentence}` : sentence;
      if (current.length >= PARAGRAPH) {
        out.push(current);
        current = "";
      }
    }
    if (current) out.push(current);
  }
  return out;
}

/** The first `max` characters of `paragraphs`, ending at a sentence end if one is near, else a word. */
function cutTo(paragraphs: string[], max: number): { kept: string[]; cut: boolean } {
  const kept: string[] = [];
  let used = 0;
  for (const paragraph of paragraphs) {
    if (used + paragraph.length <= max) {
      kept.push(paragraph);
      used += paragraph.length + 2;
      continue;
    }
    const room = max - used;
    const head = paragraph.slice(0, Math.max(0, room));
    const sentenceEnd = Math.max(head.lastIndexOf(". "), head.lastIndexOf("! "), head.lastIndexOf("? "));
    if (sentenceEnd > room / 2) kept.push(head.slice(0, sentenceEnd + 1));
    else if (room > 40) kept.push(`${head.replace(/\s+\S*$/, "")}…`);
    return { kept, cut: true };
  }
  return { kept, cut: false };
}

/**
 * Safe mrkdwn: the overview in paragraphs, at most about `max` characters of it, then
 * `<url|label>` when something was left out. Empty for a blank overview.
 */
export function overviewText(
  raw: string | null | undefined,
  max: number,
  rest?: { url: string; label: string },
): string {
  const paragraphs = paragraphsOf(raw ?? "");
  if (paragraphs.length === 0) return "";
  const { kept, cut } = cutTo(paragraphs, max);
  const body = kept.map((p) => oneLine(p)).filter(Boolean);
  if (cut && rest) {
    // The link ends the last paragraph, so a short cut stays one paragraph.
    const last = body.pop();
    body.push([last, link(rest.url, rest.label)].filter(Boolean).join(" "));
  }
  return body.join("\n\n");
}
