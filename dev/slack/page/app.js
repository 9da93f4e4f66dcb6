// The sandbox page: a small Slack client over the stand-in's /__slack/* API. It polls every
// second, renders the viewer's channel (ephemerals only for the viewer, like Slack), sends
// slash commands, button clicks and menu choices as real signed deliveries, and fires the
// bot's cron.

import { setupAssistant } from "./assistant.js";
import { renderMessageBody } from "./blocks.js";
import { controlStatus } from "./control-status.js";
import { mentionPicker } from "./mention-picker.js";
import {
  messageTime,
  parseReadingClock,
  READING_CHOICES,
  readingHref,
  readingNote,
  retime,
} from "./reading-clock.js";
import { composerPlaceholder, suggestions } from "./suggestions.js";

const POLL_MS = 1000;
/** How often times already drawn ("6 minutes ago", "today") are re-read against now. */
const RETIME_MS = 5000;
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const state = {
  /** @type {{ id: string, name: string, isArchived: boolean, isMember: boolean, topic: string }[]} */
  channels: [],
  /** @type {Map<string, { id: string, name: string, realName: string, isBot: boolean, role?: string, teamId?: string }>} */
  users: new Map(),
  userGroups: [],
  /** @type {any[]} */
  messages: [],
  me: localStorage.getItem("sandbox.me") || "U0ALICE",
  channel: location.hash === "#home" ? "C0DEMO" : decodeURIComponent(location.hash.slice(1)) || "C0DEMO",
  /** The app's Home tab is shown instead of a channel. */
  home: location.hash === "#home",
  /** The viewer's Home view and open modals, from /__slack/views. */
  views: /** @type {{ home: any, modals: any[] }} */ ({ home: null, modals: [] }),
  /** @type {string | null} */
  thread: null,
  /** Newest ts seen per channel, for unread badges. */
  seen: /** @type {Record<string, string>} */ ({}),
  history: /** @type {string[]} */ ([]),
  historyAt: -1,
};

/** `?at=+1h`: the page reads dates and times as they will read then (reading-clock.js). */
let reading = parseReadingClock(new URLSearchParams(location.search).get("at"));
/** "Now" for everything the page renders: real time, or the reading clock's. */
const readingNow = () => Date.now() + reading.offsetMs;

/** Re-reads every time on the page (channel, thread, Home, modal) against now, in place. */
function retimePage() {
  retime(document.querySelectorAll("[data-time]"), readingNow());
  renderReadingNote();
}

const ctx = {
  userName: (id) => state.users.get(id)?.name,
  groupHandle: (id) => state.userGroups.find((g) => g.id === id)?.handle,
  channelName: (id) => state.channels.find((c) => c.id === id)?.name,
  now: readingNow,
  onButton: clickButton,
};

/** The workspace's own examples (GET /__sandbox/config), for the empty channel's hint. */
let examples = null;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `?ws=<workspace key>`: the page shows that workspace (WORKSPACES=2 npm start); else the sandbox's. */
const WORKSPACE_KEY = new URLSearchParams(location.search).get("ws");
/** That workspace's bot token, asked of /__sandbox/config at start: never in the page's URL. */
let WORKSPACE = /** @type {string | null} */ (null);

function withWorkspace(path) {
  return `${path}${path.includes("?") ? "&" : "?"}botToken=${encodeURIComponent(WORKSPACE)}`;
}

async function api(path, body) {
  const url = WORKSPACE && path.startsWith("/__slack/") ? withWorkspace(path) : path;
  const res = await fetch(
    url,
    body === undefined
      ? {}
      : {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(
            WORKSPACE && path.startsWith("/__slack/") ? { botToken: WORKSPACE, ...body } : body,
          ),
        },
  );
  const data = await res.json().catch(() => ({}));
  if (!res.ok || data.ok === false) throw new Error(data.error || `HTTP ${res.status}`);
  return data;
}

let toastTimer;
function toast(text) {
  const t = $("toast");
  t.textContent = text;
  t.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => {
    t.hidden = true;
  }, 5000);
}

