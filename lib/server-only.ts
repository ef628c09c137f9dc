// What `import "server-only"` resolves to outside Next: server.ts under tsx, the scripts, Playwright and
// vitest (tsconfig.json "paths", vitest.config.ts alias). Inside Next's bundles Next's own alias wins:
// an empty module on the server, and in a client component a build error naming the import chain. So a
// module that must never reach the browser says so with `import "server-only"` and still runs everywhere.
export {};
