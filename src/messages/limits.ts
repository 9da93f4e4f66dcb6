import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  PublicImageBlock,
  SectionBlock,
  StaticSelect,
} from "slack-edge";

/**
 * Slack's Block Kit limits (docs/architecture.md "Platform limits"). Slack rejects the *whole* message
 * (`invalid_blocks`) when one value breaks one of them, so every builder ends in `fitMessage`.
 * Lengths are counted in UTF-16 code units, which is never less than Slack's character count.
 */
export const SLACK_LIMITS = {
  blocksPerMessage: 50,
  /** Top-level `text`: Slack truncates at 40k, but notifications and fallbacks stay readable at 4k. */
  messageText: 4000,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  /** Slack allows 3000 per text object; context is meant to be small print. */
  contextText: 2000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  actionId: 255,
  blockId: 255,
  /** A select option's label and value, and the confirm dialog's parts. */
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  altText: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
} as const;

export const ELLIPSIS = "…";

/** The blocks this bot sends; a subset of slack-edge's `AnyMessageBlock`. */
export type MessageBlock =
  | HeaderBlock
  | SectionBlock
  | ContextBlock
  | ActionsBlock
  | DividerBlock
  | PublicImageBlock;

/** What every builder returns and every poster sends: `text` is the notification fallback. */
export type SlackMessage = { text: string; blocks: MessageBlock[] };

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const ENTITY = /^&(?:amp|lt|gt);/;

/** Moves `cut` left so that `text.slice(0, cut)` does not end inside a surrogate pair. */
function surrogateSafe(text: string, cut: number): number {
  return cut > 0 && isHighSurrogate(text.charCodeAt(cut - 1)) ? cut - 1 : cut;
}

/**
 * Moves `cut` left so that `text.slice(0, cut)` does not end inside a `<…>` token (link,
 * date, mention) or an `&amp;`-style entity: half a token would swallow the rest of the
 * message or show raw markup.
 */
function mrkdwnSafe(text: string, cut: number): number {
  let safe = cut;
  const open = text.lastIndexOf("<", safe - 1);
  if (open !== -1) {
    const close = text.indexOf(">", open);
    if (close === -1 || close >= safe) safe = open;
  }
  const amp = text.lastIndexOf("&", safe - 1);
  if (amp !== -1 && amp >= safe - 5) {
    const entity = ENTITY.exec(text.slice(amp, amp + 5));
    if (entity && amp + entity[0].length > safe) safe = amp;
  }
  return surrogateSafe(text, safe);
}

function cutWith(text: string, max: number, safeCut: (text: string, cut: number) => number): string {
  if (text.length <= max) return text;
  if (max < ELLIPSIS.length) return "";
  const cut = safeCut(text, max - ELLIPSIS.length);
  return `${text.slice(0, cut).trimEnd()}${ELLIPSIS}`;
}

/** Shortens plain text to `max` units, ending in "…"; never splits a surrogate pair. */
export function truncatePlain(text: string, max: number): string {
  return cutWith(text, max, surrogateSafe);
}

/**
 * Shortens mrkdwn to `max` units, ending in "…"; never cuts inside a link, date token,
 * mention, entity or surrogate pair (it cuts before the token instead).
 */
export function truncateMrkdwn(text: string, max: number): string {
  return cutWith(text, max, mrkdwnSafe);
}

/** Slack rejects a link whose URL is longer than 3000: keep its label, drop the link. */
export function dropOverlongLinks(mrkdwn: string): string {
  return mrkdwn.replace(/<(https?:\/\/[^|>]*)\|([^>]*)>/g, (token, url: string, label: string) =>
    url.length > SLACK_LIMITS.url ? label : token,
  );
}

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url) && url.length <= SLACK_LIMITS.url;

type TextObject = { type: "plain_text"; text: string; emoji?: boolean } | { type: "mrkdwn"; text: string };

function fitTextObject<T extends TextObject>(field: T, max: number): T | null {
  const text =
    field.type === "mrkdwn"
      ? truncateMrkdwn(dropOverlongLinks(field.text), max)
      : truncatePlain(field.text, max);
  return text.trim() === "" ? null : { ...field, text };
}

/**
 * A button that Slack would refuse loses what makes it invalid: an over-long or non-http URL
 * is dropped, and a button left with neither URL nor value (a dead link) is dropped with it.
 * A value over 2000 cannot be cut without corrupting it, so that button is dropped too.
 */
function fitButton(button: Button): Button | null {
  const text = fitTextObject(button.text, SLACK_LIMITS.buttonText);
  if (!text) return null;
  if (button.value !== undefined && button.value.length > SLACK_LIMITS.buttonValue) return null;
  const fitted: Button = { ...button, text };
  if (fitted.action_id !== undefined) fitted.action_id = fitted.action_id.slice(0, SLACK_LIMITS.actionId);
  if (fitted.url !== undefined && !isHttpUrl(fitted.url)) {
    delete fitted.url;
    if (fitted.value === undefined) return null;
  }
  return fitted;
}

