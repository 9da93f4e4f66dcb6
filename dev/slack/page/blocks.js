// Block Kit → DOM, the subset a Slack app uses for messages: header, section (text, fields,
// accessory), context, divider, actions (buttons), image. Unknown blocks and elements are shown
// as a labelled placeholder rather than dropped, so builders notice.
import { emojify, link, renderMrkdwn, renderText, safeUrl } from "./mrkdwn.js";

/**
 * @typedef {import("./mrkdwn.js").Ctx & {
 *   onButton?: (button: any, blockId: string, node: HTMLButtonElement) => void
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
  // Unreachable hosts (the emulator's screenshots are fake) fall back to a link card.
  pic.addEventListener("error", () => {
    a.textContent = `🖼️ ${alt}`;
    a.classList.add("bk-img-fallback");
  });
  a.append(pic);
  wrap.append(a);
  return wrap;
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
  node.addEventListener("click", () => {
    if (url) window.open(url, "_blank", "noopener,noreferrer");
    else ctx.onButton?.(b, blockId, node);
  });
  return node;
}

function accessory(acc, blockId, ctx) {
  if (acc.type === "button") return button(acc, blockId, ctx);
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
        row.append(e.type === "button" ? button(e, blockId, ctx) : unsupported("element", e.type));
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
