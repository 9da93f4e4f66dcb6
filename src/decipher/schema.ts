/**
 * Valibot schemas for every Decipher response, so API drift fails loudly at the boundary
 * instead of as `undefined` deep inside a Block Kit builder. `v.object` drops unknown keys
 * (tolerated, not kept). Fields types.ts marks nullable also accept absence, because the
 * vendor does not say whether it omits or nulls them.
 */
import * as v from "valibot";
import type {
  Click,
  CollectionSession,
  CollectionSessionList,
  IssueCollection,
  SessionClicks,
  SessionList,
  SessionSummary,
  SessionTimeline,
  TestRun,
  TestRunList,
  TimelineBody,
  VendorErrorBody,
} from "./types.ts";

/** `T | null`, with an absent key read as null. */
const nullish = <S extends v.GenericSchema>(schema: S) => v.optional(v.nullable(schema), null);
const int = v.pipe(v.number(), v.integer());
const str = v.string();

const listFields = {
  object: v.literal("list"),
  hasMore: v.boolean(),
  nextCursor: nullish(str),
};

const testRun = v.object({
  object: v.literal("testRun"),
  id: int,
  testId: int,
  status: v.picklist(["passed", "failed", "running"]),
  startTime: str,
  endTime: nullish(str),
  durationMs: nullish(v.number()),
  triggeredBy: str,
  createdAt: str,
  summary: nullish(
    v.object({
      oneLineSummary: str,
      firstFailedStepNumber: nullish(int),
    }),
  ),
  totalSteps: int,
  failedSteps: int,
});

/**
 * The run list with its items left unchecked: each run is checked on its own
 * (`testRunSchema`), so one run the bot cannot read (a status it does not know, a null
 * time) is set aside instead of failing the whole page and, with it, every later alert.
 */
export const testRunPageSchema = v.object({
  ...listFields,
  data: v.array(v.unknown()),
  test: v.object({ id: int, name: str, url: str }),
});

export const testRunSchema = testRun;

export const testRunListSchema = v.object({
  ...listFields,
  data: v.array(testRun),
  test: v.object({ id: int, name: str, url: str }),
});

const sessionFields = {
  object: v.literal("session"),
  id: str,
  url: str,
  createdAt: str,
  duration: nullish(v.number()),
  userEmail: nullish(str),
  userId: nullish(str),
  userAccount: nullish(str),
  browser: nullish(str),
  device: nullish(str),
  countryCode: nullish(str),
  hasTimeline: v.boolean(),
};

const sessionSummary = v.object(sessionFields);

export const sessionListSchema = v.object({ ...listFields, data: v.array(sessionSummary) });

const timelineFields = {
  overview: str,
  tags: v.array(v.object({ tag: str, reasoning: str })),
  pages: v.array(
    v.object({
      page: str,
      startTime: v.number(),
      endTime: v.number(),
      clickCount: int,
      featuresUsed: v.array(str),
      activities: v.array(
        v.object({ startTime: str, endTime: str, summary: str, userAction: str, userBehavior: str }),
      ),
    }),
  ),
  loadingIssues: v.array(
    v.object({
      description: str,
      longDescription: str,
      durationInSeconds: v.number(),
      timestamp: v.number(),
    }),
  ),
};

const timelineBody = v.object(timelineFields);

export const sessionTimelineSchema = v.object({
  ...timelineFields,
  object: v.literal("sessionTimeline"),
  sessionId: str,
});

const click = v.object({
  id: int,
  type: str,
  timestamp: v.number(),
  clickCount: int,
  navigationTo: nullish(str),
  screenshots: nullish(v.object({ before: nullish(str), after: nullish(str) })),
  clickText: v.optional(v.nullable(str)),
  clickTag: v.optional(v.nullable(str)),
  clickCssClass: v.optional(v.nullable(str)),
});

export const sessionClicksSchema = v.object({
  object: v.literal("sessionClicks"),
  sessionId: str,
  data: v.array(click),
  screenshotsExpiresAt: nullish(str),
});

const issueCollection = v.object({
  id: int,
  type: str,
  rootCause: str,
  shortenedPath: str,
  createdAt: str,
  isResolved: v.boolean(),
  errorCount: int,
  sessionCount: int,
  estimatedUsers: int,
});

const collectionSession = v.object({
  ...sessionFields,
  userUsername: nullish(str),
  userPlan: nullish(str),
  userRole: nullish(str),
  representativeIssue: nullish(
    v.object({
      errorId: str,
      latestIssueAt: str,
      shortenedPath: str,
      fullPath: str,
      aiSummary: nullish(
        v.object({ category: str, behavior: str, productFeature: str, errorText: str, reasoning: str }),
      ),
    }),
  ),
  timeline: v.optional(timelineBody),
  clicks: v.optional(v.array(click)),
  errorScreenshots: v.optional(v.nullable(v.object({ main: nullish(str), after: nullish(str) }))),
});

export const collectionSessionListSchema = v.object({
  ...listFields,
  collection: issueCollection,
  data: v.array(collectionSession),
  includes: v.array(v.picklist(["timeline", "clicks", "screenshots"])),
  window: v.object({ since: str, until: str }),
  screenshotsExpiresAt: nullish(str),
});

/** Lenient on purpose: an error body that does not fit still yields an error, just a vaguer one. */
export const errorBodySchema = v.object({
  error: v.object({
    type: str,
    code: v.optional(v.nullable(str)),
    message: v.optional(v.nullable(str)),
    field: v.optional(v.nullable(str)),
  }),
});

// Compile-time proof that each schema's output is exactly the shared type in types.ts:
// a field added to one side only breaks `tsc`.
type Deep<T> = T extends (infer U)[] ? Deep<U>[] : T extends object ? { [K in keyof T]: Deep<T[K]> } : T;
type Equals<A, B> =
  (<X>() => X extends Deep<A> ? 1 : 2) extends <X>() => X extends Deep<B> ? 1 : 2 ? true : false;
type Assert<T extends true> = T;
type Out<S extends v.GenericSchema> = v.InferOutput<S>;

export type SchemaMatchesTypes = [
  Assert<Equals<Out<typeof testRun>, TestRun>>,
  Assert<Equals<Out<typeof testRunListSchema>, TestRunList>>,
  Assert<Equals<Out<typeof sessionSummary>, SessionSummary>>,
  Assert<Equals<Out<typeof sessionListSchema>, SessionList>>,
  Assert<Equals<Out<typeof timelineBody>, TimelineBody>>,
  Assert<Equals<Out<typeof sessionTimelineSchema>, SessionTimeline>>,
  Assert<Equals<Out<typeof click>, Click>>,
  Assert<Equals<Out<typeof sessionClicksSchema>, SessionClicks>>,
  Assert<Equals<Out<typeof issueCollection>, IssueCollection>>,
  Assert<Equals<Out<typeof collectionSession>, CollectionSession>>,
  Assert<Equals<Out<typeof collectionSessionListSchema>, CollectionSessionList>>,
  Assert<Equals<Out<typeof errorBodySchema>["error"]["type"], VendorErrorBody["error"]["type"]>>,
];
