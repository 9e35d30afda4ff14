import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: many end-to-end files spawn servers and processes of their own.
    maxWorkers: 2,
  },
});
