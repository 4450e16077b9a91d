import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress";

/** Paths the Sightline server answers itself; the dev server passes them on to it. */
const SERVER_PATHS = [
  "/api",
  "/login",
  "/logout",
  "/setup",
  "/ping",
  "/invite",
  "/reset",
  "/forgot",
  "/docs",
];
const SERVER = "http://127.0.0.1:5000";

export default defineConfig({
  plugins: [react(), precompress()],
  base: "/",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // React and the UI kit change less often than the app and every page needs them: keep them
        // in their own cacheable chunks. Other libraries (charts, editor...) stay with the lazily
        // loaded feature that uses them.
        codeSplitting: {
          groups: [
            {
              name: "react",
              test: /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/,
            },
            {
              name: "antd",
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: Object.fromEntries(SERVER_PATHS.map((path) => [path, { target: SERVER }])),
  },
  preview: {
    port: 5173,
  },
});
