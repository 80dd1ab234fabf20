import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The client bundle has no HTML entry: the prerender step (web/scripts/prerender.mjs) writes
// every document from the manifest. The operator's dashboard (`--mode admin`) is a bundle of its
// own, so that sharing code with it can never reshape the site's chunks. The service worker
// (`--mode sw`) is one classic script, which the prerender step completes and writes as /sw.js.
export default defineConfig(({ isSsrBuild, mode }) => ({
  root: 'web',
  plugins: [react()],
  build: mode === 'sw' ? serviceWorkerBuild : {
    outDir: isSsrBuild ? 'build/server' : mode === 'admin' ? 'build/admin' : 'build/client',
    emptyOutDir: true,
    manifest: !isSsrBuild,
    assetsDir: 'assets',
    rolldownOptions: isSsrBuild
      ? {}
      : mode === 'admin'
        ? { input: 'web/src/app/entry-admin.tsx' }
        : {
          input: 'web/src/app/entry-client.tsx',
          // A feature's page chunk carries the feature's name (area-1a2b3c.js), not "page".
          output: {
            chunkFileNames: (chunk) => {
              const feature = /\/features\/([^/]+)\/page\.tsx$/.exec(chunk.facadeModuleId ?? '')?.[1];
              return `assets/${feature ?? '[name]'}-[hash].js`;
            },
          },
        },
  },
  // Module workers can split their code: the flipper's worker loads the lossless JPEG
  // transform only when a JPEG is saved as JPEG.
  worker: { format: 'es' },
  test: {
    root: '.',
    include: ['web/src/**/*.test.{ts,tsx}', 'web/test/**/*.test.{ts,tsx}'],
    // Failure bounds, not durations (no test asserts how long it took): Vitest's 5 s default
    // failed the lossless JPEG tests once while other jobs kept both cores busy, where `make
    // test` must pass too.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
}));

/** The service worker: a single classic script (a module worker is not yet everywhere). */
const serviceWorkerBuild = {
  outDir: 'build/sw',
  emptyOutDir: true,
  copyPublicDir: false,
  lib: { entry: 'src/features/pwa/sw.ts', formats: ['iife' as const], name: 'handyServiceWorker', fileName: () => 'sw.js' },
};