/**
 * A select Slack would refuse is dropped whole: an option value cannot be cut without
 * corrupting what it says, and a select without options is unusable.
 */
function fitStaticSelect(select: StaticSelect): StaticSelect | null {
  const options = select.options ?? [];
  if (options.length === 0 || options.length > 100) return null;
  if (options.some((o) => (o.value ?? "").length > SLACK_LIMITS.optionValue)) return null;
  const fitted: StaticSelect = {
    ...select,
    options: options.map((o) => ({
      ...o,
      text: { ...o.text, text: truncatePlain(o.text.text, SLACK_LIMITS.optionText) },
    })),
  };
  if (select.placeholder)
    fitted.placeholder = {
      ...select.placeholder,
      text: truncatePlain(select.placeholder.text, SLACK_LIMITS.placeholder),
    };
  return fitted;
}

function fitBlock(block: MessageBlock): MessageBlock | null {
  const fitted = fitBlockBody(block);
  if (fitted?.block_id !== undefined && fitted.block_id.length > SLACK_LIMITS.blockId) {
    fitted.block_id = fitted.block_id.slice(0, SLACK_LIMITS.blockId);
  }
  return fitted;
}

function fitBlockBody(block: MessageBlock): MessageBlock | null {
  switch (block.type) {
    case "divider":
      return { ...block };
    case "header": {
      const text = fitTextObject(block.text, SLACK_LIMITS.headerText);
      return text ? { ...block, text } : null;
    }
    case "section": {
      const text = block.text ? fitTextObject(block.text, SLACK_LIMITS.sectionText) : null;
      const fields = (block.fields ?? [])
        .map((f) => fitTextObject(f, SLACK_LIMITS.fieldText))
        .filter((f) => f !== null)
        .slice(0, SLACK_LIMITS.sectionFields);
      if (!text && fields.length === 0) return null;
      const fitted: SectionBlock = { ...block };
      delete fitted.text;
      delete fitted.fields;
      if (text) fitted.text = text;
      if (fields.length > 0) fitted.fields = fields;
      if (block.accessory?.type === "button") {
        const accessory = fitButton(block.accessory);
        if (accessory) fitted.accessory = accessory;
        else delete fitted.accessory;
      }
      return fitted;
    }
    case "context": {
      const elements = block.elements
        .map((el) => (el.type === "image" ? el : fitTextObject(el, SLACK_LIMITS.contextText)))
        .filter((el) => el !== null)
        .slice(0, SLACK_LIMITS.contextElements);
      return elements.length > 0 ? { ...block, elements } : null;
    }
    case "image": {
      // Slack fetches the image when the message is posted; a URL it cannot use sinks the message.
      if (!isHttpUrl(block.image_url)) return null;
      return { ...block, alt_text: truncatePlain(block.alt_text, SLACK_LIMITS.altText) || "image" };
    }
    case "actions": {
      const elements = block.elements
        .map((el) =>
          el.type === "button" ? fitButton(el) : el.type === "static_select" ? fitStaticSelect(el) : el,
        )
        .filter((el) => el !== null)
        .slice(0, SLACK_LIMITS.actionsElements);
      return elements.length > 0 ? { ...block, elements } : null;
    }
  }
}

/** Dropped blocks are announced, so a shortened message never looks complete. */
const SHORTENED_NOTICE: ContextBlock = {
  type: "context",
  elements: [
    { type: "mrkdwn", text: "_…and more not shown: this message was shortened to fit Slack's limits._" },
  ],
};

/**
 * Keeps at most 50 blocks. A closing actions/context block (the **More** button, the
 * "and N more" line, the "open in Decipher" link) is what the reader needs most after a cut,
 * so it survives and the cut happens in the body, marked by a notice.
 */
function fitBlockCount(blocks: MessageBlock[]): MessageBlock[] {
  const max = SLACK_LIMITS.blocksPerMessage;
  if (blocks.length <= max) return blocks;
  const last = blocks[blocks.length - 1];
  const tail = last && (last.type === "actions" || last.type === "context") ? [last] : [];
  const body = blocks.slice(0, blocks.length - tail.length).slice(0, max - 1 - tail.length);
  while (body.length > 0 && body[body.length - 1]?.type === "divider") body.pop();
  return [...body, SHORTENED_NOTICE, ...tail];
}

/**
 * The last step of every builder: clamps every string to its limit, drops what Slack would
 * reject (empty text, over-long URLs and values), caps the block count and guarantees a
 * non-empty `text` fallback.
 */
export function fitMessage(message: SlackMessage): SlackMessage {
  const blocks = message.blocks.map(fitBlock).filter((b) => b !== null);
  const text = truncateMrkdwn(dropOverlongLinks(message.text), SLACK_LIMITS.messageText);
  return { text: text.trim() === "" ? "Decipher" : text, blocks: fitBlockCount(blocks) };
}
