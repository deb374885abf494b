// The page's words against the notebook's: for every case of tests/js/generated/
// page_exercise_cases.json.gz (tools/cases/page_cases.py: each exercise's payload,
// typed and written answers, and the verdict and words Python gives each), the page
// (gatherlab/browser/checker/exercises.mjs, the code through evaluator.mjs) renders the same
// words, except on the cases listed in PYTHON_ONLY, whose checks only a run in Python
// can make (there the page's words must not contradict the notebook's: neither passes).
// Implement passes are worded alike although the page runs fewer hidden cases: each
// side states its own count beside the verdict (the notebook a line under it, the page
// its notebook_checks note), not in it.
// Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import { judge, ready, render, shapeAdvice } from "../../gatherlab/browser/checker/exercises.mjs";

await ready(); // the evaluator, which the page imports on first use

const {
  payloads,
  cases,
  shape_advice: shapePairs,
} = JSON.parse(
  gunzipSync(
    readFileSync(new URL("./generated/page_exercise_cases.json.gz", import.meta.url)),
  ).toString("utf-8"),
);

// The cases whose words only a run in Python can give, and why; the page's words there
// must still not contradict the notebook's: the same pass or not, and never a pass.
const PYTHON_ONLY = [
  [
    "04.predict_scalar_index",
    "9007199254740993",
    "an integer beyond 2**53: JavaScript numbers would round it, so the page says it cannot read it",
  ],
  [
    "05.label_scores",
    "torch.from_numpy",
    "torch.from_numpy: the page cannot run this (it says so)",
  ],
  // NumPy interop: the page has no NumPy arrays, so a tensor's .numpy() (a TensorFlow
  // answer inside a torch exercise crosses with it) cannot run there (it says so)
  [
    "06.class_loss_sums",
    "losses.numpy()",
    "a TensorFlow answer inside a torch exercise, through .numpy(): the page cannot run this (it says so)",
  ],
  ["06.one_hot", "labels.numpy()", "a tensor's .numpy(): the page has no NumPy"],
  ["06.one_hot", "rows.numpy()", "a tensor's .numpy(): the page has no NumPy"],
  ["06.segment_means", "segments.numpy()", "a tensor's .numpy(): the page has no NumPy"],
  // a mutable TensorFlow variable (and its own write methods) is not in the page's
  // evaluator, whose tensors are values (it says it cannot run it)
  ["06.class_loss_sums", "tf.Variable(", "tf.Variable: the page has no mutable variables"],
  // ops and arguments the page's evaluator does not have: it names the construct it
  // cannot run and sends the learner to the notebook
  ["06.fix_write_as_read", ".sort()", "Tensor.sort: not in the page's evaluator (it says so)"],
  ["06.one_hot", ".index_fill_(", "Tensor.index_fill_: not in the page's evaluator (it says so)"],
  ["06.segment_means", "output_size=", "scatter_reduce's output_size= of torch 1.11: not run"],
  ["02.last_valid_step", "features.numpy()", "a tensor's .numpy(): the page has no NumPy"],
  [
    "06.segment_means",
    "tf.math.unsorted_segment_mean",
    "TensorFlow's segment ops: not in the page's evaluator (it says so)",
  ],
  [
    "06.segment_means",
    ".index_reduce_(",
    "Tensor.index_reduce_: not in the page's evaluator (it says so)",
  ],
  ["06.segment_means", "torch.histc", "torch.histc: not in the page's evaluator (it says so)"],
  ["06.segment_means", "tf.math.segment_mean", "tf.math's segment ops: not in the page"],
  [
    "04.predict_wrap",
    "-9223372036854775808",
    "an integer beyond 2**53: JavaScript numbers would round it, so the page says it cannot read it",
  ],
  ["05.label_scores", "F.nll_loss(", "torch.nn.functional.nll_loss: not in the page (it says so)"],
  ["06.class_loss_sums", "return_inverse=True", "unique's return_inverse: not in the page"],
  ["06.class_loss_sums", "labels[order].numpy()", "a tensor's .numpy(): the page has no NumPy"],
  ["06.one_hot", "torch.LongTensor(", "the legacy torch.LongTensor constructor: not in the page"],
  ["06.segment_means", "].mean()", "Tensor.mean: not in the page's evaluator (it says so)"],
  ["06.class_loss_sums", ".T @ losses", "the @ operator: not in the page's evaluator (it says so)"],
  ["06.class_loss_sums", "M @ losses", "the @ operator: not in the page's evaluator (it says so)"],
  [
    "02.tf_select_steps",
    "tf.experimental.numpy.take_along_axis",
    "tf.experimental's NumPy API: not in the page's evaluator (it says so)",
  ],
  ["02.tf_select_steps", "tf.one_hot(", "tf.one_hot: not in the page's evaluator (it says so)"],
  [
    "06.segment_means",
    "reduce='mean'",
    "scatter_'s reduce=: not in the page's evaluator (it says so)",
  ],
];
// Defects: the page's words differ from the notebook's where they should not (issue
// 38's note); each still fails on the page. Remove an entry once the words agree.
const PAGE_GAPS = [];
const pythonOnly = (testCase) =>
  [...PYTHON_ONLY, ...PAGE_GAPS].find(
    ([id, part]) => id === testCase.id && (testCase.text ?? testCase.code).includes(part),
  );

