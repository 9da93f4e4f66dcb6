import type {
  Authorize,
  AuthorizeErrorHandler,
  AuthorizeResult,
  BlockAction,
  BlockActionAckHandler,
  BlockActionLazyHandler,
  BlockElementActions,
  BlockElementTypes,
  BlockSuggestionAckHandler,
  EventLazyHandler,
  ExecutionContext,
  GlobalShortcutAckHandler,
  GlobalShortcutLazyHandler,
  MessageShortcutAckHandler,
  MessageShortcutLazyHandler,
  Middleware,
  PreAuthorizeMiddleware,
  PreAuthorizeSlackMiddlewareRequest,
  SlackAPIClient,
  SlackEdgeAppEnv,
  SlackRequestWithOptionalRespond,
  SlashCommandAckHandler,
  SlashCommandLazyHandler,
  SourceSpecifiedBlockActionAckHandler,
  SourceSpecifiedBlockActionLazyHandler,
  StringOrRegExp,
  SupportedEventType,
  ViewClosedAckHandler,
  ViewClosedLazyHandler,
  ViewSubmissionAckHandler,
  ViewSubmissionLazyHandler,
} from "slack-edge";
// slack-edge's modules one by one, not its index: the index (CommonJS, so nothing is
// tree-shaken) brings its SlackApp, OAuth, OpenID Connect, Socket Mode and assistant code
// into the bundle, none of which runs here (docs/architecture.md, "Each dependency, and why"). The same for its Web API
// client's package, slack-web-api-client.
import { builtBaseContext } from "slack-edge/dist/context/context.js";
import { ignoringSelfEvents, urlVerification } from "slack-edge/dist/middleware/built-in-middleware.js";
import { toCompleteResponse } from "slack-edge/dist/response/response.js";
import { ResponseUrlSender } from "slack-web-api-client/dist/client/webhook-client.js";
import { createSlackClient, type SlackClient } from "../slack-api/slack-client.ts";

type Env = SlackEdgeAppEnv;
/** slack-edge's own type for a parsed request body (any JSON object). */
type Body = PreAuthorizeSlackMiddlewareRequest<Env>["body"];
/** A request as the listeners receive it; each listener's own type narrows the payload. */
type Request = PreAuthorizeSlackMiddlewareRequest<Env> & { payload: unknown };
type Ack = (req: never) => Promise<unknown>;
/** A lazy half may return nothing when the request needs no work after the ack (see #run). */
type Lazy = (req: never) => Promise<void> | undefined;
/** A command's lazy half, which may have nothing to do for some of its subcommands. */
type SlashCommandLater = (
  ...args: Parameters<SlashCommandLazyHandler<Env>>
) => ReturnType<SlashCommandLazyHandler<Env>> | undefined;
type Listener = { matches: (body: Body) => boolean; ack: Ack; lazy?: Lazy | undefined };
type Kind =
  | "command"
  | "event"
  | "shortcut"
  | "message_action"
  | "block_actions"
  | "block_suggestion"
  | "view";

/** A request of any kind as a listener sees it: its payload, the context after authorize. */
export type AnyRequest = SlackRequestWithOptionalRespond<Env, Record<string, unknown>>;

/** A parsed signed request, as src/handlers/slack-edge.ts hands it over (it parsed the body already). */
export type ParsedRequest = { body: Body; rawBody: string; headers: Headers };

const named = (pattern: StringOrRegExp, name: unknown) =>
  typeof name === "string" && (typeof pattern === "string" ? name === pattern : pattern.test(name));

/** What the app is built with: slack-edge's `SlackAppOptions`, for the parts the bot sets. */
export type LeanSlackAppOptions = {
  env: Env;
  authorize: Authorize<Env>;
  authorizeErrorHandler: AuthorizeErrorHandler<Env>;
  /** Where `context.client` calls the Web API (the bot's `SLACK_API_URL`). */
  slackApiUrl: string;
};