let statusTimer;
/** Shows what a control did (dev/slack/page/control-status.js); a finished action's line fades. */
function setStatus(event) {
  const { text, fadeMs } = controlStatus(event);
  const line = $("control-status");
  line.textContent = text;
  clearTimeout(statusTimer);
  if (fadeMs !== null)
    statusTimer = setTimeout(() => {
      if (line.textContent === text) line.textContent = "";
    }, fadeMs);
}

// The assistant pane's thread parents are Slack's, not a message of the DM (page/assistant.js).
const visible = (m) => m.via !== "assistant" && (!m.ephemeral || m.visible_to === state.me);
const isTopLevel = (m) => !m.thread_ts || m.thread_ts === m.ts || m.reply_broadcast;
const timeOf = (ts) => new Date(Number(ts) * 1000);

// ---- sidebar ------------------------------------------------------------------------------

function renderSidebar() {
  const channels = $("channels");
  const dms = $("dms");
  channels.replaceChildren();
  dms.replaceChildren();
  for (const c of state.channels) {
    const isDm = c.id.startsWith("D");
    const a = /** @type {HTMLAnchorElement} */ (el("a"));
    a.href = `#${c.id}`;
    a.dataset.channel = c.id;
    a.append(
      el("span", "", isDm ? "●" : "#"),
      el("span", "", isDm ? (state.users.get(c.name)?.name ?? c.name) : c.name),
    );
    const newest = state.messages.filter((m) => m.channel === c.id && visible(m) && isTopLevel(m)).at(-1)?.ts;
    const unread =
      c.id !== state.channel && newest && newest > (state.seen[c.id] ?? "")
        ? state.messages.filter(
            (m) => m.channel === c.id && visible(m) && isTopLevel(m) && m.ts > (state.seen[c.id] ?? ""),
          ).length
        : 0;
    if (c.id === state.channel && !state.home) a.classList.add("active");
    if (unread) {
      a.classList.add("unread");
      a.append(el("span", "badge", String(unread)));
    }
    if (c.isArchived) {
      a.classList.add("archived");
      a.append(el("span", "note", "archived"));
    } else if (!c.isMember) a.append(el("span", "note", "bot not in"));
    const li = el("li");
    li.append(a);
    (isDm ? dms : channels).append(li);
  }
  $("home-link").classList.toggle("active", state.home);
  const current = state.channels.find((c) => c.id === state.channel);
  $("channel-title").textContent = state.home
    ? "🏠 Decipher · Home"
    : current
      ? `# ${current.name}`
      : state.channel;
  $("channel-topic").textContent = state.home ? "The app's Home tab, as you see it" : (current?.topic ?? "");
}

// ---- messages -----------------------------------------------------------------------------

function authorOf(m) {
  if (m.user === "USLACKBOT") return { name: "Slackbot", kind: "slackbot", app: false };
  const u = state.users.get(m.user);
  if (m.bot_id || u?.isBot) return { name: u?.realName ?? "Decipher", kind: "bot", app: true };
  return { name: u?.realName ?? m.user, kind: "human", app: false };
}

