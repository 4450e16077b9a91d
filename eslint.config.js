import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    // tmpbench/: local scratch measurements, never committed (.gitignore).
    ignores: ["**/node_modules/**", "**/dist/**", "data/**", "test-artifacts/**", "**/tmpbench/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/no-explicit-any": "error",
      "no-control-regex": "off",
    },
  },
  {
    // Visualizations and components are used by every screen: they must not depend on one (shared
    // pieces such as the drill-down target picker live in components/, lib/ or api/).
    files: ["packages/web/src/visualizations/**", "packages/web/src/components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/features/**"],
              message:
                "visualizations/ and components/ must not import from features/: move the shared piece.",
            },
          ],
        },
      ],
    },
  },
  {
    // Test helpers may treat JSON answers loosely.
    files: ["**/*.test.ts", "**/*.test.tsx", "**/testing/**", "e2e/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
