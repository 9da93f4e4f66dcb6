import * as ACTION_IDS from "../../src/messages/action-ids.ts";

/**
 * Which failed runs a message (or a logged post's parameters) announces: a parent alert names
 * its run in its button (also once re-rendered as the streak grows or ends), a thread reply and
 * an outage message (several tests failing in one cycle) and a flaky test's day thread in their
 * run links. Null for other posts.
 */
export function announcedRuns(text: string, blocks: unknown): number[] | null | "unreadable" {
  let button: string | undefined;
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === "object") {
      const o = node as Record<string, unknown>;
      if (o.type === "button" && o.action_id === ACTION_IDS.runOpen && typeof o.value === "string")
        button = o.value;
      else for (const v of Object.values(o)) walk(v);
    }
  };
  walk(blocks ?? []);
  if (button !== undefined) return [Number(button)];
  const links = [...JSON.stringify(blocks ?? []).matchAll(/\/runs\/(\d+)/g)].map((m) => Number(m[1]));
  // An outage message (also once edited as its tests recover, or as a failure joins it: "3 tests
  // failing (2 at once, 1 since)") and its thread parts naming more tests.
  if (/(failing|failed) (at once|\(\d+ at once, \d+ since\))|^Also fail(ing|ed) /.test(text))
    return links.length > 0 ? [...new Set(links)] : "unreadable";
  // What one poll read of an open streak, in one reply: a block per failure (":x: … Run #id"),
  // then maybe the pass that ended them, which announces no failure.
  if (/ failed \d+ more runs?\b/.test(text)) {
    const failures = (Array.isArray(blocks) ? blocks : [])
      .map((b) => String((b as { text?: { text?: unknown } }).text?.text ?? ""))
      .filter((t) => t.startsWith(":x:"))
      .map((t) => Number(/\/runs\/(\d+)/.exec(t)?.[1] ?? Number.NaN));
    return failures.length > 0 && failures.every(Number.isFinite) ? failures : "unreadable";
  }
  // A thread reply, or a flaky test's day thread (its opening post, "… is flaky" with or without
  // its run's figure, late or posted again with a note in brackets, and its replies): the run
  // links first.
  if (/failed again|is flaky(?::|$| \()|failed \(flaky\)/.test(text))
    return links.length > 0 ? [links[0] as number] : "unreadable";
  if (/^Test failed:|is failing for/.test(text)) return "unreadable";
  return null;
}
