// What the composer offers as chips, for the workspace the page shows. The ids and the user
// come from that workspace's own Decipher organization (GET /__sandbox/config): a workspace
// nobody registered examples for gets commands that need no id, never another's tests. The
// Decipher link is one the bot unfurls here: its DECIPHER_APP_URL (in the sandbox, the
// emulator's web-app pages), whose host is the app's unfurl domain.

/**
 * @param {string | null} appUrl
 * @param {{ email: string, testId: number, collectionId?: number, path?: string } | null} examples
 * @returns {string[]}
 */
export function suggestions(appUrl, examples) {
  const app = appUrl ? appUrl.replace(/\/+$/, "") : null;
  if (!examples) return ["/decipher help", "/decipher list", "/decipher status", "@Decipher help"];
  return [
    `/sessions ${examples.email}`,
    `@Decipher sessions ${examples.email}`,
    ...(app ? [`${app}/tests/${examples.testId}`] : []),
    ...(examples.path ? [`/sessions url:${examples.path} since:7d`] : []),
    "/decipher list",
    "/decipher status",
    `/decipher subscribe test ${examples.testId}`,
    ...(examples.collectionId ? [`/decipher subscribe collection ${examples.collectionId}`] : []),
    "/decipher help",
  ];
}

/** The composer's placeholder, with the workspace's own example user when it has one. */
export function composerPlaceholder(examples) {
  return `Message, Decipher link, @Decipher help, or a slash command: ${
    examples ? `/sessions ${examples.email}` : "/decipher help"
  }`;
}
