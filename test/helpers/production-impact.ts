import { fitMessage, type SlackMessage } from "../../src/messages/limits.ts";
import {
  type ImpactBlocksInput,
  productionImpactBlocks,
  productionImpactLine,
} from "../../src/messages/production-impact-blocks.ts";

/** The production-impact blocks an alert carries, as a message of their own, so a test can hold them to Slack's limits. */
export function productionImpactMessage(input: ImpactBlocksInput): SlackMessage {
  return fitMessage({ text: productionImpactLine(input.impact), blocks: productionImpactBlocks(input) });
}
