// Dev-only harness: `npx vite --config packages/web/src/visualizations/dev/vite.config.ts`.
// Not part of the main build.
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  plugins: [react()],
  server: { port: 5190, strictPort: true },
  build: {
    outDir: fileURLToPath(
      new URL("../../../../../node_modules/.cache/viz-gallery", import.meta.url),
    ),
    emptyOutDir: true,
    rollupOptions: { input: `${root}gallery.html` },
  },
});
