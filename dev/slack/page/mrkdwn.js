// Slack mrkdwn → DOM nodes. Everything a message says is untrusted vendor/bot text: nodes are
// built with textContent only, links are kept only when they are http(s).

/** @typedef {{ userName?: (id: string) => string | undefined, groupHandle?: (id: string) => string | undefined, channelName?: (id: string) => string | undefined, now?: () => number }} Ctx */

/** Every shortcode the bot sends must be here (test/slack-standin/page-emoji.test.ts checks). */
export const EMOJI = {
  x: "❌",
  warning: "⚠️",
  rotating_light: "🚨",
  label: "🏷️",
  frame_with_picture: "🖼️",
  chart_with_upwards_trend: "📈",
  chart_with_downwards_trend: "📉",
  white_circle: "⚪",
  white_check_mark: "✅",
  wastebasket: "🗑️",
  heavy_check_mark: "✔️",
  stopwatch: "⏱️",
  robot_face: "🤖",
  red_circle: "🔴",
  newspaper: "📰",
  mag: "🔍",
  large_green_circle: "🟢",
  large_blue_circle: "🔵",
  large_yellow_circle: "🟡",
  hourglass: "⌛",
  hourglass_flowing_sand: "⏳",
  eyes: "👀",
  tada: "🎉",
  fire: "🔥",
  bug: "🐛",
  link: "🔗",
  clock1: "🕐",
  calendar: "📅",
  bell: "🔔",
  no_bell: "🔕",
  pushpin: "📌",
  point_right: "👉",
  information_source: "ℹ️",
  bar_chart: "📊",
  test_tube: "🧪",
  computer: "💻",
  iphone: "📱",
  globe_with_meridians: "🌐",
  earth_americas: "🌎",
  busts_in_silhouette: "👥",
  bust_in_silhouette: "👤",
  repeat: "🔁",
  arrows_counterclockwise: "🔄",
  green_heart: "💚",
  heavy_plus_sign: "➕",
  heavy_minus_sign: "➖",
  sparkles: "✨",
  zap: "⚡",
  lock: "🔒",
  key: "🔑",
  thumbsup: "👍",
  "+1": "👍",
  thumbsdown: "👎",
  wave: "👋",
  memo: "📝",
  sleeping: "😴",
  zzz: "💤",
  alarm_clock: "⏰",
  double_vertical_bar: "⏸️",
  grey_question: "❔",
  new: "🆕",
  large_orange_circle: "🟠",
  large_green_square: "🟩",
  red_square: "🟥",
  white_large_square: "⬜",
  clipboard: "📋",
  camera: "📷",
  film_frames: "🎞️",
  arrow_right: "➡️",
  arrow_up: "⬆️",
  arrow_down: "⬇️",
  small_red_triangle: "🔺",
  small_red_triangle_down: "🔻",
  construction: "🚧",
  checkered_flag: "🏁",
  mailto: "📧",
  email: "📧",
  question: "❓",
  exclamation: "❗",
  no_entry: "⛔",
  see_no_evil: "🙈",
  skull: "💀",
};

/** Replace `:shortcode:` with the emoji when known. */
export function emojify(text) {
  return text.replace(/:([a-z0-9_+-]+):/g, (m, name) => EMOJI[name] ?? m);
}

