/** The shape every Web API method of the stand-in has: its context in, Slack's JSON body out. */
import type { Params } from "./api-params.ts";
import type { Workspace } from "./workspaces.ts";

export type MethodContext = { ws: Workspace; params: Params; nextTs: () => string };
export type MethodBody = { ok: boolean; [key: string]: unknown };
export type Method = (ctx: MethodContext) => MethodBody;
