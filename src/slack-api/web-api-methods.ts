import type { SlackAPIClient } from "slack-edge";
import type { SlackAPIResponse } from "slack-web-api-client/dist/client/response.js";

/** One Web API call by its method's name ("chat.postMessage"), token and parameters included. */
export type WebApiCall = (method: string, params?: Record<string, unknown>) => Promise<SlackAPIResponse>;

/**
 * slack-web-api-client's `SlackAPIClient` as far as it is plain Web API calls: every method by
 * its path (`client.chat.postMessage(p)`), typed by the library's own request and response
 * types, and `call` by name. Its file uploads are not: they send multipart bodies.
 */
export type SlackClient = Omit<SlackAPIClient, "call" | "retryHandlers" | "files"> & {
  call: WebApiCall;
  files: Omit<SlackAPIClient["files"], "upload" | "uploadV2">;
};

/**
 * Names the language itself looks up on an object (awaiting or returning it from an async
 * function, `JSON.stringify`): no Web API method has them, and answering them would call Slack.
 */
const NOT_METHODS = new Set(["then", "toJSON"]);
const isMethodName = (key: string | symbol): key is string =>
  typeof key === "string" && !NOT_METHODS.has(key);

/**
 * The library builds an object of bound functions for each of Slack's some 280 methods per
 * client; this answers the same paths on demand.
 */
export function webApiMethods(call: WebApiCall): SlackClient {
  const at = (path: string): unknown =>
    new Proxy(() => {}, {
      get: (_, key) => (isMethodName(key) ? at(`${path}.${key}`) : undefined),
      apply: (_, __, [params]) => call(path, params),
    });
  const root = { call };
  return new Proxy(root, {
    get: (target, key) => (key in target || !isMethodName(key) ? Reflect.get(target, key) : at(key)),
  }) as unknown as SlackClient;
}
