// The composer's @ list, as Slack's: typing @ opens the workspace's people and user groups,
// and one picked reaches the app escaped, `<@U0BOB|bob>` or `<!subteam^S0ONCALL|@oncall>`
// (what a slash command with should_escape, and any message, carries). Text typed without
// picking stays plain text, as in Slack: the bot then says to pick from this list.

/** The "@partial" just before the caret, or null. */
function typedMention(input) {
  const before = input.value.slice(0, input.selectionStart ?? input.value.length);
  const m = /(?:^|[\s:])@([\w.-]*)$/.exec(before);
  return m ? { partial: m[1].toLowerCase(), start: before.length - m[1].length - 1 } : null;
}

/**
 * @param {HTMLInputElement} input
 * @param {HTMLElement} list where the choices are drawn (hidden when there are none)
 * @param {() => { people: { id: string, name: string, realName?: string }[], groups: { id: string, handle: string, name: string }[] }} directory
 * @param {(tag: string, cls?: string, text?: string) => HTMLElement} el
 */
export function mentionPicker(input, list, directory, el) {
  /** "@bob" → its escaped form, for each name picked since the last send. */
  const picked = new Map();
  /** The choices shown, the highlighted one, and where the typed "@…" starts. */
  let shown = { choices: [], at: null, highlighted: 0 };

  const choicesFor = (partial) => {
    const { people, groups } = directory();
    const starts = (...names) => names.some((n) => (n ?? "").toLowerCase().startsWith(partial));
    return [
      ...people
        .filter((p) => starts(p.name, p.realName))
        .map((p) => ({ label: `@${p.name}`, detail: p.realName ?? "", token: `<@${p.id}|${p.name}>` })),
      ...groups
        .filter((g) => starts(g.handle, g.name))
        .map((g) => ({
          label: `@${g.handle}`,
          detail: `${g.name} (group)`,
          token: `<!subteam^${g.id}|@${g.handle}>`,
        })),
    ].slice(0, 8);
  };

  const close = () => {
    list.hidden = true;
    list.replaceChildren();
    shown = { choices: [], at: null, highlighted: 0 };
  };

  const highlight = (i) => {
    shown.highlighted = (i + shown.choices.length) % shown.choices.length;
    list.querySelectorAll(".mention-choice").forEach((b, j) => {
      b.classList.toggle("active", j === shown.highlighted);
      b.setAttribute("aria-selected", String(j === shown.highlighted));
    });
  };

  const pick = (choice, at) => {
    const caret = input.selectionStart ?? input.value.length;
    input.value = `${input.value.slice(0, at.start)}${choice.label} ${input.value.slice(caret)}`;
    picked.set(choice.label, choice.token);
    close();
    input.focus();
  };

  input.addEventListener("input", () => {
    const at = typedMention(input);
    const choices = at ? choicesFor(at.partial) : [];
    if (!at || choices.length === 0) return close();
    list.replaceChildren(
      ...choices.map((choice) => {
        const b = el("button", "mention-choice");
        b.type = "button";
        b.append(el("strong", "", choice.label), el("span", "mention-detail", choice.detail));
        // mousedown, not click: the input keeps its caret.
        b.addEventListener("mousedown", (event) => {
          event.preventDefault();
          pick(choice, at);
        });
        return b;
      }),
    );
    list.hidden = false;
    shown = { choices, at, highlighted: 0 };
    highlight(0);
  });
  // As in Slack: with the list open, the arrows move, Enter or Tab picks, Escape closes; the
  // composer's own keys (history, send) wait until it is closed.
  input.addEventListener("keydown", (event) => {
    if (list.hidden || shown.choices.length === 0) return;
    const moves = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) highlight(shown.highlighted + moves[event.key]);
    else if (event.key === "Enter" || event.key === "Tab") pick(shown.choices[shown.highlighted], shown.at);
    else if (event.key === "Escape") close();
    else return;
    event.preventDefault();
    event.stopImmediatePropagation();
  });
  input.addEventListener("blur", () => setTimeout(close, 150));

  return {
    /** The line as the app receives it: each picked name escaped; the list is then forgotten. */
    escape(line) {
      let out = line;
      for (const [label, token] of picked) {
        const re = new RegExp(`${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w.-])`, "g");
        out = out.replace(re, token);
      }
      picked.clear();
      close();
      return out;
    },
  };
}