function renderMessage(m, inThread) {
  const node = el("div", `msg${m.ephemeral ? " ephemeral" : ""}`);
  node.dataset.ts = m.ts;
  const who = authorOf(m);
  node.append(el("div", `avatar ${who.kind}`, who.kind === "bot" ? "D" : who.name.slice(0, 1).toUpperCase()));
  const main = el("div", "msg-main");
  const meta = el("div", "msg-meta");
  meta.append(el("span", "author", who.name));
  if (who.app) meta.append(el("span", "app-badge", "APP"));
  const time = el("time", "msg-time", messageTime(Number(m.ts), readingNow()));
  time.dataset.time = m.ts;
  time.title = timeOf(m.ts).toString();
  meta.append(time);
  main.append(meta);
  if (m.ephemeral) main.append(el("div", "eph-note", "👁 Only visible to you"));
  main.append(
    renderMessageBody(m, {
      ...ctx,
      onButton: (button, blockId, btn) => clickButton(m, button, blockId, btn),
      onSelect: (menu, blockId, value, node) => chooseOption(m, menu, blockId, value, node),
    }),
  );
  for (const [url, unfurl] of Object.entries(m.unfurls ?? {})) {
    const box = el("div", "unfurl");
    box.dataset.url = url;
    box.append(
      renderMessageBody(
        { blocks: unfurl.blocks },
        {
          ...ctx,
          onButton: (button, blockId, btn) => clickButton(m, button, blockId, btn),
          onSelect: (menu, blockId, value, node) => chooseOption(m, menu, blockId, value, node),
        },
      ),
    );
    main.append(box);
  }
  if (m.edited) main.append(el("span", "edited", "(edited)"));
  if (!inThread && m.reply_count > 0) {
    const replies = /** @type {HTMLButtonElement} */ (el("button", "replies"));
    replies.type = "button";
    const last = state.messages
      .filter((r) => r.channel === m.channel && r.thread_ts === m.ts && r.ts !== m.ts)
      .at(-1);
    replies.append(`${m.reply_count} ${m.reply_count === 1 ? "reply" : "replies"}`);
    if (last) {
      const at = el("time", "", messageTime(Number(last.ts), readingNow()));
      at.dataset.time = last.ts;
      const note = el("span", "muted", "Last reply ");
      note.append(at);
      replies.append(note);
    }
    replies.addEventListener("click", () => openThread(m.ts));
    main.append(replies);
  }
  node.append(main);
  return node;
}

/** Keyed update: only messages whose JSON changed are rebuilt, so clicks and selections survive. */
function syncList(container, cache, items, inThread, emptyText) {
  const nearBottom = container.scrollHeight - container.scrollTop - container.clientHeight < 80;
  const keep = new Set();
  let added = false;
  items.forEach((m, i) => {
    const key = m.ts;
    keep.add(key);
    const sig = `${state.me}|${JSON.stringify(m)}`;
    let entry = cache.get(key);
    if (!entry || entry.sig !== sig) {
      const node = renderMessage(m, inThread);
      if (entry) entry.node.replaceWith(node);
      else {
        added = true;
        if (cache.primed) node.classList.add("flash");
      }
      entry = { sig, node };
      cache.set(key, entry);
    }
    if (container.children[i] !== entry.node)
      container.insertBefore(entry.node, container.children[i] ?? null);
  });
  for (const [key, entry] of cache) {
    if (key === "primed") continue;
    if (!keep.has(key)) {
      entry.node.remove();
      cache.delete(key);
    }
  }
  for (const child of [...container.children]) if (!child.classList.contains("msg")) child.remove();
  if (items.length === 0) container.append(el("div", "empty", emptyText));
  cache.primed = true;
  if (added && (nearBottom || !cache.scrolled)) {
    container.scrollTop = container.scrollHeight;
    cache.scrolled = true;
  }
}

const mainCache = new Map();
let threadCache = new Map();

function renderMessages() {
  const list = state.messages.filter((m) => m.channel === state.channel && visible(m) && isTopLevel(m));
  syncList(
    $("messages"),
    mainCache,
    list,
    false,
    `No messages here yet. Try ${examples ? `/sessions ${examples.email} or ` : ""}/decipher help below.`,
  );
  const newest = list.at(-1)?.ts;
  if (newest) state.seen[state.channel] = newest;
  renderThread();
}

function renderThread() {
  const pane = $("thread");
  if (!state.thread) {
    pane.hidden = true;
    return;
  }
  pane.hidden = false;
  const channel = state.channels.find((c) => c.id === state.channel);
  $("thread-channel").textContent = channel ? `# ${channel.name}` : "";
  const parent = state.messages.find((m) => m.channel === state.channel && m.ts === state.thread);
  const replies = state.messages.filter(
    (m) => m.channel === state.channel && visible(m) && m.thread_ts === state.thread && m.ts !== state.thread,
  );
  syncList(
    $("thread-messages"),
    threadCache,
    parent ? [parent, ...replies] : replies,
    true,
    "Thread not found.",
  );
}

