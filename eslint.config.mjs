// ESLint for the browser code, the Node tests and the book's scripts (`make lint`).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "_build/", ".venv*/", "tests/js/vendor/", "book/static/scripts/"] },
  js.configs.recommended,
  { rules: { "no-unused-vars": ["error", { argsIgnorePattern: "^_" }] } },
  {
    files: ["**/*.mjs"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["book/static/*.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.browser } },
  },
  {
    files: ["tests/js/**/*.mjs", "eslint.config.mjs"],
    languageOptions: { globals: { ...globals.node } },
  },
];
