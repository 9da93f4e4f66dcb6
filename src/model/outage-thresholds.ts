/**
 * An outage: this many of a channel's tests failing in one cycle, or this share of them (at
 * least `atLeast`). While one of the tests it named still fails, and for `quietMs` after the
 * last of them passed again, the outage is open: a test of the channel that fails meanwhile (a
 * bad deploy reaches each test at its own schedule; a recovered system flares up again) joins
 * its message instead of alerting alone or opening a second outage message. Never longer than
 * `openForMs` after it was posted: an outage of hours is a new event after the first.
 * Imported as a namespace (`import * as OUTAGE`), as src/model/classify-thresholds.ts is.
 */
export const tests = 3;
export const share = 0.8;
export const atLeast = 2;
export const openForMs = 60 * 60_000;
export const quietMs = 10 * 60_000;
