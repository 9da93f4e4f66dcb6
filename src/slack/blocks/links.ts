/** Links into the Decipher web app (vendor-facts.md "Hosts"). `appUrl` has no trailing slash. */

const base = (appUrl: string) => appUrl.replace(/\/+$/, "");
const seg = (id: string | number) => encodeURIComponent(String(id));

export const sessionUrl = (appUrl: string, sessionId: string) => `${base(appUrl)}/sessions/${seg(sessionId)}`;

export const testUrl = (appUrl: string, testId: number) => `${base(appUrl)}/tests/${seg(testId)}`;

export const runUrl = (appUrl: string, testId: number, runId: number) =>
  `${base(appUrl)}/tests/${seg(testId)}/runs/${seg(runId)}`;
