import { mentionToken } from "../model/mention.ts";

/** A mention as the option that sets it, for a change's "old → new" (a name: the reply is ephemeral). */
export function mentionOption(mention: string | null | undefined): string[] {
  const token = mentionToken(mention);
  return token ? [`mention:${token}`] : [];
}

/** Names stay this short in list and status, so one huge name never crowds out the others. */
export const NAME_CHARS = 300;
