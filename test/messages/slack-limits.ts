import type { Button } from "slack-edge";
import { expect } from "vitest";
import type { SlackMessage } from "../../src/messages/index.ts";

/**
 * An independent statement of what Slack accepts (docs/architecture.md "Platform limits" plus Slack's
 * mrkdwn rules), used by every builder test. Deliberately does not import limits.ts, so a
 * wrong constant there cannot make these checks agree with it.
 */
const LIMIT = {
  blocks: 50,
  text: 4000,
  section: 3000,
  fields: 10,
  field: 2000,
  header: 150,
  contextElements: 10,
  contextText: 3000,
  actionsElements: 25,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  id: 255,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  altText: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  // Charts and tables (Slack's Block Kit reference: data-visualization-block, table-block).
  chartsPerMessage: 2,
  chartTitle: 50,
  chartSeries: 6,
  chartPoints: 20,
  chartLabel: 20,
  chartAxisLabel: 50,
  pieSegments: 6,
  tablesPerMessage: 1,
  tableRows: 100,
  tableCells: 20,
  tableColumnSettings: 20,
};

type Chart =
  | { type: "pie"; segments: { label: string; value: number }[] }
  | {
      type: "bar" | "line" | "area";
      series: { name: string; data: { label: string; value: number }[] }[];
      axis_config: { categories: string[]; x_label?: string; y_label?: string };
    };

const label = (text: unknown, max: number) =>
  typeof text === "string" && text.trim() !== "" && text.length <= max;

/** A chart as Slack's reference describes it: every limit, and every series covering every category. */
function chartProblems(block: { title?: unknown; chart?: Chart }, where: string): string[] {
  const problems: string[] = [];
  if (!label(block.title, LIMIT.chartTitle)) problems.push(`${where}.title: invalid`);
  const chart = block.chart;
  if (!chart) return [...problems, `${where}.chart: missing`];
  if (chart.type === "pie") {
    if (chart.segments.length === 0 || chart.segments.length > LIMIT.pieSegments)
      problems.push(`${where}.segments count ${chart.segments.length}`);
    chart.segments.forEach((s, i) => {
      if (!label(s.label, LIMIT.chartLabel)) problems.push(`${where}.segments[${i}].label`);
      if (!(Number.isFinite(s.value) && s.value > 0)) problems.push(`${where}.segments[${i}].value`);
    });
    return problems;
  }
  if (!["bar", "line", "area"].includes(chart.type)) problems.push(`${where}.chart.type`);
  const categories = chart.axis_config?.categories ?? [];
  if (categories.length === 0 || categories.length > LIMIT.chartPoints)
    problems.push(`${where}.categories count ${categories.length}`);
  if (new Set(categories).size !== categories.length) problems.push(`${where}.categories: duplicates`);
  categories.forEach((c, i) => {
    if (!label(c, LIMIT.chartLabel)) problems.push(`${where}.categories[${i}]`);
  });
  for (const axis of ["x_label", "y_label"] as const) {
    const text = chart.axis_config?.[axis];
    if (text !== undefined && !label(text, LIMIT.chartAxisLabel)) problems.push(`${where}.${axis}`);
  }
  if (chart.series.length === 0 || chart.series.length > LIMIT.chartSeries)
    problems.push(`${where}.series count ${chart.series.length}`);
  if (new Set(chart.series.map((s) => s.name)).size !== chart.series.length)
    problems.push(`${where}.series: duplicate names`);
  chart.series.forEach((s, i) => {
    if (!label(s.name, LIMIT.chartLabel)) problems.push(`${where}.series[${i}].name`);
    if (s.data.length === 0 || s.data.length > LIMIT.chartPoints)
      problems.push(`${where}.series[${i}] points`);
    if (s.data.map((p) => p.label).join("\u0000") !== categories.join("\u0000"))
      problems.push(`${where}.series[${i}]: labels do not match the categories`);
    if (!s.data.every((p) => Number.isFinite(p.value)))
      problems.push(`${where}.series[${i}]: a value is not finite`);
  });
  return problems;
}

