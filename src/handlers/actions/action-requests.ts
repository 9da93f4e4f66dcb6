import type {
  BlockAction,
  ButtonAction,
  SlackEdgeAppEnv,
  SlackRequestWithOptionalRespond,
  StaticSelectAction,
} from "slack-edge";

export type ButtonRequest = SlackRequestWithOptionalRespond<SlackEdgeAppEnv, BlockAction<ButtonAction>>;
export type SelectRequest = SlackRequestWithOptionalRespond<SlackEdgeAppEnv, BlockAction<StaticSelectAction>>;

/**
 * A listener pair in slack-edge's shape: `ack` answers within 3 s, `lazy` runs after it
 * (waitUntil). Factories take their deps and close over them.
 */
export type Listener<R> = {
  ack: (req: R) => Promise<void>;
  lazy: (req: R) => Promise<void>;
};

export const noAck = async () => {};

export function clickedValue(req: ButtonRequest): string | undefined {
  return req.payload.actions[0]?.value;
}

export function selectedValue(req: SelectRequest): string | undefined {
  return req.payload.actions[0]?.selected_option?.value;
}
