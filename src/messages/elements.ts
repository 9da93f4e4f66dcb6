import type {
  ActionsBlock,
  Button,
  Confirm,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  PublicImageBlock,
  SectionBlock,
  StaticSelect,
} from "slack-edge";
import { truncateMrkdwn, truncatePlain } from "./limits.ts";
import { safeUrl, wellFormed } from "./mrkdwn.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

/**
 * Block constructors. Text given here is already mrkdwn (built with `mrkdwn.ts`), except
 * `header` and button labels, which are plain text and taken raw. Every one clamps to its
 * Slack limit, so builders can pour text in without counting.
 */

export function header(raw: string): HeaderBlock {
  const text = truncatePlain(wellFormed(raw).replace(/\s+/g, " ").trim(), SLACK_LIMITS.headerText);
  return { type: "header", text: { type: "plain_text", text: text || "Decipher", emoji: true } };
}

export function section(mrkdwn: string): SectionBlock {
  return {
    type: "section",
    text: { type: "mrkdwn", text: truncateMrkdwn(mrkdwn, SLACK_LIMITS.sectionText) },
  };
}

/** A two-column section; blank values are left out, and at most 10 fields are kept. */
export function fields(pairs: [label: string, mrkdwn: string][]): SectionBlock {
  return {
    type: "section",
    fields: pairs
      .filter(([, value]) => value.trim() !== "")
      .slice(0, SLACK_LIMITS.sectionFields)
      .map(([label, value]) => ({
        type: "mrkdwn",
        text: truncateMrkdwn(`*${label}*\n${value}`, SLACK_LIMITS.fieldText),
      })),
  };
}

export function context(...mrkdwn: string[]): ContextBlock {
  return {
    type: "context",
    elements: mrkdwn
      .filter((t) => t.trim() !== "")
      .slice(0, SLACK_LIMITS.contextElements)
      .map((t) => ({ type: "mrkdwn", text: truncateMrkdwn(t, SLACK_LIMITS.contextText) })),
  };
}

export const divider = (): DividerBlock => ({ type: "divider" });

type ButtonSpec = {
  text: string;
  actionId: string;
  value?: string | null;
  url?: string | null;
  style?: "primary" | "danger";
  confirm?: Confirm;
};

/** A confirmation dialog Slack shows before sending the click (plain text, clamped). */
export function confirmDialog(spec: {
  title: string;
  text: string;
  confirm: string;
  deny?: string;
}): Confirm {
  const plain = (text: string, max: number) => ({
    type: "plain_text" as const,
    text: truncatePlain(text, max),
  });
  return {
    title: plain(spec.title, SLACK_LIMITS.confirmTitle),
    text: plain(spec.text, SLACK_LIMITS.confirmText),
    confirm: plain(spec.confirm, SLACK_LIMITS.confirmButton),
    deny: plain(spec.deny ?? "Cancel", SLACK_LIMITS.confirmButton),
    style: "danger",
  };
}

/** A static select; options whose value does not fit are left out, and so is an empty select. */
export function staticSelect(spec: {
  actionId: string;
  placeholder: string;
  options: { text: string; value: string | null }[];
}): StaticSelect | null {
  const options = spec.options
    .filter(
      (o): o is { text: string; value: string } =>
        o.value !== null && o.value.length <= SLACK_LIMITS.optionValue,
    )
    .map((o) => ({
      text: {
        type: "plain_text" as const,
        text: truncatePlain(o.text, SLACK_LIMITS.optionText),
        emoji: true,
      },
      value: o.value,
    }));
  if (options.length === 0) return null;
  return {
    type: "static_select",
    action_id: spec.actionId.slice(0, SLACK_LIMITS.actionId),
    placeholder: {
      type: "plain_text",
      text: truncatePlain(spec.placeholder, SLACK_LIMITS.placeholder),
      emoji: true,
    },
    options,
  };
}

/** An image block, or nothing when the URL is not one Slack could fetch. */
export function image(url: string | null | undefined, altText: string, title?: string): PublicImageBlock[] {
  const safe = safeUrl(url);
  if (!safe) return [];
  return [
    {
      type: "image",
      image_url: safe,
      alt_text: truncatePlain(wellFormed(altText).trim(), SLACK_LIMITS.altText) || "screenshot",
      ...(title
        ? { title: { type: "plain_text" as const, text: truncatePlain(wellFormed(title), 2000) } }
        : {}),
    },
  ];
}

/** A button, or null when it would be unusable (a link button whose URL is not safe). */
export function button(spec: ButtonSpec): Button | null {
  const url = spec.url === undefined ? undefined : safeUrl(spec.url);
  if (url === null) return null;
  // A value is echoed back verbatim, so one that does not fit (or is not valid UTF-16) is
  // not cut or repaired: the button is left out.
  const value = spec.value;
  if (
    value !== undefined &&
    (value === null || value.length > SLACK_LIMITS.buttonValue || value !== wellFormed(value))
  ) {
    return null;
  }
  const b: Button = {
    type: "button",
    text: { type: "plain_text", text: truncatePlain(spec.text, SLACK_LIMITS.buttonText), emoji: true },
    action_id: spec.actionId.slice(0, SLACK_LIMITS.actionId),
  };
  if (value !== undefined) b.value = value;
  if (url !== undefined) b.url = url;
  if (spec.style) b.style = spec.style;
  if (spec.confirm) b.confirm = spec.confirm;
  return b;
}

/** An actions block of the usable buttons and selects, or nothing when none is. */
export function actions(...buttons: (Button | StaticSelect | null)[]): ActionsBlock[] {
  const elements = buttons.filter((b) => b !== null).slice(0, SLACK_LIMITS.actionsElements);
  return elements.length > 0 ? [{ type: "actions", elements }] : [];
}

/**
 * Packs lines into as few sections as possible (each ≤ 3000 chars), using at most
 * `maxSections`. Lines that do not fit are counted and reported by `more(n)` in a last line,
 * so a long list always says how much it left out.
 */
export function packLines(lines: string[], maxSections: number, more: (n: number) => string): SectionBlock[] {
  const limit = SLACK_LIMITS.sectionText;
  const chunks: string[][] = [];
  const size = (chunk: string[]) => chunk.reduce((n, line) => n + line.length + 1, 0);
  let shown = 0;
  for (const raw of lines) {
    // Room is kept in every section for the "and N more" note.
    const line = truncateMrkdwn(raw, limit - 200);
    const last = chunks[chunks.length - 1];
    if (last && size(last) + line.length <= limit) last.push(line);
    else if (chunks.length < maxSections) chunks.push([line]);
    else break;
    shown++;
  }
  const last = chunks[chunks.length - 1];
  if (shown < lines.length && last) {
    // The last section gives up lines until the "and N more" note fits under it.
    while (last.length > 1 && size(last) + more(lines.length - shown).length > limit) {
      last.pop();
      shown--;
    }
    last.push(truncateMrkdwn(more(lines.length - shown), limit - size(last)));
  }
  return chunks.map((chunk) => section(chunk.join("\n")));
}
