import { wellFormed } from "./mrkdwn.ts";

/** Links into the Decipher web app (docs/decipher-api.md, "Hosts and authentication"). `appUrl` has no trailing slash. */

const base = (appUrl: string) => appUrl.replace(/\/+$/, "");
// encodeURIComponent throws on a lone surrogate: vendor ids are not trusted to be well formed.
const seg = (id: string | number) => encodeURIComponent(wellFormed(String(id)));

export const sessionUrl = (appUrl: string, sessionId: string) => `${base(appUrl)}/sessions/${seg(sessionId)}`;

export const testUrl = (appUrl: string, testId: number) => `${base(appUrl)}/tests/${seg(testId)}`;

export const runUrl = (appUrl: string, testId: number, runId: number) =>
  `${base(appUrl)}/tests/${seg(testId)}/runs/${seg(runId)}`;

/** The web app's page of an issue collection, after the API's own path (docs/decipher-api.md). */
export const collectionUrl = (appUrl: string, collectionId: number) =>
  `${base(appUrl)}/monitoring/issue-collections/${seg(collectionId)}`;
