// Block Kit → DOM, the subset a Slack app uses for messages: header, section (text, fields,
// accessory), context, divider, actions (buttons, static_select menus), image, and charts
// (data_visualization) and tables (charts.js). Elements with a
// `confirm` object ask first, as Slack does. Unknown blocks and elements are shown as a
// labelled placeholder rather than dropped, so builders notice.
import { renderChart, renderTable } from "./charts.js";
import { emojify, link, renderMrkdwn, renderText, safeUrl } from "./mrkdwn.js";

/**
 * @typedef {import("./mrkdwn.js").Ctx & {
 *   onButton?: (button: any, blockId: string, node: HTMLButtonElement) => void,
 *   onSelect?: (menu: any, blockId: string, value: string, node: HTMLSelectElement) => void
 * }} BlockCtx
 */

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function unsupported(kind, type) {
  return el("div", "bk-unsupported", `[${kind} “${String(type)}” is not rendered by the sandbox]`);
}

function imageElement(img, small) {
  const wrap = el("span", small ? "bk-img-small" : "bk-img");
  const url = safeUrl(String(img.image_url ?? ""));
  const alt = String(img.alt_text ?? "image");
  if (!url) {
    wrap.textContent = `🖼️ ${alt}`;
    return wrap;
  }
  const a = link(url, "");
  const pic = document.createElement("img");
  pic.src = url;
  pic.alt = alt;
  pic.loading = "lazy";
  pic.referrerPolicy = "no-referrer";
  // An image that does not load (a screenshot URL past its expiry answers 403) becomes a
  // link card that says so, rather than a broken image.
  pic.addEventListener("error", () => {
    a.textContent = `🖼️ ${alt} — the image did not load (its link may have expired)`;
    a.classList.add("bk-img-fallback");
  });
  a.append(pic);
  wrap.append(a);
  return wrap;
}

const plainText = (t, fallback) => emojify(String(t?.text ?? fallback));

/**
 * Slack's confirm dialog: title, text, and confirm / deny buttons. Resolves true only when
 * the person confirms; Escape, the deny button or a click outside deny.
 * @param {any} confirm
 * @returns {Promise<boolean>}
 */
export function askConfirm(confirm) {
  return new Promise((resolve) => {
    const dialog = /** @type {HTMLDialogElement} */ (el("dialog", "bk-confirm"));
    const title = el("div", "bk-confirm-title", plainText(confirm.title, "Are you sure?"));
    const text = el("div", "bk-confirm-text");
    text.append(renderText(confirm.text ?? { type: "plain_text", text: "" }, {}));
    const footer = el("div", "bk-confirm-footer");
    const deny = /** @type {HTMLButtonElement} */ (el("button", "bk-button bk-confirm-deny"));
    deny.type = "button";
    deny.textContent = plainText(confirm.deny, "Cancel");
    const yes = /** @type {HTMLButtonElement} */ (
      el("button", `bk-button bk-confirm-ok ${confirm.style === "danger" ? "bk-danger-solid" : "bk-primary"}`)
    );
    yes.type = "button";
    yes.textContent = plainText(confirm.confirm, "Yes");
    footer.append(deny, yes);
    dialog.append(title, text, footer);
    let answered = false;
    const finish = (ok) => {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      resolve(ok);
    };
    deny.addEventListener("click", () => finish(false));
    yes.addEventListener("click", () => finish(true));
    dialog.addEventListener("cancel", () => finish(false));
    dialog.addEventListener("close", () => finish(false));
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    deny.focus();
  });
}

/** A static menu: a native select whose first entry is the placeholder. */
function staticSelect(menu, blockId, ctx) {
  const node = /** @type {HTMLSelectElement} */ (el("select", "bk-select"));
  node.dataset.actionId = String(menu.action_id ?? "");
  node.dataset.blockId = blockId;
  const placeholder = /** @type {HTMLOptionElement} */ (
    el("option", "", plainText(menu.placeholder, "Select…"))
  );
  placeholder.value = "";
  placeholder.disabled = true;
  node.append(placeholder);
  const groups = Array.isArray(menu.option_groups)
    ? menu.option_groups
    : [{ label: null, options: menu.options ?? [] }];
  for (const g of groups) {
    const parent = g.label ? el("optgroup") : node;
    if (g.label) /** @type {HTMLOptGroupElement} */ (parent).label = plainText(g.label, "");
    for (const o of g.options ?? []) {
      const option = /** @type {HTMLOptionElement} */ (el("option", "", plainText(o.text, o.value)));
      option.value = String(o.value ?? "");
      parent.append(option);
    }
    if (parent !== node) node.append(parent);
  }
  const initial = menu.initial_option?.value;
  node.value = initial === undefined ? "" : String(initial);
  let current = node.value;
  node.addEventListener("change", async () => {
    const value = node.value;
    if (menu.confirm && !(await askConfirm(menu.confirm))) {
      node.value = current;
      return;
    }
    current = value;
    ctx.onSelect?.(menu, blockId, value, node);
  });
  return node;
}

