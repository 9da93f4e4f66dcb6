// Slack's assistant pane (Agents & AI apps), as the sandbox shows it: a side panel where the
// person chats with the app in a thread of their DM. Opening it starts a thread
// (POST /__slack/assistant/threads → assistant_thread_started); the app's suggested prompts
// show as chips that send their message when clicked; the app's status line shows while it
// works; its answers render like any message. Polled from GET /__slack/assistant/threads.

const POLL_MS = 1000;

/**
 * @param {{
 *   api: (path: string, body?: unknown) => Promise<any>,
 *   el: (tag: string, className?: string, text?: string) => HTMLElement,
 *   renderMessage: (m: any) => HTMLElement,
 *   me: () => string,
 *   channel: () => string,
 *   toast: (text: string) => void,
 * }} page
 */
export function setupAssistant(page) {
  const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
  const panel = $("assistant");
  /** @type {{ channel: string, threadTs: string } | null} */
  let open = null;
  let timer = 0;
  let drawn = "";

  async function read() {
    if (!open) return;
    const thread = open;
    const { threads } = await page.api(`/__slack/assistant/threads?userId=${encodeURIComponent(page.me())}`);
    const now = threads.find((t) => t.threadTs === thread.threadTs);
    if (now && open === thread) draw(now);
  }

  function draw(thread) {
    const sig = JSON.stringify(thread);
    if (sig === drawn) return;
    drawn = sig;
    const prompts = $("assistant-prompts");
    prompts.replaceChildren();
    if (thread.prompts.length > 0) {
      prompts.append(page.el("div", "assistant-prompts-title", thread.promptsTitle ?? "Suggested prompts"));
      for (const p of thread.prompts) {
        const chip = /** @type {HTMLButtonElement} */ (page.el("button", "prompt-chip", p.title));
        chip.type = "button";
        chip.addEventListener("click", () => ask(p.message));
        prompts.append(chip);
      }
    }
    const list = $("assistant-messages");
    list.replaceChildren(...thread.messages.map((m) => page.renderMessage(m)));
    list.scrollTop = list.scrollHeight;
    const status = $("assistant-status");
    status.hidden = !thread.status;
    status.textContent = thread.status ? `Decipher ${thread.status}` : "";
  }

  async function ask(text) {
    if (!open || !text.trim()) return;
    try {
      await page.api("/__slack/user-messages", {
        channelId: open.channel,
        userId: page.me(),
        text,
        threadTs: open.threadTs,
      });
    } catch (e) {
      page.toast(`Message failed: ${e.message}`);
    }
    read();
  }

  async function start() {
    try {
      const res = await page.api("/__slack/assistant/threads", {
        userId: page.me(),
        contextChannelId: page.channel(),
      });
      open = { channel: res.thread.channel, threadTs: res.thread.threadTs };
      drawn = "";
      panel.hidden = false;
      draw(res.thread);
      clearInterval(timer);
      timer = window.setInterval(() => read().catch(() => {}), POLL_MS);
      read().catch(() => {});
    } catch (e) {
      page.toast(`The assistant pane could not open: ${e.message}`);
    }
  }

  $("assistant-open").addEventListener("click", start);
  $("assistant-close").addEventListener("click", () => {
    open = null;
    clearInterval(timer);
    panel.hidden = true;
  });
  $("assistant-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("assistant-composer"));
    const text = input.value;
    input.value = "";
    ask(text);
  });
}
