import type { TestRun } from "../vendor/types.ts";
import type { ImpactResult } from "./production-impact.ts";
import type { TestClassification } from "./test-classification.ts";

/** What a new failure means, read only when there is one: never on an idle poll. */
export type FailureContext = {
  /** The test's runs of the last 24 h (one page), newest included. */
  history: TestRun[];
  classification: TestClassification;
  /** Production sessions on the test's `page:`, when it names one. */
  impact: ImpactResult | null;
};
