// Slack's data_visualization (charts) and table blocks → DOM, laid out the way Slack shows them:
// a chart is a titled card with its legend above a plot (bars grouped by category, lines with
// dots, areas layered in series order, a pie with its shares); a table is a bordered grid whose
// first row is the header, columns aligned and wrapped as `column_settings` say. Simple SVG.
import { link, safeUrl } from "./mrkdwn.js";

const SVG = "http://www.w3.org/2000/svg";
const PALETTE = ["#1264a3", "#e01e5a", "#2eb67d", "#ecb22e", "#36c5f0", "#7c3085"];
const W = 560;
const H = 220;
const PAD = { left: 44, right: 12, top: 10, bottom: 46 };

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const num = (v) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** A round upper bound for the y axis: 1, 2 or 5 times a power of ten. */
function niceMax(max) {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const short = (v) => (Math.abs(v) >= 1000 ? `${Math.round(v / 100) / 10}k` : String(Math.round(v * 10) / 10));

function legend(names) {
  const row = el("div", "bk-chart-legend");
  names.forEach((name, i) => {
    const item = el("span", "bk-chart-legend-item");
    const swatch = el("span", "bk-chart-swatch");
    swatch.style.background = PALETTE[i % PALETTE.length];
    item.append(swatch, document.createTextNode(String(name)));
    row.append(item);
  });
  return row;
}

/** About how wide a tick label is drawn (10.5 px text, in the plot's own units), with a gap. */
const labelWidth = (label) => String(label).length * 6.3 + 10;

/**
 * Which x-axis labels to draw, `step` apart: every one when they fit, else every n-th counted
 * back from the newest, which is always shown (Slack thins them out the same way). Chosen so
 * no two drawn labels overlap, whatever their length.
 * @param {unknown[]} categories @param {number} step
 * @returns {number[]}
 */
export function xLabelIndexes(categories, step) {
  const widest = Math.max(0, ...categories.map(labelWidth));
  const every = Math.max(1, Math.ceil(widest / Math.max(step, 1)));
  const last = categories.length - 1;
  return categories.map((_, i) => i).filter((i) => (last - i) % every === 0);
}

function seriesPlot(chart) {
  const categories = Array.isArray(chart.axis_config?.categories) ? chart.axis_config.categories : [];
  const series = Array.isArray(chart.series) ? chart.series : [];
  const values = series.map((s) =>
    categories.map((c) => num((s.data ?? []).find((p) => p.label === c)?.value)),
  );
  const max = niceMax(Math.max(0, ...values.flat()));
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v) => PAD.top + plotH - (Math.max(0, v) / max) * plotH;
  const step = categories.length > 0 ? plotW / categories.length : plotW;
  const x = (i) => PAD.left + step * i + step / 2;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "bk-chart-plot", role: "img" });
  for (const tick of [0, max / 2, max]) {
    root.append(
      svg("line", { x1: PAD.left, x2: W - PAD.right, y1: y(tick), y2: y(tick), class: "bk-chart-grid" }),
    );
    root.append(
      svg(
        "text",
        { x: PAD.left - 6, y: y(tick) + 4, "text-anchor": "end", class: "bk-chart-tick" },
        short(tick),
      ),
    );
  }
  const shown = new Set(xLabelIndexes(categories, step));
  categories.forEach((c, i) => {
    if (!shown.has(i)) return;
    root.append(
      svg(
        "text",
        { x: x(i), y: H - PAD.bottom + 16, "text-anchor": "middle", class: "bk-chart-tick" },
        String(c),
      ),
    );
  });
  if (chart.type === "bar") {
    // Bars as wide as a category allows, but not wider than Slack draws them.
    const group = Math.min(step * 0.72, 36 * Math.max(1, series.length));
    const bar = group / Math.max(1, series.length);
    values.forEach((vs, s) => {
      vs.forEach((v, i) => {
        const left = PAD.left + step * i + (step - group) / 2 + bar * s;
        root.append(
          svg("rect", {
            x: left,
            y: y(v),
            width: Math.max(1, bar - 1),
            height: Math.max(0, PAD.top + plotH - y(v)),
            rx: 2,
            fill: PALETTE[s % PALETTE.length],
          }),
        );
      });
    });
  } else {
    values.forEach((vs, s) => {
      const color = PALETTE[s % PALETTE.length];
      const points = vs.map((v, i) => `${x(i)},${y(v)}`).join(" ");
      if (chart.type === "area" && vs.length > 0) {
        const base = `${x(vs.length - 1)},${y(0)} ${x(0)},${y(0)}`;
        root.append(svg("polygon", { points: `${points} ${base}`, fill: color, "fill-opacity": 0.25 }));
      }
      root.append(svg("polyline", { points, fill: "none", stroke: color, "stroke-width": 2 }));
      vs.forEach((v, i) => {
        root.append(svg("circle", { cx: x(i), cy: y(v), r: 3, fill: color }));
      });
    });
  }
  const axes = chart.axis_config ?? {};
  if (axes.x_label)
    root.append(
      svg(
        "text",
        { x: PAD.left + plotW / 2, y: H - 8, "text-anchor": "middle", class: "bk-chart-axis" },
        axes.x_label,
      ),
    );
  if (axes.y_label)
    root.append(
      svg(
        "text",
        {
          x: 12,
          y: PAD.top + plotH / 2,
          "text-anchor": "middle",
          transform: `rotate(-90 12 ${PAD.top + plotH / 2})`,
          class: "bk-chart-axis",
        },
        axes.y_label,
      ),
    );
  return { plot: root, names: series.map((s) => s.name) };
}

