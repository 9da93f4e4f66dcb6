/**
 * The bot scopes the manifest asks for (slack/manifest.yml), each with its reason there: asked
 * for at install, and what the doctor expects a token to have. Apart from src/config.ts so the
 * Slack stand-in (dev/slack/workspaces.ts) can grant them without the Worker's types.
 */
export const INSTALL_SCOPES =
  "commands,chat:write,chat:write.public,links:read,links:write,app_mentions:read,channels:read,groups:read,metadata.message:read,channels:history,groups:history,channels:join,users:read,im:history,assistant:write";
