import type { Block } from "./standin-types.ts";

// Web API requests arrive form-encoded (what slack-web-api-client sends, with blocks as a JSON
// string), as JSON, or as a GET query. Slack takes the token from `Authorization: Bearer` or,
// for form and query requests only, a `token` field.

export type Params = Record<string, unknown>;

export type ApiRequest = { token: string | undefined; params: Params };

/** Fields whose form value is JSON text; decoded for the call log and validation. */
const JSON_FIELDS = ["blocks", "attachments", "metadata", "unfurls", "view", "prompts"] as const;

export async function readApiRequest(req: Request): Promise<ApiRequest> {
  const bearer = req.headers.get("authorization")?.match(/^Bearer\s+(\S+)$/i)?.[1];
  const type = req.headers.get("content-type") ?? "";
  let params: Params = {};
  let bodyToken: string | undefined;
  if (req.method === "GET") {
    params = Object.fromEntries(new URL(req.url).searchParams);
    bodyToken = stringParam(params, "token");
  } else if (type.includes("application/json")) {
    const parsed: unknown = await req.json().catch(() => ({}));
    params =
      typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Params) : {};
  } else {
    params = Object.fromEntries(new URLSearchParams(await req.text()));
    bodyToken = stringParam(params, "token");
  }
  const { token: _dropped, ...rest } = params;
  return { token: bearer ?? bodyToken, params: rest };
}

/** The params as a test wants to read them: JSON-valued form fields decoded, no token. */
export function loggableParams(params: Params): Params {
  const out: Params = { ...params };
  delete out.token;
  for (const key of JSON_FIELDS) {
    const value = out[key];
    if (typeof value === "string") {
      try {
        out[key] = JSON.parse(value);
      } catch {
        // Leave malformed JSON as sent; the method answers invalid_blocks_format.
      }
    }
  }
  return out;
}

export function stringParam(params: Params, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  return typeof value === "string" ? value : String(value);
}

export function boolParam(params: Params, key: string): boolean {
  const value = params[key];
  return value === true || value === "true" || value === "1" || value === 1;
}

export type BlocksParam =
  | { ok: true; blocks: Block[] | undefined }
  | { ok: false; error: "invalid_blocks_format" };

/** Slack answers `invalid_blocks_format` when blocks is not JSON or not an array of objects. */
export function blocksParam(params: Params): BlocksParam {
  let value = params.blocks;
  if (value === undefined || value === null || value === "") return { ok: true, blocks: undefined };
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return { ok: false, error: "invalid_blocks_format" };
    }
  }
  if (!Array.isArray(value)) return { ok: false, error: "invalid_blocks_format" };
  return { ok: true, blocks: value as Block[] };
}
