import type { TestRun } from "../decipher/types.ts";
import type { ImpactResult } from "./production-impact.ts";
import type { TestClassification } from "./test-classification.ts";

/** What a new failure means, read only when there is one: never on an idle poll. */
export type FailureContext = {
  /** The test's runs of the last 24 h (one page), newest included. */
  history: TestRun[];
  /**
   * The test's latest runs whatever their age, for the strip of the last 10 runs (a test that
   * runs a few times a day has fewer than 10 in 24 h); absent when `history` holds enough.
   */
  recent?: TestRun[];
  classification: TestClassification;
  /** Production sessions on the test's `page:`, when it names one. */
  impact: ImpactResult | null;
};
