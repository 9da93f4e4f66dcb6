import { type MessageBlock, truncatePlain } from "./limits.ts";
import {
  altBlockId,
  type DataVisualizationBlock,
  type RichBlock,
  type SeriesChart,
  type TableBlock,
  type TableCell,
  type TableColumn,
} from "./rich-blocks.ts";

/**
 * Constructors for charts and tables, and the pairing with their text alternative
 * (`rich-blocks.ts`). Builders pass plain arrays; `fitMessage` clamps what Slack would refuse.
 */

export type SeriesSpec = {
  /** The block's id: names the chart, and pairs it with its text alternative. */
  id: string;
  title: string;
  type: SeriesChart["type"];
  categories: readonly string[];
  /** One value per category, in the categories' order. */
  series: readonly { name: string; values: readonly number[] }[];
  xLabel?: string;
  yLabel?: string;
};

/** A bar, line or area chart; null when there is nothing to draw. */
export function seriesChart(spec: SeriesSpec): DataVisualizationBlock | null {
  const series = spec.series
    .filter((s) => s.values.length === spec.categories.length)
    .map((s) => ({
      name: s.name,
      data: spec.categories.map((label, i) => ({ label, value: s.values[i] as number })),
    }));
  if (spec.categories.length === 0 || series.length === 0) return null;
  return {
    type: "data_visualization",
    block_id: spec.id,
    title: spec.title,
    chart: {
      type: spec.type,
      series,
      axis_config: {
        categories: [...spec.categories],
        ...(spec.xLabel ? { x_label: spec.xLabel } : {}),
        ...(spec.yLabel ? { y_label: spec.yLabel } : {}),
      },
    },
  };
}

export const textCell = (text: string): TableCell => ({ type: "raw_text", text });

export const linkCell = (url: string, text: string): TableCell => ({
  type: "rich_text",
  elements: [{ type: "rich_text_section", elements: [{ type: "link", url, text }] }],
});

/** A table whose first row is `header`; null without rows. */
export function table(
  id: string,
  header: readonly string[],
  rows: readonly TableCell[][],
  columns?: readonly TableColumn[],
): TableBlock | null {
  if (rows.length === 0) return null;
  return {
    type: "table",
    block_id: id,
    rows: [header.map(textCell), ...rows],
    ...(columns ? { column_settings: [...columns] } : {}),
  };
}

/**
 * A rich block followed by what says the same in text, marked as its alternative: the
 * message carries both and the poster sends one (`forRichClients` / `withoutRichBlocks`).
 * Without a rich block (nothing to draw), the text is all there is.
 */
export function withAlternative(
  rich: RichBlock | null,
  alternative: readonly MessageBlock[],
): MessageBlock[] {
  if (!rich?.block_id) return [...alternative];
  const id = rich.block_id;
  return [rich, ...alternative.map((block, i) => ({ ...block, block_id: altBlockId(id, i) }))];
}

const BARS = "▁▂▃▄▅▆▇█";

/** Values as a one-line bar graph in text ("▁▃▆█"), for where a chart cannot be shown. */
export function sparkline(values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return "";
  const min = Math.min(0, ...finite);
  const max = Math.max(...finite);
  return values
    .map((v) => {
      if (!Number.isFinite(v)) return " ";
      if (max === min) return BARS[0];
      return BARS[Math.round(((v - min) / (max - min)) * (BARS.length - 1))];
    })
    .join("");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `2026-03-04` → `Mar 4`: a short category label for a local date. */
export function dayLabel(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return truncatePlain(date, 20);
  return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${Number(m[3])}`;
}
