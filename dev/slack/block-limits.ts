/**
 * What Slack accepts in a message, stated once for the Slack stand-in and the tests (see
 * docs/architecture.md "Platform limits"). It imports nothing from src/messages/limits.ts, so a
 * wrong constant there cannot make these checks agree with it.
 *
 * Two levels of the same checks:
 * - what Slack refuses: it answers `invalid_blocks` with one "[ERROR] … [json-pointer:…]" line
 *   per problem in response_metadata.messages. The stand-in answers with exactly these.
 * - `strict` adds what Slack takes but a reader would see broken, each as a "[STRICT] …" line:
 *   a missing or over-long fallback `text`, mrkdwn that does not parse (a broken `<…>` token, a
 *   stray `>`, a bare `&`), lone surrogates, text of only spaces, a URL that is not http(s),
 *   two controls of one block with one action_id, a confirm text that is not plain text, and
 *   block or element types the bot does not build. The builder tests hold messages to these.
 */

import { isRecord } from "../../src/util/checks.ts";

export const LIMITS = {
  blocks: 50,
  /** The fallback `text` Slack shows in notifications (it truncates longer ones). */
  fallbackText: 4000,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  contextElements: 10,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  actionId: 255,
  blockId: 255,
  altText: 2000,
  imageTitle: 2000,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  // data_visualization and table, from Slack's Block Kit reference.
  chartTitle: 50,
  chartsPerMessage: 2,
  chartSeries: 6,
  chartPoints: 20,
  chartLabel: 20,
  chartAxisLabel: 50,
  pieSegments: 6,
  tablesPerMessage: 1,
  tableRows: 100,
  tableCells: 20,
  tableColumnSettings: 20,
} as const;

const KNOWN_BLOCK_TYPES = new Set([
  "section",
  "header",
  "context",
  "divider",
  "actions",
  "image",
  "rich_text",
  "input",
  "file",
  "video",
  "markdown",
  "data_visualization",
  "table",
]);

/** The block and control types the bot builds; strict checks refuse the others. */
const BOT_BLOCK_TYPES = new Set([
  "section",
  "header",
  "context",
  "divider",
  "actions",
  "image",
  "data_visualization",
  "table",
]);
const BOT_ACTION_ELEMENTS = new Set(["button", "static_select"]);
/** Blocks Slack takes in messages only (not in a Home tab or a modal). */
export const MESSAGE_ONLY_BLOCKS: ReadonlySet<string> = new Set(["data_visualization", "table"]);

type Check = { problems: string[]; strict: boolean };

const slackSays = (c: Check, what: string, pointer: string) => {
  c.problems.push(`[ERROR] ${what} [json-pointer:${pointer}]`);
};
const strictSays = (c: Check, what: string, pointer: string) => {
  if (c.strict) c.problems.push(`[STRICT] ${what} [json-pointer:${pointer}]`);
};

const HTTP_URL = /^https?:\/\/\S+$/;

// What a `<` may open in mrkdwn the bot writes: a link with a label, a date token, a mention.
const TOKEN =
  /^<(?:https?:\/\/[^\s<>|]+\|[^<>\n]+|!date\^\d+\^[^|<>]+\|[^<>\n]+|@[UW][A-Z0-9]+|#[CG][A-Z0-9]+|!subteam\^S[A-Z0-9]+)>/;
const ENTITY = /^&(?:amp|lt|gt);/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Problems of one mrkdwn string: broken tokens, stray `>`, bare `&`, lone surrogates. */
export function mrkdwnProblems(text: string, pointer: string): string[] {
  const c: Check = { problems: [], strict: true };
  mrkdwn(c, text, pointer);
  return c.problems;
}

function mrkdwn(c: Check, text: string, pointer: string) {
  if (LONE_SURROGATE.test(text)) strictSays(c, "lone surrogate", pointer);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "<") {
      const token = TOKEN.exec(text.slice(i, i + LIMITS.url + 1000));
      if (!token) {
        strictSays(c, `broken token at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`, pointer);
        continue;
      }
      const url = /^<(https?:\/\/[^|]+)\|/.exec(token[0])?.[1];
      if (url && url.length > LIMITS.url) strictSays(c, `link URL over ${LIMITS.url}`, pointer);
      i += token[0].length - 1;
    } else if (ch === ">") {
      strictSays(c, `stray > at ${i}`, pointer);
    } else if (ch === "&" && !ENTITY.test(text.slice(i, i + 5))) {
      strictSays(c, `bare & at ${i}`, pointer);
    }
  }
}

