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
};

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

// What a `<` may open in mrkdwn this bot writes: a link with a label, a date token, a mention
// of a person or a channel.
const TOKEN =
  /^<(?:https?:\/\/[^\s<>|]+\|[^<>\n]+|!date\^\d+\^[^|<>]+\|[^<>\n]+|@[UW][A-Z0-9]+|#[CG][A-Z0-9]+)>/;
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
      default:
        problems.push(`${at}: unexpected block type`);
    }
  });
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
  }
  return out;
}

export const allText = (message: SlackMessage) => visibleTexts(message).join("\n");

export function buttonsOf(message: SlackMessage): Button[] {
  return message.blocks.flatMap((b) =>
    b.type === "actions" ? b.elements.filter((el): el is Button => el.type === "button") : [],
  );
}