/**
 * slack-edge's `SlackApp` registration API and handler types, dispatching the way slack-edge
 * 1.3 does (its built-in middleware; first matching listener; every matching one for events;
 * the ack first, then the lazy half through `waitUntil`; block_suggestion without a lazy half)
 * but without the two Web API clients slack-edge builds for every request's context: here
 * `context.client` and `context.say` share one of the bot's own (src/slack-api/slack-client.ts),
 * built when a listener first touches them (the bot's listeners use the isolate's client,
 * src/wiring.ts). slack-edge's clients bind some 280 methods each, and building two was a
 * third of an ack's CPU (BENCHMARKS.md, "The Slack edge").
 * It also takes the body already parsed, and logs nothing: slack-edge logs a payload no
 * listener takes, which may hold a `response_url` or what someone typed. Only the listener
 * kinds the bot uses can be registered. It does not extend slack-edge's class, whose module
 * brings Socket Mode and the assistant into the bundle with it.
 */
/** Slack's event that one of the bot's own posts landed: caused by the bot, and wanted. */
function exceptOwnPostsLanding<E extends Env>(dropSelf: Middleware<E>): Middleware<E> {
  return (req) => {
    const event = (req.body as { event?: { type?: unknown } }).event;
    return event?.type === "message_metadata_posted" ? Promise.resolve(undefined) : dropSelf(req);
  };
}