function maxChars(c: Check, value: unknown, limit: number, pointer: string) {
  if (typeof value === "string" && value.length > limit) {
    slackSays(c, `must be less than ${limit + 1} characters`, pointer);
  }
}

function maxItems(c: Check, value: unknown, limit: number, pointer: string) {
  if (Array.isArray(value) && value.length > limit) {
    slackSays(c, `no more than ${limit} items allowed`, pointer);
  }
}

function httpUrl(c: Check, value: unknown, pointer: string) {
  if (typeof value === "string" && !HTTP_URL.test(value)) strictSays(c, "must be an http(s) URL", pointer);
}

function textObject(c: Check, value: unknown, pointer: string, limit: number, plainOnly = false) {
  if (!isRecord(value)) {
    slackSays(c, "must be an object", pointer);
    return;
  }
  const type = value.type;
  if (type !== "plain_text" && !(type === "mrkdwn" && !plainOnly)) {
    slackSays(c, "must be a valid enum value", `${pointer}/type`);
  }
  if (typeof value.text !== "string" || value.text.length === 0) {
    slackSays(c, "must be more than 0 characters", `${pointer}/text`);
    return;
  }
  maxChars(c, value.text, limit, `${pointer}/text`);
  if (value.text.trim() === "") strictSays(c, "only spaces", `${pointer}/text`);
  if (type === "mrkdwn") mrkdwn(c, value.text, `${pointer}/text`);
  else if (LONE_SURROGATE.test(value.text)) strictSays(c, "lone surrogate", `${pointer}/text`);
}

/** A confirm dialog: plain-text title, text (plain or mrkdwn), confirm and deny labels. */
function confirmObject(c: Check, value: unknown, pointer: string) {
  if (!isRecord(value)) {
    slackSays(c, "must be an object", pointer);
    return;
  }
  textObject(c, value.title, `${pointer}/title`, LIMITS.confirmTitle, true);
  textObject(c, value.text, `${pointer}/text`, LIMITS.confirmText);
  if (isRecord(value.text) && value.text.type !== "plain_text") {
    strictSays(c, "must be plain_text", `${pointer}/text/type`);
  }
  textObject(c, value.confirm, `${pointer}/confirm`, LIMITS.confirmButton, true);
  textObject(c, value.deny, `${pointer}/deny`, LIMITS.confirmButton, true);
  if (value.style !== undefined && value.style !== "primary" && value.style !== "danger") {
    slackSays(c, "must be one of primary, danger", `${pointer}/style`);
  }
}

/** 1–100 options (or option_groups) of plain-text labels ≤ 75 and values ≤ 150. */
function staticSelect(c: Check, el: Record<string, unknown>, pointer: string) {
  if (el.placeholder !== undefined) {
    textObject(c, el.placeholder, `${pointer}/placeholder`, LIMITS.placeholder, true);
  }
  const hasGroups = Array.isArray(el.option_groups);
  if (hasGroups === Array.isArray(el.options)) {
    slackSays(c, "must provide exactly one of options or option_groups", pointer);
    return;
  }
  const lists: [unknown[], string][] = hasGroups
    ? (el.option_groups as unknown[]).map((g, i) => [
        isRecord(g) && Array.isArray(g.options) ? g.options : [],
        `${pointer}/option_groups/${i}/options`,
      ])
    : [[el.options as unknown[], `${pointer}/options`]];
  const total = lists.reduce((n, [list]) => n + list.length, 0);
  if (total === 0) slackSays(c, "must provide at least 1 item", lists[0]?.[1] ?? pointer);
  for (const [list, at] of lists) {
    maxItems(c, list, LIMITS.selectOptions, at);
    list.forEach((o, i) => {
      if (!isRecord(o)) {
        slackSays(c, "must be an object", `${at}/${i}`);
        return;
      }
      textObject(c, o.text, `${at}/${i}/text`, LIMITS.optionText, true);
      if (typeof o.value !== "string" || o.value.length === 0) {
        slackSays(c, "must be more than 0 characters", `${at}/${i}/value`);
        return;
      }
      maxChars(c, o.value, LIMITS.optionValue, `${at}/${i}/value`);
    });
  }
}

