/**
 * The reason a test gives when it aborts a Durable Object on purpose. workerd reports every
 * abort as an "uncaught exception" on stderr; test/setup/quiet-on-purpose.ts keeps the ones
 * carrying this mark out of the test output, so any other such line there is a real failure.
 */
export const ON_PURPOSE = "aborted on purpose by a test";

/** `state.abort(onPurpose("a crash right after the post"))`. */
export const onPurpose = (what: string) => `${ON_PURPOSE}: ${what}`;
