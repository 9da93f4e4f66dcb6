import type { BlockAction, ButtonAction, SlackEdgeAppEnv, SlackRequestWithOptionalRespond } from "slack-edge";
import type { Deps } from "../../deps.ts";

export type ButtonRequest = SlackRequestWithOptionalRespond<SlackEdgeAppEnv, BlockAction<ButtonAction>>;

/** A button's handlers: `ack` must answer within 3 s, `lazy` runs after it (waitUntil). */
export type ButtonHandler = {
  ack: (req: ButtonRequest, deps: Deps) => Promise<void>;
  lazy: (req: ButtonRequest, deps: Deps) => Promise<void>;
};

export const noAck = async () => {};

export function clickedValue(req: ButtonRequest): string | undefined {
  return req.payload.actions[0]?.value;
}