function element(c: Check, el: unknown, pointer: string) {
  if (!isRecord(el)) {
    slackSays(c, "must be an object", pointer);
    return;
  }
  maxChars(c, el.action_id, LIMITS.actionId, `${pointer}/action_id`);
  if (el.confirm !== undefined) confirmObject(c, el.confirm, `${pointer}/confirm`);
  if (el.type === "button") {
    textObject(c, el.text, `${pointer}/text`, LIMITS.buttonText, true);
    maxChars(c, el.value, LIMITS.buttonValue, `${pointer}/value`);
    if (typeof el.value === "string" && LONE_SURROGATE.test(el.value)) {
      strictSays(c, "lone surrogate", `${pointer}/value`);
    }
    maxChars(c, el.url, LIMITS.url, `${pointer}/url`);
    httpUrl(c, el.url, `${pointer}/url`);
  } else if (el.type === "static_select") {
    staticSelect(c, el, pointer);
  } else if (el.type === "image") {
    maxChars(c, el.image_url, LIMITS.url, `${pointer}/image_url`);
    maxChars(c, el.alt_text, LIMITS.altText, `${pointer}/alt_text`);
  }
}

/** A block's 1 to `limit` elements, for the caller to check one by one (none when the list is wrong). */
function elementList(c: Check, value: unknown, limit: number, pointer: string) {
  if (!Array.isArray(value) || value.length === 0) {
    slackSays(c, "must provide at least 1 item", pointer);
    return [];
  }
  maxItems(c, value, limit, pointer);
  return value;
}

function actions(c: Check, elements: unknown[], pointer: string) {
  const actionIds = new Set<string>();
  elements.forEach((el, i) => {
    const at = `${pointer}/${i}`;
    element(c, el, at);
    if (!isRecord(el)) return;
    if (!BOT_ACTION_ELEMENTS.has(String(el.type))) strictSays(c, `unexpected element ${String(el.type)}`, at);
    if (typeof el.action_id === "string") {
      if (actionIds.has(el.action_id)) strictSays(c, "duplicate action_id", `${at}/action_id`);
      actionIds.add(el.action_id);
    }
  });
}

function minItems(c: Check, value: unknown, min: number, pointer: string) {
  if (!Array.isArray(value) || value.length < min) {
    slackSays(c, `must provide at least ${min} item${min === 1 ? "" : "s"}`, `${pointer}`);
  }
}

function chartLabel(c: Check, value: unknown, limit: number, pointer: string) {
  if (typeof value !== "string" || value.trim() === "") {
    slackSays(c, `must be more than 0 characters`, `${pointer}`);
    return;
  }
  maxChars(c, value, limit, pointer);
}

/** A pie's segments, or a bar/line/area chart's series, each with one point per category. */
function chart(c: Check, spec: unknown, pointer: string) {
  if (!isRecord(spec)) {
    slackSays(c, `must be an object`, `${pointer}`);
    return;
  }
  if (spec.type === "pie") {
    minItems(c, spec.segments, 1, `${pointer}/segments`);
    maxItems(c, spec.segments, LIMITS.pieSegments, `${pointer}/segments`);
    (Array.isArray(spec.segments) ? spec.segments : []).forEach((s, i) => {
      const at = `${pointer}/segments/${i}`;
      chartLabel(c, isRecord(s) ? s.label : undefined, LIMITS.chartLabel, `${at}/label`);
      const value = isRecord(s) ? s.value : undefined;
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
        slackSays(c, `must be greater than 0`, `${at}/value`);
    });
    return;
  }
  if (spec.type !== "bar" && spec.type !== "line" && spec.type !== "area") {
    slackSays(c, `must be one of pie, bar, area, line`, `${pointer}/type`);
    return;
  }
  const axis = isRecord(spec.axis_config) ? spec.axis_config : null;
  if (!axis) {
    slackSays(c, `must provide axis_config`, `${pointer}/axis_config`);
    return;
  }
  const categories = Array.isArray(axis.categories) ? axis.categories : [];
  minItems(c, axis.categories, 1, `${pointer}/axis_config/categories`);
  maxItems(c, categories, LIMITS.chartPoints, `${pointer}/axis_config/categories`);
  categories.forEach((cat, i) => {
    chartLabel(c, cat, LIMITS.chartLabel, `${pointer}/axis_config/categories/${i}`);
  });
  if (new Set(categories).size !== categories.length)
    slackSays(c, `categories must be unique`, `${pointer}/axis_config/categories`);
  for (const key of ["x_label", "y_label"]) {
    if (axis[key] !== undefined)
      chartLabel(c, axis[key], LIMITS.chartAxisLabel, `${pointer}/axis_config/${key}`);
  }
  minItems(c, spec.series, 1, `${pointer}/series`);
  maxItems(c, spec.series, LIMITS.chartSeries, `${pointer}/series`);
  const names = new Set<unknown>();
  (Array.isArray(spec.series) ? spec.series : []).forEach((s, i) => {
    const at = `${pointer}/series/${i}`;
    if (!isRecord(s)) {
      slackSays(c, `must be an object`, `${at}`);
      return;
    }
    chartLabel(c, s.name, LIMITS.chartLabel, `${at}/name`);
    if (names.has(s.name)) slackSays(c, `series names must be unique`, `${at}/name`);
    names.add(s.name);
    const data = Array.isArray(s.data) ? s.data : [];
    minItems(c, s.data, 1, `${at}/data`);
    maxItems(c, data, LIMITS.chartPoints, `${at}/data`);
    const labels = data.map((d) => (isRecord(d) ? d.label : undefined));
    if (labels.length !== categories.length || labels.some((l, j) => l !== categories[j]))
      slackSays(c, `data labels must match axis_config.categories`, `${at}/data`);
    data.forEach((d, j) => {
      const value = isRecord(d) ? d.value : undefined;
      if (typeof value !== "number" || !Number.isFinite(value))
        slackSays(c, `must be a number`, `${at}/data/${j}/value`);
    });
  });
}

