/**
 * The bundle budget `npm run build` keeps: the deployable bundle (every .js that
 * `wrangler deploy --dry-run --outdir dist` wrote into dist/, which npm's `prebuild` empties),
 * gzipped at level 9 as bench/build.ts measures it, may not grow past BUDGET_GZIP_BYTES.
 * Growing it is a decision: raise the budget in the same commit and say why in BENCHMARKS.md
 * ("The Slack edge: the bundle, by source").
 * Prints the size against the budget; exits 1 over it.
 *   node tools/check-bundle.ts [dist]
 */
import path from "node:path";
import { bundleFiles, sizeOf } from "../bench/build.ts";

/**
 * The build the Slack edge work was measured against (`cb11682`, 99,961 bytes here) and half a
 * per cent: Node's zlib picks its deflate code by CPU, and the same bundle gzips to a slightly
 * different size elsewhere (canonical zlib: 143 bytes smaller); raised by 500 bytes for the
 * fixes of review14 and try14; raised to 107,000 for the Decipher client on ofetch (with ufo
 * and destr, 4.8 KB) and the engine's decisions in meaning; raised to 108,500 for one module
 * per subscription kind (src/kinds/); raised to 114,500 for surviving real Slack (#34), and to
 * 117,500 for the governor (#35) and the tenancy fixes (#36), and to 118,200 for the
 * shared-channel check (#36), and to 118,680 for the deploy checks of #37, and to 121,900 for its doctor and the guest check (#36), and to 127,710 for questions to @Decipher in words (#39), and to 128,100 for a channel's introduction (#36), and to 130,000 for questions in a DM (#39), and to 130,650 for Slack's assistant pane (#39), and to 131,200 for help's examples as buttons (#39), and to 134,010 for the registry's fewer rows (#35), and to 134,460 for the team's clock and the governor's teams (#35). BENCHMARKS.md ("Where the bytes
 * came from") says what each change added.
 */
export const BUDGET_GZIP_BYTES = 134_460;

const dir = path.resolve(process.argv[2] ?? "dist");
const files = bundleFiles(dir);
if (files.length === 0) {
  console.error(`bundle: no .js in ${dir}; run \`npm run build\` first`);
  process.exit(1);
}
const { gzipBytes: gzip, rawBytes: raw } = sizeOf(files);
const n = (v: number) => v.toLocaleString("en-US");
const verdict = gzip <= BUDGET_GZIP_BYTES ? "within" : "OVER";
console.log(
  `bundle: ${n(gzip)} bytes gzip (${n(raw)} raw), ${verdict} the budget of ${n(BUDGET_GZIP_BYTES)} (tools/check-bundle.ts)`,
);
if (gzip > BUDGET_GZIP_BYTES) process.exit(1);
