// What `npm run setup` writes (tools/setup.ts): pure text edits of wrangler.toml and the Slack
// app manifest, so a rerun gives the same files and a test can check them without a deploy.

/** The KV id the repository ships with: wrangler rejects it only at a real deploy. */
const PLACEHOLDER_KV_ID = /^id = "0{32}"\n/m;

/**
 * wrangler.toml without the placeholder KV id. The pinned wrangler provisions a binding that has
 * no id at deploy (it creates `<worker>-state` once, then reuses the deployed Worker's binding),
 * so nobody pastes an id.
 */
export function withoutPlaceholderKvId(toml: string): string {
  return toml.replace(PLACEHOLDER_KV_ID, "");
}

/** wrangler.toml with `name = "value"` under [vars]: a var the next deploy keeps (keep_vars is off). */
export function withVar(toml: string, name: string, value: string): string {
  const line = `${name} = ${JSON.stringify(value)}`;
  const existing = new RegExp(`^${name} = .*$`, "m");
  if (existing.test(toml)) return toml.replace(existing, line);
  if (!/^\[vars\]$/m.test(toml)) return `${toml.trimEnd()}\n\n[vars]\n${line}\n`;
  return toml.replace(/^\[vars\]$/m, `[vars]\n${line}`);
}

/** The value of a var in wrangler.toml, or "" when it is not there. */
export function varOf(toml: string, name: string): string {
  const m = new RegExp(`^${name} = ("(?:[^"\\\\]|\\\\.)*")`, "m").exec(toml);
  return m ? (JSON.parse(m[1] as string) as string) : "";
}

type Yaml = string | boolean | Yaml[] | { [key: string]: Yaml };
type Line = { indent: number; text: string };

function scalar(text: string): Yaml {
  if (text.startsWith('"')) return JSON.parse(text) as string;
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/**
 * Reads slack/manifest.yml's shape of YAML (block mappings and lists, plain or double-quoted
 * scalars, whole-line comments): enough to hand Slack the same manifest as JSON, with no
 * YAML dependency. Anything else throws rather than guess.
 */
export function parseManifestYaml(text: string): Yaml {
  const lines: Line[] = text
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"))
    .map((l) => ({ indent: l.length - l.trimStart().length, text: l.trim() }));
  const [value, next] = block(lines, 0, 0);
  if (next !== lines.length) throw new Error(`manifest: unexpected line "${lines[next]?.text}"`);
  return value;
}

function block(lines: Line[], at: number, indent: number): [Yaml, number] {
  return lines[at]?.text.startsWith("- ") ? list(lines, at, indent) : mapping(lines, at, indent);
}

function list(lines: Line[], at: number, indent: number): [Yaml, number] {
  const items: Yaml[] = [];
  let i = at;
  while (lines[i]?.indent === indent && lines[i]?.text.startsWith("- ")) {
    const rest = (lines[i] as Line).text.slice(2).trim();
    if (/^[\w-]+:(\s|$)/.test(rest)) {
      lines[i] = { indent: indent + 2, text: rest };
      const [item, next] = mapping(lines, i, indent + 2);
      items.push(item);
      i = next;
    } else {
      items.push(scalar(rest));
      i++;
    }
  }
  return [items, i];
}

function mapping(lines: Line[], at: number, indent: number): [Yaml, number] {
  const out: Record<string, Yaml> = {};
  let i = at;
  while (lines[i]?.indent === indent) {
    const m = /^([\w-]+):\s*(.*)$/.exec((lines[i] as Line).text);
    if (!m) throw new Error(`manifest: cannot read "${lines[i]?.text}"`);
    const [, key, rest] = m as unknown as [string, string, string];
    if (rest !== "") {
      out[key] = scalar(rest);
      i++;
    } else {
      const child = lines[i + 1];
      if (!child || child.indent <= indent) throw new Error(`manifest: "${key}" has no value`);
      const [value, next] = block(lines, i + 1, child.indent);
      out[key] = value;
      i = next;
    }
  }
  return [out, i];
}

const PLACEHOLDER_ORIGIN = "https://YOUR-WORKER.workers.dev";

/**
 * slack/manifest.yml as the JSON to paste at "Create New App → From an app manifest", every
 * URL on `workerUrl`, and the app's own id under metadata_subscriptions once it is known.
 */
export function filledManifest(yml: string, workerUrl: string, appId: string | null): string {
  const origin = new URL(workerUrl).origin;
  let text = yml.replaceAll(PLACEHOLDER_ORIGIN, origin);
  if (appId) text = text.replace(/\bapp_id: YOUR_APP_ID\b/, `app_id: ${appId}`);
  return `${JSON.stringify(parseManifestYaml(text), null, 2)}\n`;
}
