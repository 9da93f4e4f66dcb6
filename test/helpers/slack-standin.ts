import { standInUrl } from "../../dev/in-workerd/bot.ts";

/** A `response_url` on the stand-in that it never minted: it answers 404, like an expired one. */
export const unknownResponseUrl = `${standInUrl}/response/never-minted`;
