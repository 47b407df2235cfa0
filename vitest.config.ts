import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Build and host tests spawn real processes (tsx, Deno, SIGKILL); give them room on 2 cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