type Cell =
  | { type: "raw_text"; text: string }
  | { type: "rich_text"; elements: { elements: { type: string; text?: string; url?: string }[] }[] };

function tableProblems(block: { rows?: Cell[][]; column_settings?: unknown[] }, where: string): string[] {
  const problems: string[] = [];
  const rows = block.rows ?? [];
  if (rows.length === 0 || rows.length > LIMIT.tableRows) problems.push(`${where}.rows count ${rows.length}`);
  if ((block.column_settings?.length ?? 0) > LIMIT.tableColumnSettings)
    problems.push(`${where}.column_settings`);
  rows.forEach((row, r) => {
    if (row.length === 0 || row.length > LIMIT.tableCells)
      problems.push(`${where}.rows[${r}] cells ${row.length}`);
    row.forEach((cell, c) => {
      const at = `${where}.rows[${r}][${c}]`;
      if (cell.type === "raw_text") {
        if (cell.text.trim() === "" || LONE_SURROGATE.test(cell.text))
          problems.push(`${at}: empty or broken text`);
      } else if (cell.type === "rich_text") {
        for (const el of cell.elements.flatMap((s) => s.elements)) {
          if (
            el.type === "link" &&
            (!el.url || el.url.length > LIMIT.url || !/^https?:\/\/\S+$/.test(el.url))
          )
            problems.push(`${at}: link url`);
          if (!el.text || el.text.trim() === "") problems.push(`${at}: empty text`);
        }
      } else problems.push(`${at}: unexpected cell type`);
    });
  });
  return problems;
}

type Confirm = { title?: TextObject; text: TextObject; confirm?: TextObject; deny?: TextObject };

function confirmProblems(c: Confirm | undefined, where: string): string[] {
  if (!c) return [];
  return [
    ...(c.title ? textProblems(c.title, LIMIT.confirmTitle, `${where}.title`, true) : []),
    ...textProblems(c.text, LIMIT.confirmText, `${where}.text`, true),
    ...(c.confirm ? textProblems(c.confirm, LIMIT.confirmButton, `${where}.confirm`, true) : []),
    ...(c.deny ? textProblems(c.deny, LIMIT.confirmButton, `${where}.deny`, true) : []),
  ];
}

type Select = {
  action_id?: string;
  placeholder?: TextObject;
  options?: { text: TextObject; value?: string }[];
  confirm?: Confirm;
};

function selectProblems(el: Select, where: string): string[] {
  const problems: string[] = [];
  const options = el.options ?? [];
  if (options.length === 0 || options.length > 100) problems.push(`${where}.options count ${options.length}`);
  options.forEach((o, i) => {
    problems.push(...textProblems(o.text, LIMIT.optionText, `${where}.options[${i}].text`, true));
    if (typeof o.value !== "string" || o.value.length === 0 || o.value.length > LIMIT.optionValue)
      problems.push(`${where}.options[${i}].value: invalid`);
  });
  if (el.placeholder)
    problems.push(...textProblems(el.placeholder, LIMIT.placeholder, `${where}.placeholder`, true));
  if ((el.action_id ?? "").length > LIMIT.id) problems.push(`${where}.action_id too long`);
  problems.push(...confirmProblems(el.confirm, `${where}.confirm`));
  return problems;
}

// What a `<` may open in mrkdwn this bot writes: a link with a label, a date token, a mention.
const TOKEN =
  /^<(?:https?:\/\/[^\s<>|]+\|[^<>\n]+|!date\^\d+\^[^|<>]+\|[^<>\n]+|@[UW][A-Z0-9]+|!subteam\^S[A-Z0-9]+)>/;
