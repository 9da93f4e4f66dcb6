// Slack rejects a whole message when any block breaks a limit, answering `invalid_blocks`
// with one "[ERROR] … [json-pointer:…]" line per problem in response_metadata.messages.
// These are the limits the bot has to respect (see docs/architecture.md "Platform limits").

export const LIMITS = {
  blocks: 50,
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

/** Blocks Slack takes in messages only (not in a Home tab or a modal). */
export const MESSAGE_ONLY_BLOCKS: ReadonlySet<string> = new Set(["data_visualization", "table"]);

type Problems = string[];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function maxChars(p: Problems, value: unknown, limit: number, pointer: string) {
  if (typeof value === "string" && value.length > limit) {
    p.push(`[ERROR] must be less than ${limit + 1} characters [json-pointer:${pointer}]`);
  }
}

function maxItems(p: Problems, value: unknown, limit: number, pointer: string) {
  if (Array.isArray(value) && value.length > limit) {
    p.push(`[ERROR] no more than ${limit} items allowed [json-pointer:${pointer}]`);
  }
}

function textObject(p: Problems, value: unknown, pointer: string, limit: number, plainOnly = false) {
  if (!isObject(value)) {
    p.push(`[ERROR] must be an object [json-pointer:${pointer}]`);
    return;
  }
  const type = value.type;
  if (type !== "plain_text" && !(type === "mrkdwn" && !plainOnly)) {
    p.push(`[ERROR] must be a valid enum value [json-pointer:${pointer}/type]`);
  }
  if (typeof value.text !== "string" || value.text.length === 0) {
    p.push(`[ERROR] must be more than 0 characters [json-pointer:${pointer}/text]`);
    return;
  }
  maxChars(p, value.text, limit, `${pointer}/text`);
}

/** A confirm dialog: plain-text title, text (plain or mrkdwn), confirm and deny labels. */
function confirmObject(p: Problems, c: unknown, pointer: string) {
  if (!isObject(c)) {
    p.push(`[ERROR] must be an object [json-pointer:${pointer}]`);
    return;
  }
  textObject(p, c.title, `${pointer}/title`, LIMITS.confirmTitle, true);
  textObject(p, c.text, `${pointer}/text`, LIMITS.confirmText);
  textObject(p, c.confirm, `${pointer}/confirm`, LIMITS.confirmButton, true);
  textObject(p, c.deny, `${pointer}/deny`, LIMITS.confirmButton, true);
  if (c.style !== undefined && c.style !== "primary" && c.style !== "danger") {
    p.push(`[ERROR] must be one of primary, danger [json-pointer:${pointer}/style]`);
  }
}

/** 1–100 options (or option_groups) of plain-text labels ≤ 75 and values ≤ 150. */
function staticSelect(p: Problems, el: Record<string, unknown>, pointer: string) {
  if (el.placeholder !== undefined) {
    textObject(p, el.placeholder, `${pointer}/placeholder`, LIMITS.placeholder, true);
  }
  const hasGroups = Array.isArray(el.option_groups);
  if (hasGroups === Array.isArray(el.options)) {
    p.push(`[ERROR] must provide exactly one of options or option_groups [json-pointer:${pointer}]`);
    return;
  }
  const lists: [unknown[], string][] = hasGroups
    ? (el.option_groups as unknown[]).map((g, i) => [
        isObject(g) && Array.isArray(g.options) ? g.options : [],
        `${pointer}/option_groups/${i}/options`,
      ])
    : [[el.options as unknown[], `${pointer}/options`]];
  const total = lists.reduce((n, [list]) => n + list.length, 0);
  if (total === 0) p.push(`[ERROR] must provide at least 1 item [json-pointer:${lists[0]?.[1] ?? pointer}]`);
  for (const [list, at] of lists) {
    maxItems(p, list, LIMITS.selectOptions, at);
    list.forEach((o, i) => {
      if (!isObject(o)) {
        p.push(`[ERROR] must be an object [json-pointer:${at}/${i}]`);
        return;
      }
      textObject(p, o.text, `${at}/${i}/text`, LIMITS.optionText, true);
      if (typeof o.value !== "string" || o.value.length === 0) {
        p.push(`[ERROR] must be more than 0 characters [json-pointer:${at}/${i}/value]`);
        return;
      }
      maxChars(p, o.value, LIMITS.optionValue, `${at}/${i}/value`);
    });
  }
}

function element(p: Problems, el: unknown, pointer: string) {
  if (!isObject(el)) {
    p.push(`[ERROR] must be an object [json-pointer:${pointer}]`);
    return;
  }
  maxChars(p, el.action_id, LIMITS.actionId, `${pointer}/action_id`);
  if (el.confirm !== undefined) confirmObject(p, el.confirm, `${pointer}/confirm`);
  if (el.type === "button") {
    textObject(p, el.text, `${pointer}/text`, LIMITS.buttonText, true);
    maxChars(p, el.value, LIMITS.buttonValue, `${pointer}/value`);
    maxChars(p, el.url, LIMITS.url, `${pointer}/url`);
  } else if (el.type === "static_select") {
    staticSelect(p, el, pointer);
  } else if (el.type === "image") {
    maxChars(p, el.image_url, LIMITS.url, `${pointer}/image_url`);
    maxChars(p, el.alt_text, LIMITS.altText, `${pointer}/alt_text`);
  }
}

function minItems(p: Problems, value: unknown, min: number, pointer: string) {
  if (!Array.isArray(value) || value.length < min) {
    p.push(`[ERROR] must provide at least ${min} item${min === 1 ? "" : "s"} [json-pointer:${pointer}]`);
  }
}

function chartLabel(p: Problems, value: unknown, limit: number, pointer: string) {
  if (typeof value !== "string" || value.trim() === "") {
    p.push(`[ERROR] must be more than 0 characters [json-pointer:${pointer}]`);
    return;
  }
  maxChars(p, value, limit, pointer);
}

/** A pie's segments, or a bar/line/area chart's series, each with one point per category. */
function chart(p: Problems, c: unknown, pointer: string) {
  if (!isObject(c)) {
    p.push(`[ERROR] must be an object [json-pointer:${pointer}]`);
    return;
  }
  if (c.type === "pie") {
    minItems(p, c.segments, 1, `${pointer}/segments`);
    maxItems(p, c.segments, LIMITS.pieSegments, `${pointer}/segments`);
    (Array.isArray(c.segments) ? c.segments : []).forEach((s, i) => {
      const at = `${pointer}/segments/${i}`;
      chartLabel(p, isObject(s) ? s.label : undefined, LIMITS.chartLabel, `${at}/label`);
      const value = isObject(s) ? s.value : undefined;
      if (typeof value !== "number" || !Number.isFinite(value) || value <= 0)
        p.push(`[ERROR] must be greater than 0 [json-pointer:${at}/value]`);
    });
    return;
  }
  if (c.type !== "bar" && c.type !== "line" && c.type !== "area") {
    p.push(`[ERROR] must be one of pie, bar, area, line [json-pointer:${pointer}/type]`);
    return;
  }
  const axis = isObject(c.axis_config) ? c.axis_config : null;
  if (!axis) {
    p.push(`[ERROR] must provide axis_config [json-pointer:${pointer}/axis_config]`);
    return;
  }
  const categories = Array.isArray(axis.categories) ? axis.categories : [];
  minItems(p, axis.categories, 1, `${pointer}/axis_config/categories`);
  maxItems(p, categories, LIMITS.chartPoints, `${pointer}/axis_config/categories`);
  categories.forEach((cat, i) => {
    chartLabel(p, cat, LIMITS.chartLabel, `${pointer}/axis_config/categories/${i}`);
  });
  if (new Set(categories).size !== categories.length)
    p.push(`[ERROR] categories must be unique [json-pointer:${pointer}/axis_config/categories]`);
  for (const key of ["x_label", "y_label"]) {
    if (axis[key] !== undefined)
      chartLabel(p, axis[key], LIMITS.chartAxisLabel, `${pointer}/axis_config/${key}`);
  }
  minItems(p, c.series, 1, `${pointer}/series`);
  maxItems(p, c.series, LIMITS.chartSeries, `${pointer}/series`);
  const names = new Set<unknown>();
  (Array.isArray(c.series) ? c.series : []).forEach((s, i) => {
    const at = `${pointer}/series/${i}`;
    if (!isObject(s)) {
      p.push(`[ERROR] must be an object [json-pointer:${at}]`);
      return;
    }
    chartLabel(p, s.name, LIMITS.chartLabel, `${at}/name`);
    if (names.has(s.name)) p.push(`[ERROR] series names must be unique [json-pointer:${at}/name]`);
    names.add(s.name);
    const data = Array.isArray(s.data) ? s.data : [];
    minItems(p, s.data, 1, `${at}/data`);
    maxItems(p, data, LIMITS.chartPoints, `${at}/data`);
    const labels = data.map((d) => (isObject(d) ? d.label : undefined));
    if (labels.length !== categories.length || labels.some((l, j) => l !== categories[j]))
      p.push(`[ERROR] data labels must match axis_config.categories [json-pointer:${at}/data]`);
    data.forEach((d, j) => {
      const value = isObject(d) ? d.value : undefined;
      if (typeof value !== "number" || !Number.isFinite(value))
        p.push(`[ERROR] must be a number [json-pointer:${at}/data/${j}/value]`);
    });
  });
}

/** Rows of raw_text or rich_text cells, none empty; at most 100 rows of 20 cells. */
function table(p: Problems, b: Record<string, unknown>, pointer: string) {
  minItems(p, b.rows, 1, `${pointer}/rows`);
  maxItems(p, b.rows, LIMITS.tableRows, `${pointer}/rows`);
  maxItems(p, b.column_settings, LIMITS.tableColumnSettings, `${pointer}/column_settings`);
  (Array.isArray(b.rows) ? b.rows : []).forEach((row, r) => {
    const at = `${pointer}/rows/${r}`;
    if (!Array.isArray(row)) {
      p.push(`[ERROR] must be an array [json-pointer:${at}]`);
      return;
    }
    minItems(p, row, 1, at);
    maxItems(p, row, LIMITS.tableCells, at);
    row.forEach((cell, c) => {
      const where = `${at}/${c}`;
      if (!isObject(cell)) p.push(`[ERROR] must be an object [json-pointer:${where}]`);
      else if (cell.type === "raw_text") {
        if (typeof cell.text !== "string" || cell.text === "")
          p.push(`[ERROR] must be more than 0 characters [json-pointer:${where}/text]`);
      } else if (cell.type !== "rich_text" || !Array.isArray(cell.elements))
        p.push(`[ERROR] must be one of raw_text, rich_text [json-pointer:${where}/type]`);
    });
  });
}

function block(p: Problems, b: unknown, pointer: string, seenIds: Set<string>, refused: ReadonlySet<string>) {
  if (!isObject(b)) {
    p.push(`[ERROR] must be an object [json-pointer:${pointer}]`);
    return;
  }
  if (typeof b.type !== "string" || !KNOWN_BLOCK_TYPES.has(b.type) || refused.has(b.type)) {
    p.push(`[ERROR] unsupported type: ${String(b.type)} [json-pointer:${pointer}/type]`);
    return;
  }
  if (typeof b.block_id === "string") {
    maxChars(p, b.block_id, LIMITS.blockId, `${pointer}/block_id`);
    if (seenIds.has(b.block_id)) p.push(`[ERROR] duplicate block_id [json-pointer:${pointer}/block_id]`);
    seenIds.add(b.block_id);
  }
  switch (b.type) {
    case "section": {
      if (b.text === undefined && b.fields === undefined) {
        p.push(`[ERROR] must provide either text or fields [json-pointer:${pointer}]`);
      }
      if (b.text !== undefined) textObject(p, b.text, `${pointer}/text`, LIMITS.sectionText);
      if (b.fields !== undefined) {
        if (!Array.isArray(b.fields)) p.push(`[ERROR] must be an array [json-pointer:${pointer}/fields]`);
        else {
          maxItems(p, b.fields, LIMITS.sectionFields, `${pointer}/fields`);
          b.fields.forEach((f, i) => {
            textObject(p, f, `${pointer}/fields/${i}`, LIMITS.fieldText);
          });
        }
      }
      if (b.accessory !== undefined) element(p, b.accessory, `${pointer}/accessory`);
      break;
    }
    case "header":
      textObject(p, b.text, `${pointer}/text`, LIMITS.headerText, true);
      break;
    case "context":
      if (!Array.isArray(b.elements) || b.elements.length === 0) {
        p.push(`[ERROR] must provide at least 1 item [json-pointer:${pointer}/elements]`);
      } else {
        maxItems(p, b.elements, LIMITS.contextElements, `${pointer}/elements`);
        b.elements.forEach((el, i) => {
          if (isObject(el) && el.type !== "image") {
            textObject(p, el, `${pointer}/elements/${i}`, LIMITS.sectionText);
          } else element(p, el, `${pointer}/elements/${i}`);
        });
      }
      break;
    case "actions":
      if (!Array.isArray(b.elements) || b.elements.length === 0) {
        p.push(`[ERROR] must provide at least 1 item [json-pointer:${pointer}/elements]`);
      } else {
        maxItems(p, b.elements, LIMITS.actionsElements, `${pointer}/elements`);
        b.elements.forEach((el, i) => {
          element(p, el, `${pointer}/elements/${i}`);
        });
      }
      break;
    case "input":
      textObject(p, b.label, `${pointer}/label`, LIMITS.fieldText, true);
      if (!isObject(b.element)) p.push(`[ERROR] must provide an element [json-pointer:${pointer}/element]`);
      break;
    case "image":
      if (typeof b.alt_text !== "string" || b.alt_text === "") {
        p.push(`[ERROR] must be more than 0 characters [json-pointer:${pointer}/alt_text]`);
      }
      if (typeof b.image_url !== "string" || !/^https?:\/\//.test(b.image_url)) {
        p.push(`[ERROR] must be a valid URL [json-pointer:${pointer}/image_url]`);
      }
      maxChars(p, b.image_url, LIMITS.url, `${pointer}/image_url`);
      maxChars(p, b.alt_text, LIMITS.altText, `${pointer}/alt_text`);
      break;
    case "data_visualization":
      chartLabel(p, b.title, LIMITS.chartTitle, `${pointer}/title`);
      chart(p, b.chart, `${pointer}/chart`);
      break;
    case "table":
      table(p, b, pointer);
      break;
  }
}

/**
 * Every limit the message breaks, in Slack's wording; empty when Slack would accept it.
 * Views allow 100 blocks and point their errors under `/view/blocks`. `refused`: block types
 * this workspace does not have yet (Slack rolls new blocks out in phases), answered like an
 * unknown type.
 */
export function validateBlocks(
  blocks: unknown[],
  maxBlocks: number = LIMITS.blocks,
  base = "/blocks",
  refused: ReadonlySet<string> = new Set(),
): string[] {
  const problems: Problems = [];
  maxItems(problems, blocks, maxBlocks, base);
  const seenIds = new Set<string>();
  blocks.forEach((b, i) => {
    block(problems, b, `${base}/${i}`, seenIds, refused);
  });
  const count = (type: string) => blocks.filter((b) => isObject(b) && b.type === type).length;
  if (count("data_visualization") > LIMITS.chartsPerMessage)
    problems.push(
      `[ERROR] no more than ${LIMITS.chartsPerMessage} data_visualization blocks allowed [json-pointer:${base}]`,
    );
  if (count("table") > LIMITS.tablesPerMessage)
    problems.push(`[ERROR] only one table block allowed [json-pointer:${base}]`);
  return problems;
}