function piePlot(chart) {
  const segments = (Array.isArray(chart.segments) ? chart.segments : []).filter((s) => num(s.value) > 0);
  const total = segments.reduce((n, s) => n + num(s.value), 0) || 1;
  const root = svg("svg", { viewBox: "0 0 220 220", class: "bk-chart-pie", role: "img" });
  let angle = -Math.PI / 2;
  segments.forEach((s, i) => {
    const share = num(s.value) / total;
    const end = angle + share * 2 * Math.PI;
    const large = share > 0.5 ? 1 : 0;
    const [x1, y1, x2, y2] = [
      110 + 100 * Math.cos(angle),
      110 + 100 * Math.sin(angle),
      110 + 100 * Math.cos(end),
      110 + 100 * Math.sin(end),
    ];
    const d =
      share >= 1
        ? "M 110 10 A 100 100 0 1 1 109.99 10 Z"
        : `M 110 110 L ${x1} ${y1} A 100 100 0 ${large} 1 ${x2} ${y2} Z`;
    root.append(svg("path", { d, fill: PALETTE[i % PALETTE.length] }));
    angle = end;
  });
  return {
    plot: root,
    names: segments.map((s) => `${s.label} ${Math.round((num(s.value) / total) * 100)} %`),
  };
}

/** A data_visualization block: title, legend, plot. */
export function renderChart(block) {
  const card = el("div", "bk-chart");
  card.dataset.chartType = String(block.chart?.type ?? "");
  card.append(el("div", "bk-chart-title", String(block.title ?? "")));
  const { plot, names } = block.chart?.type === "pie" ? piePlot(block.chart) : seriesPlot(block.chart ?? {});
  card.append(legend(names), plot);
  return card;
}

function cell(content) {
  if (content?.type === "raw_text") return document.createTextNode(String(content.text ?? ""));
  const span = el("span");
  for (const section of content?.elements ?? []) {
    for (const item of section.elements ?? []) {
      const url = item.type === "link" ? safeUrl(String(item.url ?? "")) : null;
      span.append(
        url ? link(url, String(item.text ?? url)) : document.createTextNode(String(item.text ?? "")),
      );
    }
  }
  return span;
}

/** A table block: the first row is the header; `column_settings` align and wrap columns. */
export function renderTable(block) {
  const wrap = el("div", "bk-table-wrap");
  const table = el("table", "bk-table");
  const settings = Array.isArray(block.column_settings) ? block.column_settings : [];
  (block.rows ?? []).forEach((row, r) => {
    const tr = el("tr");
    (row ?? []).forEach((content, c) => {
      const td = el(r === 0 ? "th" : "td");
      const setting = settings[c] ?? {};
      td.style.textAlign = setting.align ?? "left";
      if (!setting.is_wrapped) td.classList.add("bk-nowrap");
      td.append(cell(content));
      tr.append(td);
    });
    table.append(tr);
  });
  wrap.append(table);
  return wrap;
}
