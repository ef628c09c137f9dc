// npm run test:cluster: the tests of e2e/cluster, which start their own cluster (PostgreSQL primary and
// replica, two app instances, HAProxy) on free ports and stop it at the end.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // server-only as outside Next: a no-op (lib/server-only.ts; tsconfig.json maps it for tsx and Playwright).
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)), "server-only": fileURLToPath(new URL("lib/server-only.ts", import.meta.url)) } },
  test: {
    include: ["e2e/cluster/**/*.test.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 90_000,
    hookTimeout: 600_000,
    sequence: { concurrent: false },
    // Each file starts a cluster of its own: one at a time.
    fileParallelism: false,
  },
});