function openThread(ts) {
  state.thread = ts;
  threadCache = new Map();
  $("thread-messages").replaceChildren();
  renderThread();
}

// ---- actions ------------------------------------------------------------------------------

/** Sends a click through the stand-in (`path`), with the button marked busy meanwhile. */
async function deliverClick(node, path, body) {
  node.classList.add("busy");
  node.disabled = true;
  try {
    const res = await api(path, body);
    if (res.outcome !== "ok") toast(`The bot answered ${res.status} (${res.outcome})`);
  } catch (e) {
    toast(`${node.tagName === "SELECT" ? "Menu" : "Button"} failed: ${e.message}`);
  } finally {
    node.classList.remove("busy");
    node.disabled = false;
    refresh();
  }
}

/** A click names the element itself, as Slack does: its block_id, action_id and value. */
function clickButton(m, button, blockId, node) {
  return deliverClick(node, "/__slack/actions", {
    channelId: m.channel,
    userId: state.me,
    messageTs: m.ts,
    actionId: button.action_id,
    blockId,
    ...(typeof button.value === "string" ? { value: button.value } : {}),
  });
}

/** A choice in a static menu: a block_actions payload with the chosen `selected_option`. */
function chooseOption(m, menu, blockId, value, node) {
  return deliverClick(node, "/__slack/actions", {
    channelId: m.channel,
    userId: state.me,
    messageTs: m.ts,
    actionId: menu.action_id,
    blockId,
    selectedValue: value,
  });
}

/** A plain message: stored as the viewer's, then link_shared / app_mention go to the bot. */
async function sendMessage(text, threadTs) {
  try {
    const res = await api("/__slack/user-messages", {
      channelId: state.channel,
      userId: state.me,
      text,
      ...(threadTs ? { threadTs } : {}),
    });
    const failed = res.deliveries.find((d) => d.outcome !== "ok");
    if (failed) toast(`The bot answered ${failed.status} (${failed.outcome})`);
  } catch (e) {
    toast(`Message failed: ${e.message}`);
  }
  refresh();
  return true;
}

async function sendCommand(line) {
  const m = /^(\/[\w-]+)\s*([\s\S]*)$/.exec(line.trim());
  if (!m) return sendMessage(line.trim());
  try {
    const res = await api("/__slack/commands", {
      command: m[1],
      text: m[2],
      channelId: state.channel,
      userId: state.me,
    });
    if (res.outcome !== "ok") toast(`${m[1]} failed: ${res.outcome} (HTTP ${res.status})`);
  } catch (e) {
    toast(`${m[1]} could not be delivered: ${e.message}`);
  }
  refresh();
  return true;
}

async function pollNow() {
  const btn = /** @type {HTMLButtonElement} */ ($("poll-now"));
  btn.disabled = true;
  setStatus({ kind: "polling" });
  try {
    await api("/__sandbox/poll", {});
    setStatus({ kind: "polled", at: new Date() });
  } catch (e) {
    setStatus({ kind: "failed", what: "Poll", error: e.message });
  } finally {
    btn.disabled = false;
    refresh();
  }
}

/** The digest is due at the first HH:MM after it was set: set the next minute, poll after it. */
async function digestNow() {
  const btn = /** @type {HTMLButtonElement} */ ($("digest-now"));
  btn.disabled = true;
  const now = new Date();
  const at = new Date(now);
  at.setUTCSeconds(0, 0);
  at.setUTCMinutes(at.getUTCMinutes() + (now.getUTCSeconds() >= 45 ? 2 : 1));
  const hhmm = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  try {
    await sendCommand(`/decipher digest ${hhmm} UTC`);
    await api("/__sandbox/poll-at", { at: at.getTime() + 3000 });
    const tick = () => {
      const secs = Math.round((at.getTime() + 3000 - Date.now()) / 1000);
      if (secs > 0) {
        setStatus({ kind: "digest-waiting", hhmm, secs });
        setTimeout(tick, 1000);
      } else {
        setStatus({ kind: "digest-polled", hhmm, at: new Date() });
        btn.disabled = false;
      }
    };
    tick();
  } catch (e) {
    setStatus({ kind: "failed", what: "Digest", error: e.message });
    btn.disabled = false;
  }
}