/** Rows of raw_text or rich_text cells, none empty; at most 100 rows of 20 cells. */
function table(c: Check, b: Record<string, unknown>, pointer: string) {
  minItems(c, b.rows, 1, `${pointer}/rows`);
  maxItems(c, b.rows, LIMITS.tableRows, `${pointer}/rows`);
  maxItems(c, b.column_settings, LIMITS.tableColumnSettings, `${pointer}/column_settings`);
  (Array.isArray(b.rows) ? b.rows : []).forEach((row, r) => {
    const at = `${pointer}/rows/${r}`;
    if (!Array.isArray(row)) {
      slackSays(c, `must be an array`, `${at}`);
      return;
    }
    minItems(c, row, 1, at);
    maxItems(c, row, LIMITS.tableCells, at);
    row.forEach((cell, j) => {
      const where = `${at}/${j}`;
      if (!isRecord(cell)) slackSays(c, `must be an object`, `${where}`);
      else if (cell.type === "raw_text") {
        if (typeof cell.text !== "string" || cell.text === "")
          slackSays(c, `must be more than 0 characters`, `${where}/text`);
      } else if (cell.type !== "rich_text" || !Array.isArray(cell.elements))
        slackSays(c, `must be one of raw_text, rich_text`, `${where}/type`);
    });
  });
}

