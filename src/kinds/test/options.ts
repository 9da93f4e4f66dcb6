import {
  DEFAULT_TEST_OPTIONS,
  type ResolvedTestOptions,
  resolveTestOptions,
  type TestSubscription,
} from "../../model/subscription.ts";
import { bad, type Parsed, parseMentionOption, parseOptions } from "../option-reader.ts";

export const TEST_OPTIONS_USAGE =
  "Options: `flaky:thread|digest|alert` `after:<1–20 failed runs>` `trigger:<word>` `page:</path>` `mention:@person|@group`, " +
  "like `subscribe test 101 flaky:digest after:2 trigger:schedule page:/checkout mention:@oncall`.";

export const TRIGGER_MAX = 64;
export const PAGE_MAX = 200;
export const AFTER_MAX = 20;

const FLAKY_MODES: readonly ResolvedTestOptions["flaky"][] = ["thread", "digest", "alert"];

const testParsers: Parsed<ResolvedTestOptions> = {
  flaky(value, token) {
    const mode = value.toLowerCase() as ResolvedTestOptions["flaky"];
    if (FLAKY_MODES.includes(mode)) return mode;
    throw bad(
      token,
      "`flaky:` says where failures of a flaky test go: `thread`, `digest` or `alert`",
      TEST_OPTIONS_USAGE,
    );
  },
  after(value, token) {
    const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
    if (n >= 1 && n <= AFTER_MAX) return n;
    throw bad(
      token,
      `\`after:\` takes a number of failed runs in a row from 1 to ${AFTER_MAX}`,
      TEST_OPTIONS_USAGE,
    );
  },
  trigger(value, token) {
    if (new RegExp(`^[A-Za-z0-9._-]{1,${TRIGGER_MAX}}$`).test(value)) return value;
    throw bad(
      token,
      `\`trigger:\` takes one word of letters, digits, \`-\`, \`_\` or \`.\` (at most ${TRIGGER_MAX}), like \`trigger:schedule\``,
      TEST_OPTIONS_USAGE,
    );
  },
  page(value, token) {
    // Slack sends `&` as `&amp;` in command text; a query string is part of a path here.
    const path = value.replace(/&amp;/g, "&");
    if (path.startsWith("/") && path.length <= PAGE_MAX && /^[^\s<>|`\\\p{Cc}]+$/u.test(path)) return path;
    throw bad(
      token,
      `\`page:\` takes a path of the production site starting with \`/\` (at most ${PAGE_MAX} characters, no spaces), like \`page:/checkout\``,
      TEST_OPTIONS_USAGE,
    );
  },
  mention: (value, token) => parseMentionOption(value, token, TEST_OPTIONS_USAGE),
};

/** `flaky:… after:… trigger:… page:…` after `subscribe test <id>`; defaults for what is not given. */
export function parseTestOptions(tokens: readonly string[]): ResolvedTestOptions {
  return parseOptions(tokens, DEFAULT_TEST_OPTIONS, testParsers, "subscribe test", TEST_OPTIONS_USAGE);
}

/** What a test's options fill in `/decipher subscribe test`: every option, resolved. */
export type TestOptionsGiven = { options: ResolvedTestOptions };

/** A test's options in its spec (src/kinds/kind-options.ts). */
export const testOptions = {
  parseOptions: (tokens: readonly string[]): TestOptionsGiven => ({ options: parseTestOptions(tokens) }),
  optionsOf: (sub: TestSubscription): TestOptionsGiven => ({ options: resolveTestOptions(sub.options) }),
  changedOptions: (
    sub: TestSubscription,
    given: TestOptionsGiven,
    names: readonly string[],
  ): TestOptionsGiven => {
    const named = Object.entries(given.options).filter(([name]) => names.includes(name));
    return { options: { ...resolveTestOptions(sub.options), ...Object.fromEntries(named) } };
  },
  sameOptions: (sub: TestSubscription, given: TestOptionsGiven) =>
    JSON.stringify(resolveTestOptions(sub.options)) === JSON.stringify(given.options),
};