export class LeanSlackApp {
  readonly env: Env;
  readonly authorize: Authorize<Env>;
  readonly authorizeErrorHandler: AuthorizeErrorHandler<Env>;
  readonly #slackApiUrl: string;
  /**
   * slack-edge's defaults: answer `url_verification`; drop events the bot caused itself, but
   * for the one it wants: its own post landing (src/handlers/events/post-landed.ts).
   */
  readonly preAuthorizeMiddleware: PreAuthorizeMiddleware<Env>[] = [urlVerification];
  readonly postAuthorizeMiddleware: Middleware<Env>[] = [exceptOwnPostsLanding(ignoringSelfEvents(true))];
  readonly eventsToSkipAuthorize = ["app_uninstalled", "tokens_revoked"];
  readonly #listeners: Record<Kind, Listener[]> = {
    command: [],
    event: [],
    shortcut: [],
    message_action: [],
    block_actions: [],
    block_suggestion: [],
    view: [],
  };
  /** Listeners that take a request before any other, when they apply to it (src/handlers/outsiders.ts). */
  readonly #first: {
    applies: (req: AnyRequest) => boolean | Promise<boolean>;
    ack: Ack;
    lazy?: Lazy | undefined;
  }[] = [];

  constructor(options: LeanSlackAppOptions) {
    this.env = options.env;
    this.authorize = options.authorize;
    this.authorizeErrorHandler = options.authorizeErrorHandler;
    this.#slackApiUrl = options.slackApiUrl;
  }

  #add(kind: Kind, listener: Listener): this {
    this.#listeners[kind].push(listener);
    return this;
  }

  command(
    pattern: StringOrRegExp,
    ack: SlashCommandAckHandler<Env>,
    lazy?: SlashCommandLazyHandler<Env> | SlashCommandLater,
  ) {
    return this.#add("command", { matches: (b) => !b.type && named(pattern, b.command), ack, lazy });
  }

  event<Type extends SupportedEventType>(event: Type, lazy: EventLazyHandler<Type, Env>) {
    return this.#add("event", { matches: (b) => b.event?.type === event, ack: async () => "", lazy });
  }

  globalShortcut(
    callbackId: StringOrRegExp,
    ack: GlobalShortcutAckHandler<Env>,
    lazy?: GlobalShortcutLazyHandler<Env>,
  ) {
    return this.#add("shortcut", { matches: (b) => named(callbackId, b.callback_id), ack, lazy });
  }

  messageShortcut(
    callbackId: StringOrRegExp,
    ack: MessageShortcutAckHandler<Env>,
    lazy?: MessageShortcutLazyHandler<Env>,
  ) {
    return this.#add("message_action", { matches: (b) => named(callbackId, b.callback_id), ack, lazy });
  }

  action<
    T extends BlockElementTypes,
    A extends BlockAction<Extract<BlockElementActions, { type: T }>> = BlockAction<
      Extract<BlockElementActions, { type: T }>
    >,
  >(
    constraints: StringOrRegExp | { type: T; block_id?: string; action_id: string },
    ack: BlockActionAckHandler<T, Env, A> | SourceSpecifiedBlockActionAckHandler<Env, A>,
    lazy?: BlockActionLazyHandler<T, Env, A> | SourceSpecifiedBlockActionLazyHandler<Env, A>,
  ) {
    const matches = (b: Body) => {
      const action = b.actions?.[0];
      if (!action) return false;
      if (typeof constraints === "string" || constraints instanceof RegExp)
        return named(constraints, action.action_id);
      return (
        action.type === constraints.type &&
        action.action_id === constraints.action_id &&
        (!constraints.block_id || action.block_id === constraints.block_id)
      );
    };
    return this.#add("block_actions", { matches, ack, lazy });
  }

  options(
    constraints: StringOrRegExp | { block_id?: string; action_id: string },
    ack: BlockSuggestionAckHandler<Env>,
  ) {
    const matches = (b: Body) =>
      typeof constraints === "string" || constraints instanceof RegExp
        ? named(constraints, b.action_id)
        : b.action_id === constraints.action_id && (!b.block_id || b.block_id === constraints.block_id);
    return this.#add("block_suggestion", { matches, ack });
  }

  viewSubmission(
    callbackId: StringOrRegExp,
    ack: ViewSubmissionAckHandler<Env>,
    lazy?: ViewSubmissionLazyHandler<Env>,
  ) {
    const matches = (b: Body) => b.type === "view_submission" && named(callbackId, b.view?.callback_id);
    return this.#add("view", { matches, ack, lazy });
  }

  /**
   * A listener for every kind of request (command, event, click, view) that `applies` picks,
   * ahead of the listeners registered for it: a rule that holds for all of them (who may use
   * the app at all) is written once. Its `req.payload` is what the kind's listeners would get.
   * They are asked in the order they were added; the first that applies answers.
   */
  first(
    applies: (req: AnyRequest) => boolean | Promise<boolean>,
    ack: (req: AnyRequest) => Promise<unknown>,
    lazy?: (req: AnyRequest) => Promise<void> | undefined,
  ) {
    this.#first.push({ applies, ack: ack as Ack, lazy: lazy as Lazy | undefined });
    return this;
  }

  viewClosed(callbackId: StringOrRegExp, ack: ViewClosedAckHandler<Env>, lazy?: ViewClosedLazyHandler<Env>) {
    const matches = (b: Body) => b.type === "view_closed" && named(callbackId, b.view?.callback_id);
    return this.#add("view", { matches, ack, lazy });
  }

  /** One request, signed and parsed: middleware, authorize, then the first matching listener. */
  async dispatch({ body, rawBody, headers }: ParsedRequest, ctx: ExecutionContext): Promise<Response> {
    const retry = headers.get("x-slack-retry-num");
    const pre: PreAuthorizeSlackMiddlewareRequest<Env> = {
      body,
      rawBody,
      ...(retry ? { retryNum: Number.parseInt(retry, 10) } : {}),
      retryReason: headers.get("x-slack-retry-reason") ?? body.retry_reason,
      context: builtBaseContext(body),
      env: this.env,
      headers,
    };
    for (const middleware of this.preAuthorizeMiddleware) {
      const response = await middleware(pre);
      if (response) return toCompleteResponse(response);
    }
    let authorizeResult: AuthorizeResult;
    try {
      authorizeResult = await this.#authorize(pre);
    } catch (error) {
      if (!(error instanceof Error && error.name === "AuthorizeError")) throw error;
      const answer = await this.authorizeErrorHandler({ request: pre, error: error as never });
      if (answer instanceof Response) return answer;
      throw answer;
    }
    const req = { ...pre, context: this.#context(pre, authorizeResult) };
    for (const middleware of this.postAuthorizeMiddleware) {
      const response = await middleware(req);
      if (response) return toCompleteResponse(response);
    }
    return this.#run(body, req, ctx);
  }

  async #run(body: Body, base: PreAuthorizeSlackMiddlewareRequest<Env>, ctx: ExecutionContext) {
    const kind = kindOf(body);
    const req = { ...base, payload: kind === "event" ? body.event : body } as Request;
    for (const first of this.#first)
      if (await first.applies(req as unknown as AnyRequest)) return this.#answer(first, req, ctx);
    if (kind === "event") {
      const listeners = this.#listeners.event.filter((l) => l.matches(body));
      for (const l of listeners) await l.ack(req as never);
      for (const l of listeners) {
        const later = l.lazy?.(req as never);
        if (later) ctx.waitUntil(later);
      }
      return toCompleteResponse("");
    }
    // The first match only: the other listeners' matchers need not run.
    const listener = kind ? this.#listeners[kind].find((l) => l.matches(body)) : undefined;
    if (!listener) return new Response("No listener found", { status: 404 });
    return this.#answer(listener, req, ctx);
  }

  async #answer(listener: { ack: Ack; lazy?: Lazy | undefined }, req: Request, ctx: ExecutionContext) {
    const answer = await listener.ack(req as never);
    // No waitUntil when the lazy half has nothing to do: each one keeps the request open after
    // its response, for workerd to wind down later (BENCHMARKS.md, "The Slack edge").
    const later = listener.lazy?.(req as never);
    if (later) ctx.waitUntil(later);
    return toCompleteResponse(answer as Parameters<typeof toCompleteResponse>[0]);
  }

  /** slack-edge's rule: token revocations and uninstalls need no token to be handled. */
  async #authorize(req: PreAuthorizeSlackMiddlewareRequest<Env>): Promise<AuthorizeResult> {
    if (req.body.type === "event_callback" && this.eventsToSkipAuthorize.includes(req.body.event?.type)) {
      const c = req.context;
      return {
        enterpriseId: c.actorEnterpriseId,
        teamId: c.actorTeamId,
        team: c.actorTeamId,
        botId: c.botId || "N/A",
        botUserId: c.botUserId || "N/A",
        botToken: "N/A",
        botScopes: [],
        userId: c.actorUserId,
        user: c.actorUserId,
        userToken: "N/A",
        userScopes: [],
      };
    }
    return this.authorize(req);
  }

  /** slack-edge's context, with its Web API client (and `say`'s) built on first use only. */
  #context(pre: PreAuthorizeSlackMiddlewareRequest<Env>, authorizeResult: AuthorizeResult) {
    const token = pre.context.functionBotAccessToken || authorizeResult.botToken;
    const slackApiUrl = this.#slackApiUrl;
    let client: SlackClient | undefined;
    const context = {
      ...pre.context,
      authorizeResult,
      botToken: authorizeResult.botToken,
      botId: authorizeResult.botId,
      botUserId: authorizeResult.botUserId,
      userToken: authorizeResult.userToken,
      // slack-edge's type for it; the bot's client answers all of it but the file uploads.
      get client(): SlackAPIClient {
        client ??= createSlackClient({ slackBotToken: token, slackApiUrl });
        return client as unknown as SlackAPIClient;
      },
    };
    const { channelId, threadTs, responseUrl } = pre.context;
    return Object.assign(
      context,
      channelId
        ? {
            say: (params: object) =>
              context.client.chat.postMessage({
                channel: channelId,
                thread_ts: threadTs,
                ...params,
              } as never),
          }
        : {},
      responseUrl
        ? { respond: (params: object) => new ResponseUrlSender(responseUrl).call(params as never) }
        : {},
    );
  }
}

/** Which listeners a body is for, by slack-edge's reading of it (none: no listener). */
function kindOf(body: Body): Kind | null {
  switch (body.type) {
    case "event_callback":
      return body.event ? "event" : null;
    case "shortcut":
      return body.callback_id ? "shortcut" : null;
    case "message_action":
      return body.callback_id ? "message_action" : null;
    case "block_actions":
      return body.actions?.[0] ? "block_actions" : null;
    case "block_suggestion":
      return body.action_id ? "block_suggestion" : null;
    case "view_submission":
    case "view_closed":
      return body.view ? "view" : null;
    case undefined:
      return body.command ? "command" : null;
    default:
      return null;
  }
}