// ---- App Home and modals --------------------------------------------------------------------

let homeSig = "";
let modalSig = "";

async function openHome() {
  try {
    const res = await api("/__slack/home-opened", { userId: state.me });
    const failed = res.deliveries.find((d) => d.outcome !== "ok");
    if (failed) toast(`The bot answered ${failed.status} (${failed.outcome})`);
  } catch (e) {
    toast(`Home could not be opened: ${e.message}`);
  }
  refresh();
}

/** A button in a view (Home tab or modal): no channel, no response_url, a view container. */
function clickViewButton(view, button, blockId, node) {
  return deliverClick(node, "/__slack/view-actions", {
    userId: state.me,
    viewId: view.id,
    actionId: button.action_id,
    blockId,
    ...(typeof button.value === "string" ? { value: button.value } : {}),
  });
}

function renderHome() {
  const home = $("home");
  home.hidden = !state.home;
  $("messages").hidden = state.home;
  $("composer-form").hidden = state.home;
  if (!state.home) return;
  const view = state.views.home;
  const sig = `${state.me}|${JSON.stringify(view)}`;
  if (sig === homeSig) return;
  homeSig = sig;
  home.replaceChildren(
    view
      ? renderMessageBody(
          { blocks: view.blocks },
          { ...ctx, onButton: (button, blockId, btn) => clickViewButton(view, button, blockId, btn) },
        )
      : el("div", "empty", "The app has not published a Home view for you yet."),
  );
}

/** The newest open modal as a form: input blocks become fields, other blocks render as usual. */
function renderModal() {
  const modal = state.views.modals.at(-1);
  $("modal").hidden = !modal;
  if (!modal) {
    modalSig = "";
    return;
  }
  const sig = JSON.stringify(modal);
  if (sig === modalSig) return;
  modalSig = sig;
  $("modal-title").textContent = modal.title?.text ?? "";
  $("modal-submit").textContent = modal.submit?.text ?? "Submit";
  $("modal-close").textContent = modal.close?.text ?? "Cancel";
  const body = $("modal-body");
  body.replaceChildren();
  for (const block of modal.blocks ?? []) {
    if (block.type !== "input") {
      body.append(renderMessageBody({ blocks: [block] }, ctx));
      continue;
    }
    const label = el("label", "bk-input", block.label?.text ?? block.block_id);
    const input = /** @type {HTMLInputElement} */ (el("input"));
    input.name = block.block_id;
    input.placeholder = block.element?.placeholder?.text ?? "";
    label.append(input);
    body.append(label);
    if (block.hint) body.append(el("div", "hint", block.hint.text));
    const error = el("div", "error");
    error.dataset.errorFor = block.block_id;
    body.append(error);
  }
}

async function submitModal(event) {
  event.preventDefault();
  const modal = state.views.modals.at(-1);
  if (!modal) return;
  const form = /** @type {HTMLFormElement} */ ($("modal-form"));
  const values = Object.fromEntries(new FormData(form).entries());
  for (const e of form.querySelectorAll("[data-error-for]")) e.textContent = "";
  try {
    const res = await api("/__slack/view-submissions", { userId: state.me, viewId: modal.id, values });
    if (res.errors) {
      for (const [blockId, text] of Object.entries(res.errors)) {
        const target = form.querySelector(`[data-error-for="${CSS.escape(blockId)}"]`);
        if (target) target.textContent = String(text);
      }
      return;
    }
    if (res.outcome !== "ok") toast(`The bot answered ${res.status} (${res.outcome})`);
    else toast("Submitted: the results arrive in your DM with Decipher");
  } catch (e) {
    toast(`Submit failed: ${e.message}`);
  }
  refresh();
}

