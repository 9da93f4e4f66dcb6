/**
 * Slack's chart (`data_visualization`) and `table` blocks, typed here and only here, from
 * Slack's Block Kit reference (docs.slack.dev/reference/block-kit/blocks/data-visualization-block
 * and …/table-block); their limits are in `limits.ts`. Our own types rather than
 * slack-edge's re-exported ones: those leave `axis_config` and `categories` optional, which
 * Slack requires.
 *
 * Slack rolls new blocks out to workspaces in phases, so every one of these travels with its
 * *alternative*: ordinary blocks saying the same in text, marked with the rich block's
 * `block_id`. A workspace that shows charts gets the chart (`forRichClients`); one that
 * refuses it gets the same message with the alternative instead (`withoutRichBlocks`).
 * Nothing is lost either way.
 */

export type ChartPoint = { label: string; value: number };
export type ChartSeries = { name: string; data: ChartPoint[] };
/** `categories` are the x-axis labels in order; every series has one point per category. */
export type ChartAxes = { categories: string[]; x_label?: string; y_label?: string };
export type SeriesChart = { type: "bar" | "line" | "area"; series: ChartSeries[]; axis_config: ChartAxes };
export type PieChart = { type: "pie"; segments: ChartPoint[] };

export type DataVisualizationBlock = {
  type: "data_visualization";
  block_id?: string;
  title: string;
  chart: SeriesChart | PieChart;
};

export type TableTextCell = { type: "raw_text"; text: string };
export type TableRichCell = {
  type: "rich_text";
  elements: {
    type: "rich_text_section";
    elements: ({ type: "link"; url: string; text: string } | { type: "text"; text: string })[];
  }[];
};
export type TableCell = TableTextCell | TableRichCell;
export type TableColumn = { align?: "left" | "center" | "right"; is_wrapped?: boolean };

export type TableBlock = {
  type: "table";
  block_id?: string;
  /** The first row is the header. */
  rows: TableCell[][];
  column_settings?: TableColumn[];
};

export type RichBlock = DataVisualizationBlock | TableBlock;

export const RICH_BLOCK_TYPES: ReadonlySet<string> = new Set(["data_visualization", "table"]);

type AnyBlock = { type: string; block_id?: string | undefined };

export const isRichBlock = (block: AnyBlock): boolean => RICH_BLOCK_TYPES.has(block.type);

const ALT = "~alt";

/** The `block_id` of the i-th alternative block of the rich block `richId`. */
export const altBlockId = (richId: string, i: number) => `${richId}${ALT}${i}`;

/** The rich block an alternative stands in for, or null for any other block. */
export function altFor(block: AnyBlock): string | null {
  const id = block.block_id;
  const at = id ? id.lastIndexOf(ALT) : -1;
  return id && at > 0 ? id.slice(0, at) : null;
}

export function hasRichBlocks(message: { blocks: readonly AnyBlock[] }): boolean {
  return message.blocks.some(isRichBlock);
}

/**
 * As sent where only the rich blocks `show` picks are shown: each of those without its
 * alternative, every other one by its alternative alone.
 */
export function showingRich<M extends { blocks: readonly AnyBlock[] }>(
  message: M,
  show: (block: AnyBlock) => boolean,
): M {
  const shown = new Set(
    message.blocks.filter((b) => isRichBlock(b) && show(b)).flatMap((b) => (b.block_id ? [b.block_id] : [])),
  );
  return {
    ...message,
    blocks: message.blocks.filter((b) => {
      if (isRichBlock(b)) return show(b);
      const partner = altFor(b);
      return partner === null || !shown.has(partner);
    }),
  };
}

/** As sent where Slack shows these blocks: each rich block without its alternative. */
export const forRichClients = <M extends { blocks: readonly AnyBlock[] }>(message: M): M =>
  showingRich(message, () => true);

/** As sent where Slack refuses them: the alternatives, no rich block. */
export const withoutRichBlocks = <M extends { blocks: readonly AnyBlock[] }>(message: M): M =>
  showingRich(message, () => false);

const NOUNS: Record<string, [one: string, many: string]> = {
  data_visualization: ["a chart", "charts"],
  table: ["a table", "tables"],
};

/**
 * "(a chart was left out: Slack refused it)": said in a message whose chart or table Slack
 * refused for its content, so a reader knows the lines below stand in for it.
 */
export function leftOutNote(types: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const type of types) counts.set(type, (counts.get(type) ?? 0) + 1);
  const parts = [...counts].map(([type, n]) => {
    const [one, many] = NOUNS[type] ?? ["a block", "blocks"];
    return n === 1 ? one : `${n} ${many}`;
  });
  const plural = types.length > 1;
  return `(${parts.join(" and ")} ${plural ? "were" : "was"} left out: Slack refused ${plural ? "them" : "it"})`;
}