const ENTITY = /^&(?:amp|lt|gt);/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Problems of one mrkdwn string: broken tokens, stray `>`, bare `&`, lone surrogates. */
export function mrkdwnProblems(text: string, where: string): string[] {
  const problems: string[] = [];
  if (LONE_SURROGATE.test(text)) problems.push(`${where}: lone surrogate`);
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "<") {
      const token = TOKEN.exec(text.slice(i, i + LIMIT.url + 1000));
      if (!token) {
        problems.push(`${where}: broken token at ${i}: ${JSON.stringify(text.slice(i, i + 40))}`);
        continue;
      }
      const url = /^<(https?:\/\/[^|]+)\|/.exec(token[0])?.[1];
      if (url && url.length > LIMIT.url) problems.push(`${where}: link URL over ${LIMIT.url}`);
      i += token[0].length - 1;
    } else if (c === ">") {
      problems.push(`${where}: stray > at ${i}`);
    } else if (c === "&" && !ENTITY.test(text.slice(i, i + 5))) {
      problems.push(`${where}: bare & at ${i}`);
    }
  }
  return problems;
}

type TextObject = { type: string; text: string };

function textProblems(
  field: TextObject | undefined,
  max: number,
  where: string,
  plainOnly = false,
): string[] {
  if (!field || typeof field.text !== "string") return [`${where}: missing text`];
  const problems: string[] = [];
  if (field.text.trim().length === 0) problems.push(`${where}: empty text`);
  if (field.text.length > max) problems.push(`${where}: ${field.text.length} > ${max}`);
  if (plainOnly && field.type !== "plain_text") problems.push(`${where}: must be plain_text`);
  if (field.type === "mrkdwn") problems.push(...mrkdwnProblems(field.text, where));
  else if (LONE_SURROGATE.test(field.text)) problems.push(`${where}: lone surrogate`);
  return problems;
}

function buttonProblems(b: Button, where: string): string[] {
  const problems = textProblems(b.text, LIMIT.buttonText, `${where}.text`, true);
  if (b.value !== undefined && (b.value.length > LIMIT.buttonValue || LONE_SURROGATE.test(b.value))) {
    problems.push(`${where}.value: invalid (${b.value.length})`);
  }
  if (b.url !== undefined && (b.url.length > LIMIT.url || !/^https?:\/\/\S+$/.test(b.url))) {
    problems.push(`${where}.url: invalid`);
  }
  if ((b.action_id ?? "").length > LIMIT.id) problems.push(`${where}.action_id too long`);
  problems.push(...confirmProblems(b.confirm as Confirm | undefined, `${where}.confirm`));
  return problems;
}