async function closeModal() {
  const modal = state.views.modals.at(-1);
  if (modal) await api("/__slack/view-close", { userId: state.me, viewId: modal.id }).catch(() => {});
  refresh();
}

// ---- wiring -------------------------------------------------------------------------------

/** How "Viewing as" names a person: a guest, or someone of another organization (Slack Connect), says so. */
function personLabel(u) {
  if (u.teamId) return `${u.name} (another organization)`;
  if (u.role === "guest" || u.role === "single-channel-guest") return `${u.name} (guest)`;
  return u.name;
}

/** "Viewing as" offers every person of the workspace (the stand-in's `POST /__slack/users` adds some). */
function renderPeople() {
  const select = /** @type {HTMLSelectElement} */ ($("me"));
  const people = [...state.users.values()].filter((u) => !u.isBot);
  const sig = people.map((u) => `${u.id}:${personLabel(u)}`).join(",");
  if (select.dataset.sig === sig) return;
  select.dataset.sig = sig;
  select.replaceChildren(
    ...people.map((u) => {
      const option = el("option", "", personLabel(u));
      option.value = u.id;
      return option;
    }),
  );
  select.value = state.me;
}

async function refresh() {
  try {
    const [ws, msgs, views] = await Promise.all([
      api("/__slack/workspace"),
      api("/__slack/messages"),
      api(`/__slack/views?userId=${encodeURIComponent(state.me)}`),
    ]);
    state.views = views;
    $("team-name").textContent = ws.team;
    state.channels = ws.channels;
    state.users = new Map(ws.users.map((u) => [u.id, u]));
    state.userGroups = ws.user_groups ?? [];
    renderPeople();
    state.messages = msgs.messages;
    $("live").textContent = "● live";
    $("live").classList.remove("down");
    renderSidebar();
    renderMessages();
    renderHome();
    renderModal();
  } catch {
    $("live").textContent = "● stand-in unreachable";
    $("live").classList.add("down");
  }
}

/** The workspaces the sandbox runs (WORKSPACES=2 npm start: two): a switcher when there are more. */
function renderWorkspaces(workspaces) {
  const select = /** @type {HTMLSelectElement} */ ($("workspace"));
  if (!Array.isArray(workspaces) || workspaces.length < 2) return;
  for (const w of workspaces) {
    const option = /** @type {HTMLOptionElement} */ (el("option", "", w.label));
    option.value = w.ws ?? "";
    select.append(option);
  }
  select.value = WORKSPACE_KEY ?? "";
  select.hidden = false;
  select.addEventListener("change", () => {
    const url = new URL(location.href);
    if (select.value) url.searchParams.set("ws", select.value);
    else url.searchParams.delete("ws");
    url.hash = "#C0DEMO";
    location.assign(url.href);
  });
}

/** "Read as of: now · +1 hour · +1 day", and while reading ahead, a note saying what that means. */
function renderReadingClock() {
  const nav = $("reading-clock");
  nav.append(el("span", "reading-label", "Read as of:"));
  const choices = READING_CHOICES.some((c) => c.at === reading.at)
    ? READING_CHOICES
    : [...READING_CHOICES, { at: reading.at, label: reading.label }];
  for (const choice of choices) {
    const a = /** @type {HTMLAnchorElement} */ (el("a", "reading-choice", choice.label));
    a.dataset.at = choice.at;
    // Moved in place, not by loading the page: the open thread and the scroll stay.
    a.addEventListener("click", (event) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      event.preventDefault();
      history.pushState(null, "", readingHref(location.href, choice.at));
      setReadingClock(parseReadingClock(choice.at));
    });
    nav.append(a);
  }
  setReadingClock(reading);
  window.addEventListener("popstate", () =>
    setReadingClock(parseReadingClock(new URLSearchParams(location.search).get("at"))),
  );
}

function setReadingClock(clock) {
  reading = clock;
  syncReadingLinks();
  retimePage();
}

