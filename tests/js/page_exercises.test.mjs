// The book's in-page check (book/static/exercise_check.js) against Python's answers.
// The cases come from tests/page_cases.py: `.venv/bin/python -m tests.page_cases`.
// Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { test } from "node:test";

const require = createRequire(import.meta.url);
const page = require("../../book/static/exercise_check.js");
const { payloads, cases } = JSON.parse(
  readFileSync(new URL("./page_exercise_cases.json", import.meta.url), "utf-8"),
);

test("there are cases for every page exercise", () => {
  assert.ok(cases.length >= 500, `only ${cases.length} cases`);
  const covered = new Set(cases.map((c) => c.id));
  assert.deepEqual([...covered].sort(), Object.keys(payloads).sort());
});

for (const id of Object.keys(payloads)) {
  test(`${id}: the page says what gl.exercises.check says`, () => {
    const mine = cases.filter((c) => c.id === id);
    const wrong = [];
    for (const { text, expected } of mine) {
      const got = page.check(payloads[id], text);
      const shown = [got.status, got.message, got.details];
      if (JSON.stringify(shown) !== JSON.stringify(expected)) wrong.push({ text, expected, shown });
    }
    assert.deepEqual(wrong.slice(0, 3), [], `${wrong.length} of ${mine.length} cases differ`);
  });
}

test("numbers print as Python's .4g and repr print them", () => {
  const g4 = [
    [21, "21"], [2.5, "2.5"], [987654, "9.877e+05"], [0.001234, "0.001234"],
    [1e-4, "0.0001"], [1.5e-5, "1.5e-05"], [9.9996, "10"], [1.0625, "1.062"],
    [1.0635, "1.063"], [-0, "-0"], [1e16, "1e+16"], [Infinity, "inf"], [NaN, "nan"],
  ];
  for (const [value, text] of g4) assert.equal(page.formatG4(value), text, String(value));
  assert.equal(page.floatRepr(0.1), "0.1");
  assert.equal(page.floatRepr(1.5e-5), "1.5e-05");
  assert.equal(page.floatRepr(2.5e16), "2.5e+16");
  assert.equal(page.strRepr("a\\b"), "'a\\\\b'");
});