/** Every way the message breaks Slack's limits or mrkdwn; empty when Slack would take it. */
export function slackLimitViolations(message: SlackMessage): string[] {
  const problems: string[] = [];
  if (typeof message.text !== "string" || message.text.trim() === "") problems.push("text: empty fallback");
  else {
    if (message.text.length > LIMIT.text) problems.push(`text: ${message.text.length} > ${LIMIT.text}`);
    problems.push(...mrkdwnProblems(message.text, "text"));
  }
  if (message.blocks.length > LIMIT.blocks)
    problems.push(`blocks: ${message.blocks.length} > ${LIMIT.blocks}`);
  const blockIds = new Set<string>();
  message.blocks.forEach((block, i) => {
    const at = `blocks[${i}]`;
    if (block.block_id !== undefined) {
      if (block.block_id.length > LIMIT.id || blockIds.has(block.block_id)) problems.push(`${at}.block_id`);
      blockIds.add(block.block_id);
    }
    switch (block.type) {
      case "header":
        problems.push(...textProblems(block.text, LIMIT.header, `${at}.text`, true));
        break;
      case "section":
        if (!block.text && !block.fields) problems.push(`${at}: neither text nor fields`);
        if (block.text) problems.push(...textProblems(block.text, LIMIT.section, `${at}.text`));
        if (block.fields) {
          if (block.fields.length === 0 || block.fields.length > LIMIT.fields)
            problems.push(`${at}.fields count`);
          block.fields.forEach((f, j) => {
            problems.push(...textProblems(f, LIMIT.field, `${at}.fields[${j}]`));
          });
        }
        if (block.accessory?.type === "button")
          problems.push(...buttonProblems(block.accessory, `${at}.accessory`));
        break;
      case "context":
        if (block.elements.length === 0 || block.elements.length > LIMIT.contextElements) {
          problems.push(`${at}.elements count ${block.elements.length}`);
        }
        block.elements.forEach((el, j) => {
          if (el.type === "mrkdwn" || el.type === "plain_text") {
            problems.push(...textProblems(el, LIMIT.contextText, `${at}.elements[${j}]`));
          }
        });
        break;
      case "actions": {
        if (block.elements.length === 0 || block.elements.length > LIMIT.actionsElements) {
          problems.push(`${at}.elements count ${block.elements.length}`);
        }
        const actionIds = new Set<string>();
        block.elements.forEach((el, j) => {
          if (el.type === "static_select")
            problems.push(...selectProblems(el as Select, `${at}.elements[${j}]`));
          else if (el.type === "button") problems.push(...buttonProblems(el, `${at}.elements[${j}]`));
          else {
            problems.push(`${at}.elements[${j}]: unexpected element ${el.type}`);
            return;
          }
          if (el.action_id && actionIds.has(el.action_id)) problems.push(`${at}: duplicate action_id`);
          if (el.action_id) actionIds.add(el.action_id);
        });
        break;
      }
      case "image":
        if (
          block.image_url === undefined ||
          !/^https?:\/\/\S+$/.test(block.image_url) ||
          block.image_url.length > LIMIT.url
        )
          problems.push(`${at}.image_url: invalid`);
        if (
          typeof block.alt_text !== "string" ||
          block.alt_text.trim() === "" ||
          block.alt_text.length > LIMIT.altText
        )
          problems.push(`${at}.alt_text: invalid`);
        if (block.title) problems.push(...textProblems(block.title, 2000, `${at}.title`, true));
        break;
      case "divider":
        break;
      case "data_visualization":
        problems.push(...chartProblems(block, at));
        break;
      case "table":
        problems.push(...tableProblems(block as { rows?: Cell[][] }, at));
        break;
      default:
        problems.push(`${at}: unexpected block type`);
    }
  });
  const count = (type: string) => message.blocks.filter((b) => b.type === type).length;
  if (count("data_visualization") > LIMIT.chartsPerMessage) problems.push("more than 2 charts");
  if (count("table") > LIMIT.tablesPerMessage) problems.push("more than 1 table");
  return problems;
}

export function assertWithinSlackLimits(message: SlackMessage): void {
  const violations = slackLimitViolations(message);
  expect(violations, violations.slice(0, 5).join("\n")).toEqual([]);
}

/** Every text a reader can see (fallback, headers, sections, fields, context, buttons). */
export function visibleTexts(message: SlackMessage): string[] {
  const out = [message.text];
  for (const block of message.blocks) {
    if (block.type === "header") out.push(block.text.text);
    if (block.type === "section") {
      if (block.text) out.push(block.text.text);
      for (const f of block.fields ?? []) out.push(f.text);
    }
    if (block.type === "context") for (const el of block.elements) if ("text" in el) out.push(el.text);
    if (block.type === "actions")
      for (const el of block.elements) if (el.type === "button") out.push(el.text.text);
    if (block.type === "data_visualization") out.push(block.title);
    if (block.type === "table")
      for (const row of block.rows)
        out.push(
          row
            .map((cell) =>
              cell.type === "raw_text"
                ? cell.text
                : cell.elements.flatMap((s) => s.elements.map((e) => e.text)).join(""),
            )
            .join(" | "),
        );
  }
  return out;
}

export const allText = (message: SlackMessage) => visibleTexts(message).join("\n");

export function buttonsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((b) =>
    b.type === "actions" ? b.elements.filter((el): el is Button => el.type === "button") : [],
  );
}
