import { type Mention, parseMention } from "../../model/mention.ts";
import { DEFAULT_TEST_OPTIONS, type ResolvedTestOptions } from "../../model/subscription.ts";
import { CommandInputError } from "./parse-error.ts";

/**
 * The `name:value` options after `/decipher subscribe test|collection <id>`. Pure: tokens in,
 * typed options out, or a `CommandInputError` that names the option at fault and shows the
 * usage, so nothing is stored from a command the bot only half understood.
 */

export type CollectionOptions = {
  /** Sessions of growth that alert; null = the default (+5 or +50 %, whichever is smaller). */
  growth: number | null;
  /** Who a new alert pings (src/model/mention.ts); null = nobody. */
  mention: Mention | null;
};

export const TEST_OPTIONS_USAGE =
  "Options: `flaky:thread|digest|alert` `after:<1–20 failed runs>` `trigger:<word>` `page:</path>` `mention:@person|@group`, " +
  "like `subscribe test 101 flaky:digest after:2 trigger:schedule page:/checkout mention:@oncall`.";

export const COLLECTION_OPTIONS_USAGE =
  "Options: `growth:<sessions>` `mention:@person|@group`, like `subscribe collection 501 growth:10 mention:@oncall`.";

export const TRIGGER_MAX = 64;
export const PAGE_MAX = 200;
export const AFTER_MAX = 20;

/** A person's token, quoted back short: the reply is theirs to read, not an echo of a paste. */
const quote = (raw: string, max = 60) => `\`${raw.slice(0, max).replace(/`/g, "ˋ")}\``;

type Parsed<T> = { [K in keyof T]: (value: string, token: string) => T[K] };

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

/** `mention:` reads the same on tests and collections; only the usage it points to differs. */
function parseMentionOption(value: string, token: string, usage: string): Mention {
  const mention = parseMention(value);
  if (mention) return mention;
  throw bad(
    token,
    "`mention:` takes one person or one user group: type `mention:@` and pick them from Slack's list (Slack then sends it as `<@U…>` or `<!subteam^S…>`); `@here`, `@channel` and channels are not taken",
    usage,
  );
}

const collectionParsers: Parsed<CollectionOptions> = {
  growth(value, token) {
    const n = /^\d{1,6}$/.test(value) ? Number(value) : 0;
    if (n >= 1) return n;
    throw bad(token, "`growth:` takes a number of sessions, at least 1", COLLECTION_OPTIONS_USAGE);
  },
  mention: (value, token) => parseMentionOption(value, token, COLLECTION_OPTIONS_USAGE),
};

function bad(token: string, what: string, usage: string): CommandInputError {
  return new CommandInputError(`${quote(token)} is not a value I can use: ${what}. ${usage}`);
}

/**
 * Reads `name:value` tokens with `parsers`, starting from `defaults`. An option given twice,
 * one without a value, or one the kind does not have is refused, naming it.
 */
function parseOptions<T extends object>(
  tokens: readonly string[],
  defaults: Readonly<T>,
  parsers: Parsed<T>,
  subject: string,
  usage: string,
): T {
  const out = { ...defaults } as T;
  const seen = new Set<string>();
  for (const token of tokens) {
    const colon = token.indexOf(":");
    const name = (colon > 0 ? token.slice(0, colon) : token).toLowerCase();
    const value = colon > 0 ? token.slice(colon + 1) : "";
    if (!Object.hasOwn(parsers, name))
      throw new CommandInputError(`${quote(token)} is not an option of \`${subject}\`. ${usage}`);
    if (seen.has(name)) throw new CommandInputError(`\`${name}:\` is given twice: keep one. ${usage}`);
    seen.add(name);
    if (value === "") throw new CommandInputError(`\`${name}:\` needs a value. ${usage}`);
    const key = name as keyof T;
    out[key] = parsers[key](value, token);
  }
  return out;
}

/** `flaky:… after:… trigger:… page:…` after `subscribe test <id>`; defaults for what is not given. */
export function parseTestOptions(tokens: readonly string[]): ResolvedTestOptions {
  return parseOptions(tokens, DEFAULT_TEST_OPTIONS, testParsers, "subscribe test", TEST_OPTIONS_USAGE);
}

/** `growth:<sessions> mention:…` after `subscribe collection <id>`. */
export function parseCollectionOptions(tokens: readonly string[]): CollectionOptions {
  return parseOptions(
    tokens,
    { growth: null, mention: null },
    collectionParsers,
    "subscribe collection",
    COLLECTION_OPTIONS_USAGE,
  );
}
