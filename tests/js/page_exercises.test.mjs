// The book's in-page exercises (gatherlab/widgets/js/exercises.mjs) on the payloads of
// every exercise (tools/page_payloads.py): the solution, typed or written as a learner
// writes it, passes; a wrong answer gets a verdict that is not a pass; a misconception's
// output gets that misconception's verdict; typed answers read as pasted.
// Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import { body, judge, readTyped, render } from "../../gatherlab/widgets/js/exercises.mjs";

const { payloads, answers, messages } = JSON.parse(
  gunzipSync(readFileSync(new URL("./page_payloads.json.gz", import.meta.url))).toString("utf-8"),
);

test("there is a payload and a right and wrong answer for every exercise", () => {
  const ids = Object.keys(payloads);
  assert.ok(ids.length >= 33, `only ${ids.length} exercises`);
  assert.deepEqual(Object.keys(answers).sort(), ids.sort());
  const kinds = new Set(Object.values(payloads).map((p) => p.kind));
  assert.deepEqual([...kinds].sort(), ["choose", "fix", "implement", "predict", "raises"]);
});

for (const [id, payload] of Object.entries(payloads)) {
  test(`${id} (${payload.kind}): the solution passes, a wrong answer does not`, () => {
    const right = judge(payload, answers[id].right);
    assert.equal(render(right, messages), render(payload.passed, messages));
    assert.equal(right.passed, true, render(right, messages));
    const wrong = judge(payload, answers[id].wrong);
    assert.equal(wrong.passed, false, render(wrong, messages));
    assert.notEqual(render(wrong, messages), "");
    assert.doesNotMatch(render(wrong, messages), /\{[a-z_]+\}/);  // every field filled
  });
}

test("a wrong answer whose outputs a misconception reproduces gets its verdict", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, answers["01.pick_columns"].wrong);
  assert.deepEqual(verdict, payload.misconceptions["hard-coded visible output"]);
  // the transposed result, written as a learner would
  const transposed = judge(payload, "return torch.gather(x, 1, columns).t()");
  assert.deepEqual(transposed, payload.misconceptions["transposed result"]);
});

test("with no misconception, the verdict names the first wrong coordinate", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, "return torch.gather(x, 1, columns) + (columns == 1).long()");
  assert.equal(verdict.passed, false);
  assert.match(verdict.template, /^implement\.wrong_value$/);
  assert.match(render(verdict, messages), /^On the visible example, out\[0, 0\] should be 12, but your function returned 12|^On .*out\[\d+, \d+\] should be -?\d+, but your function returned -?\d+\.$/);
});

test("a failing call names the gather rule it breaks", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, "return torch.gather(x, 1, columns[0])");
  assert.equal(verdict.template, "implement.raised_rule");
  assert.match(render(verdict, messages), /rank|dims/);
});

test("code outside the subset is refused with what is not supported, and the notebook", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, "import numpy as np\nreturn np.take_along_axis(x, columns, 1)");
  assert.equal(verdict.passed, false);
  assert.match(render(verdict, messages), /import numpy is not supported here\. Open this chapter's notebook/);
  const forbidden = judge(payloads["01.gather_loop"], "return torch.gather(input, dim, index)");
  assert.match(render(forbidden, messages), /calls torch\.gather, and this exercise asks you not to use it/);
});

test("a whole function, def line included, is accepted", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, "def pick_columns(x, columns):\n    return torch.gather(x, 1, columns)");
  assert.equal(verdict.passed, true);
  assert.equal(body("def f(\n    x,\n) -> int:\n    return x"), "return x");
});

test("typed answers read as learners paste them", () => {
  const read = (text) => {
    const { value, unreadable } = readTyped(text);
    if (unreadable) return unreadable;
    if (value.t === "tensor") return [value.dtype, value.shape, value.data];
    return value.t;
  };
  assert.deepEqual(read("tensor([[12, 11],\n        [21, 21]])"), ["int64", [2, 2], [12, 11, 21, 21]]);
  assert.deepEqual(read("tensor([[2], [0]], dtype=torch.int32)"), ["int32", [2, 1], [2, 0]]);
  assert.deepEqual(read("array([[10, 11],\n       [20, 21]])"), ["int64", [2, 2], [10, 11, 20, 21]]);
  assert.deepEqual(read("[[10 11 12]\n [20 21 22]]"), "list");
  assert.deepEqual(read("tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"), ["int32", [2, 2], [1, 2, 3, 4]]);
  assert.deepEqual(read("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, 21], dtype=int32)>"), ["int32", [2], [1, 21]]);
  assert.deepEqual(read("prediction = tensor(12)"), ["int64", [], [12]]);
  assert.match(read("no idea"), /not defined|expected/);
  const payload = payloads["01.predict_columns"];
  for (const pasted of ["tensor([[11, 11, 10],\n        [22, 20, 22]])", "[[11 11 10]\n [22 20 22]]", "array([[11, 11, 10], [22, 20, 22]])"])
    assert.equal(judge(payload, pasted).passed, true, pasted);
});

test("choose exercises: each choice's own verdict; no choice asks for one", () => {
  const payload = payloads["04.device_mismatch"];
  for (const choice of payload.choices) assert.deepEqual(judge(payload, choice.label), choice.verdict);
  const none = judge(payload, "");
  assert.equal(none.template, "choose.pick_one");
  assert.equal(render(none, messages), "Pick one statement: write its label, e.g. 'A'.");
});

test("raises exercises: labels as typed, the first misjudged call's verdict", () => {
  const payload = payloads["01.which_calls_raise"];
  const raising = payload.choices.filter((c) => c.raises).map((c) => c.label);
  for (const typed of [raising.join(", "), raising.join("").toLowerCase(), `[${raising.map((l) => `'${l}'`).join(", ")}]`])
    assert.equal(judge(payload, typed).passed, true, typed);
  const missed = payload.choices.find((c) => c.raises);
  assert.deepEqual(judge(payload, raising.filter((l) => l !== missed.label).join(", ") || "none"), missed.verdict);
  const unknown = judge(payload, "Z");
  assert.equal(render(unknown, messages), `There is no call 'Z': the calls are ${payload.choices.map((c) => c.label).join(", ")}.`);
});

test("the stub's answer and a prediction that it raises get the exercise's verdicts", () => {
  const payload = payloads["01.predict_columns"];
  assert.deepEqual(judge(payload, "prediction = ..."), payload.verdicts.unanswered);
  assert.deepEqual(judge(payload, "It will raise an error"), payload.verdicts.says_raises);
});