function pageWords(testCase) {
  const payload = payloads[testCase.id];
  const verdict = judge(payload, testCase.text ?? testCase.code);
  return { verdict, passed: verdict.passed, words: render(verdict, payload.templates) };
}

test("every stored case: the page's words are the notebook's, but where only Python can say", () => {
  const differ = [];
  const excused = [];
  for (const testCase of cases) {
    const page = pageWords(testCase);
    if (page.words === testCase.message) continue;
    if (pythonOnly(testCase)) excused.push({ testCase, page });
    else differ.push({ testCase, page });
  }
  const equal = cases.length - differ.length - excused.length;
  console.log(
    `page words equal to Python's: ${equal} of ${cases.length} (${excused.length} Python-only)`,
  );
  if (process.env.PAGE_WORDS_OUT)
    // every difference, to read
    writeFileSync(
      process.env.PAGE_WORDS_OUT,
      JSON.stringify(
        [...differ, ...excused].map(({ testCase, page }) => ({
          id: testCase.id,
          answer: testCase.text ?? testCase.code,
          python: testCase.message,
          page: page.words,
        })),
      ),
    );
  assert.deepEqual(
    differ.map((d) => [d.testCase.id, d.testCase.text ?? d.testCase.code, d.page.words]),
    [],
  );
  for (const { testCase, page } of excused) {
    assert.equal(page.passed, false, testCase.id);
    assert.equal(testCase.status, "not yet", testCase.id);
  }
  // every implement payload's pass is among the equal words
  for (const [id, payload] of Object.entries(payloads))
    if (payload.kind === "implement")
      assert.ok(
        cases.some((c) => c.id === id && c.status === "passed" && pageWords(c).words === c.message),
        id,
      );
  // each listed case is still one the page cannot word (else: remove it from the list)
  for (const [id, part] of [...PYTHON_ONLY, ...PAGE_GAPS])
    assert.ok(
      excused.some(
        ({ testCase }) => testCase.id === id && (testCase.text ?? testCase.code).includes(part),
      ),
      `${id}: ${part}`,
    );
});

test("the stored cases cover every exercise and kind, typed and written", () => {
  assert.deepEqual([...new Set(cases.map((c) => c.id))].sort(), Object.keys(payloads).sort());
  const kinds = new Set(Object.values(payloads).map((p) => p.kind));
  assert.deepEqual([...kinds].sort(), ["choose", "fix", "implement", "predict", "raises"]);
  assert.ok(cases.filter((c) => c.code).length >= 40);
  assert.ok(cases.filter((c) => c.status === "passed").length >= 100);
});

test("compare.shape_advice and shapeAdvice give one advice on every stored shape pair", () => {
  assert.ok(shapePairs.length >= 80);
  const templates = new Set(shapePairs.map(([, , template]) => template));
  assert.equal(templates.size, 8); // every advice.* template
  for (const [expected, got, template, fields] of shapePairs)
    assert.deepEqual(shapeAdvice(expected, got), { template, fields }, `${expected} vs ${got}`);
});
