// Vite's `import.meta.glob` (transformed at build time by vitest), typed for the one use in
// test/health-freshness.test.ts without pulling in all of vite/client's module declarations.
interface ImportMeta {
  glob(pattern: string, options: { query: "?raw"; import: "default"; eager: true }): Record<string, string>;
}
