import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // server-only as outside Next: a no-op (lib/server-only.ts; tsconfig.json maps it for tsx and Playwright).
  resolve: { alias: { "@": fileURLToPath(new URL(".", import.meta.url)), "server-only": fileURLToPath(new URL("lib/server-only.ts", import.meta.url)) } },
  test: { include: ["lib/**/*.test.ts", "scripts/**/*.test.ts", "packages/*/src/**/*.test.ts"], environment: "node" },
});
