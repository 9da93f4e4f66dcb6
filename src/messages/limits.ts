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
import type {
  ChartPoint,
  DataVisualizationBlock,
  SeriesChart,
  TableBlock,
  TableCell,
  TableRichCell,
} from "./rich-blocks.ts";
import * as SLACK_LIMITS from "./slack-limits.ts";

export const ELLIPSIS = "…";

/** The blocks this bot sends; a subset of slack-edge's `AnyMessageBlock`. */
export type MessageBlock =
  | HeaderBlock
  | SectionBlock
  | ContextBlock
  | ActionsBlock
  | DividerBlock
  | PublicImageBlock
  | DataVisualizationBlock
  | TableBlock;

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

/**
 * An http(s) URL ready for a button or a link, or null. `|`, `<`, `>` and whitespace are
 * percent-encoded (they would end a mrkdwn link early); anything else (javascript:, mailto:,
 * garbage, over 3000 chars) is rejected.
 */
export function safeUrl(url: string | null | undefined): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  const href = parsed.href.replace(/[|<>\s]/g, (c) => encodeURIComponent(c));
  return href.length <= SLACK_LIMITS.url ? href : null;
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

/** A label Slack accepts: one line, trimmed, at most `max` characters, not empty. */
function chartText(text: unknown, max: number): string {
  return typeof text === "string" ? truncatePlain(wellFormedText(text).replace(/\s+/g, " ").trim(), max) : "";
}

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * A chart Slack would refuse loses what it cannot show or is dropped whole (its text
 * alternative then stands in): labels are cut to 20, only the last 20 categories are kept,
 * a series must have a finite value for every category and a unique name.
 */
function fitSeriesChart(chart: SeriesChart): SeriesChart | null {
  const cut = (label: string) => chartText(label, SLACK_LIMITS.chartLabel);
  const categories = chart.axis_config.categories.map(cut).slice(-SLACK_LIMITS.chartPoints);
  if (categories.length === 0 || categories.includes("") || new Set(categories).size !== categories.length)
    return null;
  const names = new Set<string>();
  const series = chart.series.flatMap((s) => {
    const name = cut(s.name);
    if (name === "" || names.has(name)) return [];
    const byLabel = new Map(s.data.map((p) => [cut(p.label), p.value]));
    const data: ChartPoint[] = [];
    for (const label of categories) {
      const value = byLabel.get(label);
      if (!finite(value)) return [];
      data.push({ label, value });
    }
    names.add(name);
    return [{ name, data }];
  });
  if (series.length === 0) return null;
  const axis_config: SeriesChart["axis_config"] = { categories };
  const x = chartText(chart.axis_config.x_label, SLACK_LIMITS.chartAxisLabel);
  const y = chartText(chart.axis_config.y_label, SLACK_LIMITS.chartAxisLabel);
  if (x) axis_config.x_label = x;
  if (y) axis_config.y_label = y;
  return { type: chart.type, series: series.slice(0, SLACK_LIMITS.chartSeries), axis_config };
}

function fitChart(block: DataVisualizationBlock): DataVisualizationBlock | null {
  const title = chartText(block.title, SLACK_LIMITS.chartTitle);
  if (!title) return null;
  const { chart } = block;
  if (chart.type === "pie") {
    const segments = chart.segments
      .map((s) => ({ label: chartText(s.label, SLACK_LIMITS.chartLabel), value: s.value }))
      .filter((s) => s.label !== "" && finite(s.value) && s.value > 0)
      .slice(0, SLACK_LIMITS.pieSegments);
    return segments.length > 0 ? { ...block, title, chart: { type: "pie", segments } } : null;
  }
  const fitted = fitSeriesChart(chart);
  return fitted ? { ...block, title, chart: fitted } : null;
}

function fitLink(link: { type: "link"; url: string; text: string }) {
  const url = safeUrl(link.url);
  return url ? { ...link, url } : { type: "text" as const, text: link.text };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Text that is valid UTF-16: a lone surrogate (a cut emoji from the vendor) becomes U+FFFD. */
const wellFormedText = (text: string) => text.replace(LONE_SURROGATE, "\uFFFD");

/** A cell with text in it (Slack refuses an empty one); a link Slack could not use becomes text. */
function fitCell(cell: TableCell): TableCell {
  const dash: TableCell = { type: "raw_text", text: "–" };
  if (cell.type === "raw_text") {
    const text = wellFormedText(cell.text);
    return text.trim() === "" ? dash : { type: "raw_text", text };
  }
  const elements: TableRichCell["elements"] = cell.elements
    .map((section) => ({
      type: "rich_text_section" as const,
      elements: section.elements
        .map((el) => ({ ...el, text: wellFormedText(el.text ?? "") }))
        .filter((el) => el.text.trim() !== "")
        .map((el) => (el.type === "link" ? fitLink(el) : el)),
    }))
    .filter((section) => section.elements.length > 0);
  return elements.length === 0 ? dash : { type: "rich_text", elements };
}

function fitTable(block: TableBlock): TableBlock | null {
  const rows = block.rows
    .slice(0, SLACK_LIMITS.tableRows)
    .map((row) => row.slice(0, SLACK_LIMITS.tableCells).map(fitCell))
    .filter((row) => row.length > 0);
  if (rows.length === 0) return null;
  const fitted: TableBlock = { ...block, rows };
  if (block.column_settings)
    fitted.column_settings = block.column_settings.slice(0, SLACK_LIMITS.tableColumnSettings);
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
    case "data_visualization":
      return fitChart(block);
    case "table":
      return fitTable(block);
  }
}

/** At most 2 charts and 1 table a message: later ones are dropped (their alternatives stay). */
function fitRichCounts(blocks: MessageBlock[]): MessageBlock[] {
  let charts = 0;
  let tables = 0;
  return blocks.filter((b) => {
    if (b.type === "data_visualization") return ++charts <= SLACK_LIMITS.chartsPerMessage;
    if (b.type === "table") return ++tables <= SLACK_LIMITS.tablesPerMessage;
    return true;
  });
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
  const blocks = fitRichCounts(message.blocks.map(fitBlock).filter((b) => b !== null));
  const text = truncateMrkdwn(dropOverlongLinks(message.text), SLACK_LIMITS.messageText);
  return { text: text.trim() === "" ? "Decipher" : text, blocks: fitBlockCount(blocks) };
}