export function decodeEntities(text) {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The URL if it is http(s), else null. */
export function safeUrl(raw) {
  try {
    const url = new URL(raw);
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

export function link(href, label) {
  const safe = safeUrl(href);
  if (!safe) {
    const span = document.createElement("span");
    span.textContent = label;
    return span;
  }
  const a = document.createElement("a");
  a.href = safe;
  a.target = "_blank";
  a.rel = "noopener noreferrer";
  a.textContent = label;
  a.title = safe;
  return a;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const pad = (n) => String(n).padStart(2, "0");

function dayDiff(date, now) {
  const a = new Date(date.getFullYear(), date.getMonth(), date.getDate());
  const b = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((a.getTime() - b.getTime()) / 86_400_000);
}

/** Slack's `<!date^…>` format tokens, in the viewer's local time. */
export function formatSlackDate(seconds, format, nowMs = Date.now()) {
  const d = new Date(seconds * 1000);
  const now = new Date(nowMs);
  const fmt = (opts) => d.toLocaleDateString(undefined, opts);
  const date = fmt({ year: "numeric", month: "long", day: "numeric" });
  const dateShort = fmt({ year: "numeric", month: "short", day: "numeric" });
  const dateLong = fmt({ weekday: "long", year: "numeric", month: "long", day: "numeric" });
  const pretty = (fallback) => {
    const diff = dayDiff(d, now);
    return diff === 0 ? "today" : diff === -1 ? "yesterday" : diff === 1 ? "tomorrow" : fallback;
  };
  const ago = () => {
    const secs = Math.round((d.getTime() - nowMs) / 1000);
    const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
    const abs = Math.abs(secs);
    if (abs < 60) return rtf.format(secs, "second");
    if (abs < 3600) return rtf.format(Math.round(secs / 60), "minute");
    if (abs < 86400) return rtf.format(Math.round(secs / 3600), "hour");
    return rtf.format(Math.round(secs / 86400), "day");
  };
  const tokens = {
    date_num: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    date,
    date_short: dateShort,
    date_long: dateLong,
    date_pretty: pretty(date),
    date_short_pretty: pretty(dateShort),
    date_long_pretty: pretty(dateLong),
    time: d.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" }),
    time_secs: d.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit", second: "2-digit" }),
    ago: ago(),
  };
  return format.replace(/\{(\w+)\}/g, (m, name) => tokens[name] ?? m);
}

/** One `<…>` token: links, mentions, channel links, specials, dates. */
function special(inner, ctx) {
  const bar = inner.indexOf("|");
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : decodeEntities(inner.slice(bar + 1));
  if (target.startsWith("@")) {
    const id = target.slice(1);
    return el("span", "mention", `@${label ?? ctx.userName?.(id) ?? id}`);
  }
  if (target.startsWith("#")) {
    const id = target.slice(1);
    return el("span", "mention", `#${label ?? ctx.channelName?.(id) ?? id}`);
  }
  if (target.startsWith("!date^")) {
    const [ts, format = "{date_short} {time}", href] = target.slice(6).split("^");
    const seconds = Number(ts);
    if (!Number.isFinite(seconds)) return document.createTextNode(label ?? inner);
    const text = formatSlackDate(seconds, format, ctx.now?.() ?? Date.now());
    const node = href ? link(href, text) : el("time", "date");
    if (!href) node.textContent = text;
    node.setAttribute("title", new Date(seconds * 1000).toString());
    // What it shows, so the page can re-read it as time passes (reading-clock.js `retime`).
    node.setAttribute("data-time", String(seconds));
    node.setAttribute("data-format", format);
    node.classList.add("date");
    return node;
  }
  // Slack shows a group by its handle, the label it came with or not.
  if (target.startsWith("!subteam^")) {
    const handle = ctx.groupHandle?.(target.slice(9));
    return el("span", "mention", handle ? `@${handle}` : (label ?? "@group"));
  }
  if (target.startsWith("!")) return el("span", "mention", `@${target.slice(1)}`);
  const url = decodeEntities(target);
  return link(url, label ?? url);
}

// `<…>`, inline code, then bold/italic/strike with Slack's word-boundary rules.
const INLINE =
  /<([^<>\n]+)>|`([^`\n]+)`|(?<![\w*])\*(?!\s)([^*\n]*?[^\s*])\*(?![\w*])|(?<![\w_])_(?!\s)([^_\n]*?[^\s_])_(?![\w_])|(?<![\w~])~(?!\s)([^~\n]*?[^\s~])~(?![\w~])/g;

function inline(text, ctx, into) {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) into.append(emojify(decodeEntities(text.slice(last, m.index))));
    if (m[1] !== undefined) into.append(special(m[1], ctx));
    else if (m[2] !== undefined) into.append(el("code", "", decodeEntities(m[2])));
    else {
      const tag = m[3] !== undefined ? "strong" : m[4] !== undefined ? "em" : "s";
      const node = el(tag);
      inline(m[3] ?? m[4] ?? m[5] ?? "", ctx, node);
      into.append(node);
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) into.append(emojify(decodeEntities(text.slice(last))));
}

/** Render mrkdwn into a fragment (block quotes, ``` pre blocks, inline formatting). */
export function renderMrkdwn(text, ctx = {}) {
  const frag = document.createDocumentFragment();
  const parts = String(text ?? "").split(/```/);
  parts.forEach((part, i) => {
    if (i % 2 === 1 && i < parts.length - 1) {
      frag.append(el("pre", "", decodeEntities(part.replace(/^\n/, ""))));
      return;
    }
    const chunk = i % 2 === 1 ? `\`\`\`${part}` : part;
    const lines = chunk.split("\n");
    let quote = null;
    lines.forEach((line, j) => {
      const q = /^(?:>|&gt;) ?(.*)$/.exec(line);
      if (q) {
        if (!quote) {
          quote = el("blockquote");
          frag.append(quote);
        } else quote.append("\n");
        inline(q[1], ctx, quote);
        return;
      }
      quote = null;
      inline(line, ctx, frag);
      if (j < lines.length - 1 && !/^(?:>|&gt;)/.test(lines[j + 1] ?? "")) frag.append("\n");
    });
  });
  return frag;
}

/** A text object (`plain_text` or `mrkdwn`) as nodes. */
export function renderText(obj, ctx = {}) {
  if (!obj || typeof obj !== "object") return document.createTextNode("");
  if (obj.type === "mrkdwn") return renderMrkdwn(obj.text, ctx);
  return document.createTextNode(
    obj.emoji === false ? String(obj.text ?? "") : emojify(String(obj.text ?? "")),
  );
}
