/** Add to Slack's pages: plain HTML, no scripts, every dynamic value escaped. */
export const INSTALL_PATH = "/slack/install";
export const OAUTH_REDIRECT_PATH = "/slack/oauth_redirect";

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1d1c1d}a.button{display:inline-block;padding:.6rem 1.2rem;border-radius:6px;background:#4a154b;color:#fff;text-decoration:none;font-weight:600}ol{padding-left:1.2rem}code{background:#f4f4f4;padding:0 .2rem}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function startPage(authorizeUrl: string): string {
  return page(
    "Add Decipher to Slack",
    `<p>Decipher posts alerts for failing browser tests and growing issues into your channels, and answers <code>/sessions</code> and <code>/decipher</code>.</p>
<p><a class="button" id="add-to-slack" href="${escapeHtml(authorizeUrl)}">Add to Slack</a></p>
<p>Slack asks you to choose a workspace and approve the permissions. Afterwards you connect your Decipher organization in the app's Home tab.</p>
<p>Org-wide (Enterprise Grid) installs are not supported: install into each workspace.</p>`,
  );
}

export function successPage(input: {
  teamName: string | null;
  teamId: string;
  appId: string;
  first: boolean;
}): string {
  const team = input.teamName ?? input.teamId;
  const home = `https://slack.com/app_redirect?app=${encodeURIComponent(input.appId)}&team=${encodeURIComponent(input.teamId)}&tab=home`;
  return page(
    input.first ? `Decipher is installed in ${team}` : `Decipher is updated in ${team}`,
    `<p>What to do next:</p>
<ol>
<li>Open the <a href="${escapeHtml(home)}">Decipher app's Home tab</a> in Slack.</li>
<li>Click <b>Connect Decipher</b> and paste an API key from Decipher (Settings → API keys). Only whoever installed the app, or a workspace admin, can do this.</li>
<li>In a channel, type <code>/decipher subscribe test &lt;test id&gt;</code>, or <code>/decipher help</code>.</li>
</ol>`,
  );
}

export function failurePage(reason: string): string {
  return page(
    "Decipher was not installed",
    `<p>${escapeHtml(reason)}</p><p><a class="button" href="${INSTALL_PATH}">Start again</a></p>`,
  );
}

export const STATE_REFUSED =
  "This install link has expired or was already used (each one works once, for 10 minutes). Start again from Add to Slack.";
