// The old in-page checker (book/static/exercise_check.js) against the sentinel-probing
// payload, which gatherlab/exercises/page.py no longer writes. The page checker is being
// replaced on branch evaluator; its test reads tests/js/page_exercise_cases.json.gz
// (tools/page_cases.py, `make regen`): every exercise's payload and Python's verdicts.
import { test } from "node:test";

test("the in-page checker says what gl.exercises.check says", {
  skip: "page checker being replaced on branch evaluator",
}, () => {});
