import { CommandInputError } from "../model/command-input-error.ts";
import { type Mention, parseMention } from "../model/mention.ts";

/**
 * The `name:value` options after `/decipher subscribe <kind> <id>`, read the same way for every
 * kind (each kind's parsers are in its folder). Pure: tokens in, typed options out, or a
 * `CommandInputError` that names the option at fault and shows the usage, so nothing is stored
 * from a command the bot only half understood.
 */

/** A person's token, quoted back short: the reply is theirs to read, not an echo of a paste. */
export const quote = (raw: string, max = 60) => `\`${raw.slice(0, max).replace(/`/g, "ˋ")}\``;

export type Parsed<T> = { [K in keyof T]: (value: string, token: string) => T[K] };

/** `mention:` reads the same on tests and collections; only the usage it points to differs. */
export function parseMentionOption(value: string, token: string, usage: string): Mention {
  const mention = parseMention(value);
  if (mention) return mention;
  // "@oncall" typed out reaches the bot as text: Slack sends a mention only when it was picked.
  if (/^@[\w.-]+$/.test(value) && !/^@(here|channel|everyone)$/i.test(value))
    throw new CommandInputError(
      `${quote(value)} reached me as plain text, not as a mention: Slack sends a person or a group only when you pick them from the list that opens as you type \`@\`. Type \`mention:@\`, pick ${quote(value)} from that list, then send. ${usage}`,
    );
  throw bad(
    token,
    "`mention:` takes one person or one user group: type `mention:@` and pick them from Slack's list (Slack then sends it as `<@U…>` or `<!subteam^S…>`); `@here`, `@channel` and channels are not taken",
    usage,
  );
}

export function bad(token: string, what: string, usage: string): CommandInputError {
  return new CommandInputError(`${quote(token)} is not a value I can use: ${what}. ${usage}`);
}

/** The options a command names (each checked by `parseOptions`), lower case: what it changes. */
export const optionNames = (tokens: readonly string[]): string[] =>
  tokens.map((token) => token.split(":", 1)[0]?.toLowerCase() ?? "");

/**
 * Reads `name:value` tokens with `parsers`, starting from `defaults`. An option given twice,
 * one without a value, or one the kind does not have is refused, naming it.
 */
export function parseOptions<T extends object>(
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
    // `after:default`: the option as a new subscription has it (resubscribing keeps the rest).
    out[key] = value.toLowerCase() === "default" ? defaults[key] : parsers[key](value, token);
  }
  return out;
}
