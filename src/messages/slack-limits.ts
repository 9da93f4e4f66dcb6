/**
 * Slack's Block Kit limits (docs/architecture.md "Platform limits"). Slack rejects the *whole* message
 * (`invalid_blocks`) when one value breaks one of them, so every builder ends in `fitMessage`
 * (src/messages/limits.ts).
 * Lengths are counted in UTF-16 code units, which is never less than Slack's character count.
 *
 * Imported as a namespace (`import * as SLACK_LIMITS`): each limit is a constant of its own,
 * which the bundler writes in place of `SLACK_LIMITS.<name>`.
 */
export const blocksPerMessage = 50;
/** Top-level `text`: Slack truncates at 40k, but notifications and fallbacks stay readable at 4k. */
export const messageText = 4000;
export const sectionText = 3000;
export const sectionFields = 10;
export const fieldText = 2000;
export const headerText = 150;
export const contextElements = 10;
/** Slack allows 3000 per text object; context is meant to be small print. */
export const contextText = 2000;
export const actionsElements = 25;
export const buttonText = 75;
export const buttonValue = 2000;
export const url = 3000;
export const actionId = 255;
export const blockId = 255;
/** A select option's label and value, and the confirm dialog's parts. */
export const optionText = 75;
export const optionValue = 150;
export const placeholder = 150;
export const altText = 2000;
export const confirmTitle = 100;
export const confirmText = 300;
export const confirmButton = 30;
/** `data_visualization` (Slack's Block Kit reference): title, at most 2 charts a message. */
export const chartTitle = 50;
export const chartsPerMessage = 2;
/** Series of a bar, line or area chart, each with a name of at most 20 characters. */
export const chartSeries = 6;
/** Data points per series (one per x-axis category); their labels and categories ≤ 20. */
export const chartPoints = 20;
export const chartLabel = 20;
/** `x_label` / `y_label`. */
export const chartAxisLabel = 50;
/** Slices of a pie; each value must be above 0. */
export const pieSegments = 6;
/** `table`: one a message, at most 100 rows of at most 20 cells, 20 column settings. */
export const tablesPerMessage = 1;
export const tableRows = 100;
export const tableCells = 20;
export const tableColumnSettings = 20;
