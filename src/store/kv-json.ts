/** Error in the bot's own stored state (unreadable JSON, wrong shape). */
export class StateError extends Error {
  override readonly name = "StateError";
  readonly key: string;
  constructor(key: string, message: string) {
    super(`stored state at ${key} is unreadable: ${message}`);
    this.key = key;
  }
}

/**
 * Reads a JSON value. A corrupt value throws rather than reading as missing, so a caller can
 * never "fix" it by overwriting a subscription it could not read.
 */
export async function readJson<T>(kv: KVNamespace, key: string, isValid: (value: unknown) => value is T) {
  const raw = await kv.get(key, "text");
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new StateError(key, "not JSON");
  }
  if (!isValid(value)) throw new StateError(key, "unexpected shape");
  return value;
}

export async function writeJson(
  kv: KVNamespace,
  key: string,
  value: unknown,
  options?: KVNamespacePutOptions,
) {
  await kv.put(key, JSON.stringify(value), options);
}

export { isRecord } from "../util/checks.ts";
