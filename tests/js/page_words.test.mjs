// The page's words against the notebook's: for every stored case of
// tests/js/page_exercise_cases.json.gz (tools/page_cases.py: each exercise's payload,
// typed and written answers, and the verdict and words Python gives each), the page
// (gatherlab/widgets/js/exercises.mjs, the code through evaluator.mjs) renders the same
// words, except on the cases listed in PYTHON_ONLY, whose checks only a run in Python
// can make: there the page's words must not contradict the notebook's (a pass is a pass).
// Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import { judge, render } from "../../gatherlab/widgets/js/exercises.mjs";

const { payloads, cases } = JSON.parse(
  gunzipSync(readFileSync(new URL("./page_exercise_cases.json.gz", import.meta.url))).toString("utf-8"),
);

// page.py's "verdicts.unanswered" etc. are Python's own; the page words the rest.
export function pageWords(testCase) {
  const payload = payloads[testCase.id];
  const verdict = judge(payload, testCase.text ?? testCase.code);
  return { passed: verdict.passed, words: render(verdict, payload.templates) };
}

test("every stored case: the page's words are the notebook's", () => {
  const differ = [];
  for (const testCase of cases) {
    let page;
    try {
      page = pageWords(testCase);
    } catch (error) {
      page = { passed: null, words: `threw ${error.stack}` };
    }
    if (page.words !== testCase.message) differ.push({ testCase, page });
  }
  const equal = cases.length - differ.length;
  console.log(`page words equal to Python's: ${equal} of ${cases.length}`);
  if (process.env.PAGE_WORDS_OUT)  // every difference, to read
    writeFileSync(process.env.PAGE_WORDS_OUT, JSON.stringify(differ.map(({ testCase, page }) =>
      ({ id: testCase.id, answer: testCase.text ?? testCase.code, python: testCase.message, page: page.words }))));
  assert.deepEqual(differ.map((d) => d.testCase.id), []);
});
