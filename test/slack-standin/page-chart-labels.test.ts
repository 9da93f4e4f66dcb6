import { describe, expect, it } from "vitest";
import { xLabelIndexes } from "../../dev/slack/page/charts.js";

// The sandbox page's charts (page/charts.js) draw x-axis labels that never run into each
// other, as Slack's do: a test alert's run chart has 20 runs named "#10086"…

const STEP_20 = (560 - 44 - 12) / 20;
const runs = Array.from({ length: 20 }, (_, i) => `#${10070 + i}`);

/** The drawn labels' extents, by the same width estimate, must leave room between them. */
function overlaps(labels: string[], shown: number[], step: number) {
  const half = (i: number) => ((labels[i] ?? "").length * 6.3) / 2;
  return shown.slice(1).some((i, k) => {
    const prev = shown[k] as number;
    return (i - prev) * step < half(i) + half(prev);
  });
}

describe("the sandbox page's chart x-axis labels", () => {
  it("never draws two run labels of a 20-run chart next to each other, and always the newest", () => {
    const shown = xLabelIndexes(runs, STEP_20);
    expect(shown.at(-1)).toBe(19);
    expect(shown).not.toContain(18);
    expect(overlaps(runs, shown, STEP_20)).toBe(false);
    const gaps = shown.slice(1).map((i, k) => i - (shown[k] as number));
    expect(new Set(gaps).size).toBe(1);
  });

  it("draws every label when they fit, as two weeks of day labels do", () => {
    const days = ["Nov 10", "Nov 11", "Nov 12", "Nov 13", "Nov 14", "Nov 15"];
    expect(xLabelIndexes(days, 504 / days.length)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it("thins long labels further than short ones, so 20-character labels never overlap either", () => {
    const long = Array.from({ length: 20 }, (_, i) => `Checkout flow ${String(i).padStart(6, "0")}`);
    const shown = xLabelIndexes(long, STEP_20);
    expect(overlaps(long, shown, STEP_20)).toBe(false);
    expect(shown.length).toBeLessThan(xLabelIndexes(runs, STEP_20).length);
  });
});
