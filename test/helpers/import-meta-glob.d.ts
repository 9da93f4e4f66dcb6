// Vite's `import.meta.glob` (transformed at build time by vitest), typed for its uses in
// test/health-freshness.test.ts and test/docs/docs-match-code.test.ts without pulling in all of
// vite/client's module declarations: files as text, or (without options) only their paths.
interface ImportMeta {
  glob(
    pattern: string | string[],
    options: { query: "?raw"; import: "default"; eager: true },
  ): Record<string, string>;
  glob(pattern: string | string[]): Record<string, () => Promise<unknown>>;
}
