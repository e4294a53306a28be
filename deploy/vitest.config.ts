import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: 'deploy', environment: 'node', include: ['*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