/** Each choice links to this channel read at its time, the current one marked. */
function syncReadingLinks() {
  for (const a of $("reading-clock").querySelectorAll("a")) {
    a.href = readingHref(location.href, a.dataset.at ?? "");
    const active = a.dataset.at === reading.at;
    a.classList.toggle("active", active);
    if (active) a.setAttribute("aria-current", "true");
    else a.removeAttribute("aria-current");
  }
}

function renderReadingNote() {
  const note = $("reading-note");
  const text = reading.error ?? (reading.offsetMs > 0 ? `🕐 ${readingNote(reading, Date.now())}` : "");
  if (note.textContent !== text) note.textContent = text;
  note.hidden = text === "";
}

let configPromise;
/** The sandbox's config for the workspace shown (fetched once). */
function sandboxConfig() {
  configPromise ??= api(
    WORKSPACE_KEY ? `/__sandbox/config?ws=${encodeURIComponent(WORKSPACE_KEY)}` : "/__sandbox/config",
  ).catch(() => ({ appUrl: null, examples: null, botToken: null, workspaces: [] }));
  return configPromise;
}

async function showSuggestions(input) {
  const config = await sandboxConfig();
  examples = config.examples ?? null;
  input.placeholder = composerPlaceholder(examples);
  renderWorkspaces(config.workspaces);
  for (const s of suggestions(config.appUrl ?? null, examples)) {
    const b = el("button", "", s);
    b.type = "button";
    b.addEventListener("click", () => {
      input.value = s;
      input.focus();
    });
    $("suggestions").append(b);
  }
}

async function init() {
  if (WORKSPACE_KEY) WORKSPACE = (await sandboxConfig()).botToken ?? null;
  const me = /** @type {HTMLSelectElement} */ ($("me"));
  me.value = state.me;
  me.addEventListener("change", () => {
    state.me = me.value;
    localStorage.setItem("sandbox.me", state.me);
    if (state.home) openHome();
    else refresh();
  });
  window.addEventListener("hashchange", () => {
    syncReadingLinks();
    state.home = location.hash === "#home";
    if (state.home) {
      state.thread = null;
      openHome();
      return;
    }
    state.channel = decodeURIComponent(location.hash.slice(1)) || "C0DEMO";
    state.thread = null;
    mainCache.clear();
    $("messages").replaceChildren();
    refresh();
  });
  const input = /** @type {HTMLInputElement} */ ($("composer"));
  const picker = mentionPicker(
    input,
    $("mention-list"),
    () => ({ people: [...state.users.values()].filter((u) => !u.isBot), groups: state.userGroups }),
    el,
  );
  $("composer-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const line = input.value;
    if (!line.trim()) return;
    state.history.push(line);
    state.historyAt = state.history.length;
    input.value = "";
    if (!(await sendCommand(picker.escape(line)))) input.value = line;
  });
  input.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
    const next = state.historyAt + (event.key === "ArrowUp" ? -1 : 1);
    if (next < 0 || next > state.history.length) return;
    state.historyAt = next;
    input.value = state.history[next] ?? "";
    event.preventDefault();
  });
  renderReadingClock();
  showSuggestions(input);
  $("thread-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = /** @type {HTMLInputElement} */ ($("thread-composer"));
    const text = reply.value.trim();
    if (!text || !state.thread) return;
    reply.value = "";
    await sendMessage(text, state.thread);
  });
  $("modal-form").addEventListener("submit", submitModal);
  $("modal-close").addEventListener("click", closeModal);
  $("poll-now").addEventListener("click", pollNow);
  $("digest-now").addEventListener("click", digestNow);
  $("thread-close").addEventListener("click", () => {
    state.thread = null;
    renderThread();
  });
  setupAssistant({
    api,
    el,
    toast,
    renderMessage: (m) => renderMessage(m, true),
    me: () => state.me,
    channel: () => state.channel,
  });
  if (state.home) openHome();
  else refresh();
  setInterval(refresh, POLL_MS);
  setInterval(retimePage, RETIME_MS);
}

init();
