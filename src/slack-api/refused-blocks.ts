import { isRichBlock } from "../messages/rich-blocks.ts";

type SentBlock = { type: string; block_id?: string | undefined };

/**
 * What a refusal of blocks (`invalid_blocks`) says of the charts and tables sent, read from
 * Slack's detail lines ("[ERROR] must be less than 51 characters [json-pointer:/blocks/3/title]",
 * "[ERROR] only one table block allowed [json-pointer:/blocks]").
 */
export type RefusedBlocks = {
  /** Block types the workspace does not take (Slack rolls new blocks out in phases): remembered. */
  types: ReadonlySet<string>;
  /** `block_id`s of rich blocks refused for their content: left out of this message only. */
  content: ReadonlySet<string>;
};

const TYPE_REFUSAL = /unsupported type|invalid block type|unknown block type/i;
const BLOCK_POINTER = /\[json-pointer:\/blocks\/(\d+)(?:\/[^\]]*)?\]/;
const MESSAGE_POINTER = /\[json-pointer:\/blocks\]/;
/** Slack's per-message limits of a type: "only one table block allowed", "no more than 2 … blocks allowed". */
const PER_MESSAGE = /(?:only one|no more than (\d+)) (\w+) blocks? allowed/;

/**
 * The rich blocks a refusal concerns, or null when it concerns something else (a block that is
 * not a chart or a table, a line not understood): then no one block is to blame, and the
 * caller leaves every chart and table out. No detail at all is taken as a refusal of the types
 * sent, as Slack answers a type it does not have (or did before it gave details).
 */
export function refusedBlocks(
  sent: readonly SentBlock[],
  detail: readonly string[] | undefined,
): RefusedBlocks | null {
  const rich = sent.filter(isRichBlock);
  if (rich.length === 0) return null;
  if (!detail || detail.length === 0) return { types: new Set(rich.map((b) => b.type)), content: new Set() };
  const types = new Set<string>();
  const content = new Set<string>();
  for (const line of detail) {
    const named = blamed(sent, line);
    if (!named) return null;
    for (const block of named) {
      if (TYPE_REFUSAL.test(line)) types.add(block.type);
      else if (block.block_id) content.add(block.block_id);
      else return null;
    }
  }
  return { types, content };
}

/** The rich blocks one detail line blames, or null when it blames anything else. */
function blamed(sent: readonly SentBlock[], line: string): SentBlock[] | null {
  const at = BLOCK_POINTER.exec(line);
  if (at) {
    const block = sent[Number(at[1])];
    return block && isRichBlock(block) ? [block] : null;
  }
  const limit = MESSAGE_POINTER.test(line) ? PER_MESSAGE.exec(line) : null;
  if (!limit) return null;
  const max = limit[1] ? Number(limit[1]) : 1;
  const ofType = sent.filter((b) => b.type === limit[2] && isRichBlock(b));
  // Those past the limit; all of them when the count was not what Slack objected to.
  const extra = ofType.slice(max);
  return extra.length > 0 ? extra : ofType.length > 0 ? ofType : null;
}