function button(b, blockId, ctx) {
  const node = /** @type {HTMLButtonElement} */ (el("button", `bk-button ${b.style ? `bk-${b.style}` : ""}`));
  node.type = "button";
  node.textContent = emojify(String(b.text?.text ?? "button"));
  const url = b.url ? safeUrl(String(b.url)) : null;
  if (url) {
    node.title = url;
    node.classList.add("bk-link-button");
    node.append(el("span", "bk-external", " ↗"));
  }
  node.dataset.actionId = String(b.action_id ?? "");
  node.dataset.blockId = blockId;
  if (b.confirm) node.dataset.confirm = "true";
  node.addEventListener("click", async () => {
    // Slack asks before a click with a confirm object is sent (or a link is opened).
    if (b.confirm && !(await askConfirm(b.confirm))) return;
    if (url) window.open(url, "_blank", "noopener,noreferrer");
    else ctx.onButton?.(b, blockId, node);
  });
  return node;
}

function interactive(e, blockId, ctx) {
  if (e.type === "button") return button(e, blockId, ctx);
  if (e.type === "static_select") return staticSelect(e, blockId, ctx);
  return unsupported("element", e.type);
}

function accessory(acc, blockId, ctx) {
  if (acc.type === "button" || acc.type === "static_select") return interactive(acc, blockId, ctx);
  if (acc.type === "image") return imageElement(acc, false);
  return unsupported("element", acc.type);
}

/** @param {any} block @param {BlockCtx} ctx */
function renderBlock(block, ctx) {
  const blockId = String(block.block_id ?? "");
  switch (block.type) {
    case "header": {
      const h = el("div", "bk-header");
      h.append(renderText(block.text, ctx));
      return h;
    }
    case "section": {
      const s = el("div", "bk-section");
      const body = el("div", "bk-section-body");
      if (block.text) {
        const t = el("div", "bk-text");
        t.append(renderText(block.text, ctx));
        body.append(t);
      }
      if (Array.isArray(block.fields)) {
        const grid = el("div", "bk-fields");
        for (const f of block.fields) {
          const cell = el("div", "bk-field");
          cell.append(renderText(f, ctx));
          grid.append(cell);
        }
        body.append(grid);
      }
      s.append(body);
      if (block.accessory) s.append(accessory(block.accessory, blockId, ctx));
      return s;
    }
    case "context": {
      const c = el("div", "bk-context");
      for (const e of block.elements ?? []) {
        if (e.type === "image") c.append(imageElement(e, true));
        else {
          const span = el("span", "bk-context-item");
          span.append(renderText(e, ctx));
          c.append(span);
        }
      }
      return c;
    }
    case "divider":
      return el("hr", "bk-divider");
    case "actions": {
      const row = el("div", "bk-actions");
      for (const e of block.elements ?? []) {
        row.append(interactive(e, blockId, ctx));
      }
      return row;
    }
    case "image": {
      const fig = el("figure", "bk-image");
      if (block.title) {
        const cap = el("figcaption");
        cap.append(renderText(block.title, ctx));
        fig.append(cap);
      }
      fig.append(imageElement(block, false));
      return fig;
    }
    case "data_visualization":
      return renderChart(block);
    case "table":
      return renderTable(block);
    default:
      return unsupported("block", block.type);
  }
}

/** Blocks when there are any, else the message's `text` as mrkdwn. */
export function renderMessageBody(message, ctx) {
  const body = el("div", "msg-body");
  if (Array.isArray(message.blocks) && message.blocks.length > 0) {
    for (const block of message.blocks) body.append(renderBlock(block, ctx));
  } else {
    const t = el("div", "bk-text");
    t.append(renderMrkdwn(message.text ?? "", ctx));
    body.append(t);
  }
  return body;
}
