import { templates } from "./emulator/data/templates.ts";
import type { TemplateName } from "./emulator/model.ts";
import type { PageExamples } from "./slack/page/routes.ts";

/**
 * What the sandbox page suggests in a workspace connected to a demo organization: its first
 * user, test and collection, as the emulator seeds them, so the chips name only that
 * organization's ids.
 */
export function sandboxExamples(name: TemplateName): PageExamples {
  const t = templates[name];
  const [user, test, collection] = [t.users[0], t.tests[0], t.collections[0]];
  if (!user || !test) throw new Error(`the ${name} template has no user or test`);
  return {
    email: user.userEmail,
    testId: test.id,
    ...(collection ? { collectionId: collection.id, path: collection.shortenedPath } : {}),
  };
}