function block(c: Check, b: unknown, pointer: string, seenIds: Set<string>, refused: ReadonlySet<string>) {
  if (!isRecord(b)) {
    slackSays(c, "must be an object", pointer);
    return;
  }
  if (typeof b.type !== "string" || !KNOWN_BLOCK_TYPES.has(b.type) || refused.has(b.type)) {
    slackSays(c, `unsupported type: ${String(b.type)}`, `${pointer}/type`);
    return;
  }
  if (!BOT_BLOCK_TYPES.has(b.type)) strictSays(c, `unexpected block type ${b.type}`, `${pointer}/type`);
  if (typeof b.block_id === "string") {
    maxChars(c, b.block_id, LIMITS.blockId, `${pointer}/block_id`);
    if (seenIds.has(b.block_id)) slackSays(c, "duplicate block_id", `${pointer}/block_id`);
    seenIds.add(b.block_id);
  }
  switch (b.type) {
    case "section": {
      if (b.text === undefined && b.fields === undefined) {
        slackSays(c, "must provide either text or fields", pointer);
      }
      if (b.text !== undefined) textObject(c, b.text, `${pointer}/text`, LIMITS.sectionText);
      if (b.fields !== undefined) {
        if (!Array.isArray(b.fields)) slackSays(c, "must be an array", `${pointer}/fields`);
        else {
          if (b.fields.length === 0) strictSays(c, "no fields", `${pointer}/fields`);
          maxItems(c, b.fields, LIMITS.sectionFields, `${pointer}/fields`);
          b.fields.forEach((f, i) => {
            textObject(c, f, `${pointer}/fields/${i}`, LIMITS.fieldText);
          });
        }
      }
      if (b.accessory !== undefined) element(c, b.accessory, `${pointer}/accessory`);
      break;
    }
    case "header":
      textObject(c, b.text, `${pointer}/text`, LIMITS.headerText, true);
      break;
    case "context":
      elementList(c, b.elements, LIMITS.contextElements, `${pointer}/elements`).forEach((el, i) => {
        if (isRecord(el) && el.type !== "image") {
          textObject(c, el, `${pointer}/elements/${i}`, LIMITS.sectionText);
        } else element(c, el, `${pointer}/elements/${i}`);
      });
      break;
    case "actions":
      actions(
        c,
        elementList(c, b.elements, LIMITS.actionsElements, `${pointer}/elements`),
        `${pointer}/elements`,
      );
      break;
    case "input":
      textObject(c, b.label, `${pointer}/label`, LIMITS.fieldText, true);
      if (!isRecord(b.element)) slackSays(c, "must provide an element", `${pointer}/element`);
      break;
    case "image":
      if (typeof b.alt_text !== "string" || b.alt_text === "") {
        slackSays(c, "must be more than 0 characters", `${pointer}/alt_text`);
      } else if (b.alt_text.trim() === "") strictSays(c, "only spaces", `${pointer}/alt_text`);
      if (typeof b.image_url !== "string" || !/^https?:\/\//.test(b.image_url)) {
        slackSays(c, "must be a valid URL", `${pointer}/image_url`);
      } else httpUrl(c, b.image_url, `${pointer}/image_url`);
      maxChars(c, b.image_url, LIMITS.url, `${pointer}/image_url`);
      maxChars(c, b.alt_text, LIMITS.altText, `${pointer}/alt_text`);
      if (b.title !== undefined) textObject(c, b.title, `${pointer}/title`, LIMITS.imageTitle, true);
      break;
    case "data_visualization":
      chartLabel(c, b.title, LIMITS.chartTitle, `${pointer}/title`);
      chart(c, b.chart, `${pointer}/chart`);
      break;
    case "table":
      table(c, b, pointer);
      break;
  }
}

function blockList(
  c: Check,
  blocks: unknown[],
  maxBlocks: number,
  base: string,
  refused: ReadonlySet<string>,
) {
  maxItems(c, blocks, maxBlocks, base);
  const seenIds = new Set<string>();
  blocks.forEach((b, i) => {
    block(c, b, `${base}/${i}`, seenIds, refused);
  });
  const count = (type: string) => blocks.filter((b) => isRecord(b) && b.type === type).length;
  if (count("data_visualization") > LIMITS.chartsPerMessage) {
    slackSays(c, `no more than ${LIMITS.chartsPerMessage} data_visualization blocks allowed`, base);
  }
  if (count("table") > LIMITS.tablesPerMessage) slackSays(c, "only one table block allowed", base);
}

/**
 * Every limit the blocks break, in Slack's wording; empty when Slack would accept them. Views
 * allow 100 blocks and point their errors under `/view/blocks`. `refused`: block types this
 * workspace does not have yet (Slack rolls new blocks out in phases), answered like an unknown
 * type.
 */
export function validateBlocks(
  blocks: unknown[],
  maxBlocks: number = LIMITS.blocks,
  base = "/blocks",
  { strict = false, refused = new Set<string>() }: { strict?: boolean; refused?: ReadonlySet<string> } = {},
): string[] {
  const c: Check = { problems: [], strict };
  blockList(c, blocks, maxBlocks, base, refused);
  return c.problems;
}

/** A whole message (fallback `text` and blocks) held to the strict checks; empty when it passes. */
export function strictMessageProblems(message: { text?: unknown; blocks?: unknown[] | undefined }): string[] {
  const c: Check = { problems: [], strict: true };
  const text = message.text;
  if (typeof text !== "string" || text.trim() === "") strictSays(c, "empty fallback text", "/text");
  else {
    if (text.length > LIMITS.fallbackText) {
      strictSays(c, `must be less than ${LIMITS.fallbackText + 1} characters`, "/text");
    }
    mrkdwn(c, text, "/text");
  }
  blockList(c, message.blocks ?? [], LIMITS.blocks, "/blocks", new Set());
  return c.problems;
}
