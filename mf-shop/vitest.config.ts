import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineProject({
  plugins: [react()],
  test: { name: 'mf-shop', environment: 'happy-dom', include: ['src/**/*.test.{ts,tsx}'], setupFiles: ['./src/test-setup.ts'], testTimeout: 20_000 },
});
