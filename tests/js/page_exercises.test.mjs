// The book's in-page exercises (gatherlab/browser/checker/exercises.mjs) on the payloads
// gatherlab/exercises/page.py writes (stored with Python's verdicts by
// tools/cases/page_cases.py): the solution passes; a wrong answer gets a verdict that is not
// a pass; a misconception's output gets that misconception's verdict; typed answers
// read as pasted. tests/js/page_words.test.mjs compares every stored case's words.
// Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import {
  body,
  judge,
  readTyped,
  ready,
  render,
} from "../../gatherlab/browser/checker/exercises.mjs";

await ready(); // the evaluator, which the page imports on first use

const { payloads, cases } = JSON.parse(
  gunzipSync(
    readFileSync(new URL("./generated/page_exercise_cases.json.gz", import.meta.url)),
  ).toString("utf-8"),
);
const said = (id, verdict) => render(verdict, payloads[id].templates);
// A right and a wrong answer of every exercise, from the stored cases.
const answers = Object.fromEntries(
  Object.keys(payloads).map((id) => {
    const mine = cases.filter((c) => c.id === id);
    const pick = (status) => mine.find((c) => c.status === status);
    return [id, { right: pick("passed"), wrong: pick("not yet") }];
  }),
);
const answerOf = (c) => c.text ?? c.code;

test("there is a payload and a right and wrong answer for every exercise", () => {
  const ids = Object.keys(payloads);
  assert.ok(ids.length >= 33, `only ${ids.length} exercises`);
  for (const id of ids) assert.ok(answers[id].right && answers[id].wrong, id);
  const kinds = new Set(Object.values(payloads).map((p) => p.kind));
  assert.deepEqual([...kinds].sort(), ["choose", "fix", "implement", "predict", "raises"]);
});

for (const [id, payload] of Object.entries(payloads)) {
  test(`${id} (${payload.kind}): the solution passes, a wrong answer does not`, () => {
    const right = judge(payload, answerOf(answers[id].right));
    assert.equal(said(id, right), said(id, payload.passed));
    assert.equal(right.passed, true, said(id, right));
    const wrong = judge(payload, answerOf(answers[id].wrong));
    assert.equal(wrong.passed, false, said(id, wrong));
    assert.notEqual(said(id, wrong), "");
    assert.doesNotMatch(said(id, wrong), /\{[a-z_]+\}|undefined/); // every field filled
  });
}

test("every template a payload's verdicts name is in the payload (no table is fetched)", () => {
  const named = (value) =>
    Array.isArray(value)
      ? value.flatMap(named)
      : value && typeof value === "object"
        ? Object.entries(value).flatMap(([k, v]) =>
            k.endsWith("template") && typeof v === "string" ? [v] : named(v),
          )
        : [];
  for (const [id, payload] of Object.entries(payloads)) {
    const { templates, ...rest } = payload;
    for (const template of named(rest)) assert.ok(template in templates, `${id}: ${template}`);
  }
});

test("a wrong answer whose outputs a misconception reproduces gets its verdict", () => {
  const payload = payloads["01.pick_columns"];
  const transposed = judge(payload, "return torch.gather(x, 1, columns).t()");
  assert.deepEqual(transposed, payload.misconceptions["transposed-result"]);
  assert.deepEqual(judge(payload, "return x[columns]"), payload.misconceptions["whole-rows"]);
});

test("an off-by-one through advanced indexing, which raises IndexError on a full sequence, is named as in the notebook", () => {
  const payload = payloads["02.last_valid_step"];
  const verdict = judge(payload, "return features[torch.arange(features.shape[0]), lengths]");
  assert.equal(verdict.misconception, "off-by-one");
  assert.match(said("02.last_valid_step", verdict), /one position past the right one/);
});

test("a misconception's variants are worded apart: the matching one's verdict", () => {
  const payload = payloads["01.predict_columns"];
  const variants = payload.cases[0].misconceptions.filter((m) => m.id.startsWith("extra-axis"));
  assert.ok(variants.length >= 2);
  for (const { id, output } of variants) {
    const nested = (data, shape) =>
      shape.length
        ? Array.from({ length: shape[0] }, (_, k) =>
            nested(
              data.slice((k * data.length) / shape[0], ((k + 1) * data.length) / shape[0]),
              shape.slice(1),
            ),
          )
        : data[0];
    const verdict = judge(payload, JSON.stringify(nested(output.data, output.shape)));
    assert.deepEqual(verdict, payload.misconceptions[id]);
    assert.match(
      said("01.predict_columns", verdict),
      new RegExp(`shape \\(${output.shape.join(", ")}\\)`),
    );
  }
});

test("with no misconception, the verdict states the op's rule, then the first wrong coordinate and what it reads", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(payload, "return torch.gather(x, 1, columns) + (columns == 1).long()");
  assert.equal(verdict.template, "implement.wrong_value_reads_rule");
  assert.equal(
    said("01.pick_columns", verdict),
    "On the visible example, out[1, 0] should be 21, but your function returned 22: gather along dim 1 reads out[i, j] = x[i, columns[i, j]].\nout[1, 0] reads x[1, 1] = 21 because columns[1, 0] = 1.",
  );
});

test("a failing call says the rule it breaks", () => {
  const verdict = judge(payloads["01.pick_columns"], "return torch.gather(x, 1, columns[0])");
  assert.equal(verdict.template, "implement.raised_rule_hint");
  assert.match(
    said("01.pick_columns", verdict),
    /raised RuntimeError: its call torch\.gather breaks a rule: index has 1 dims but input has 2.* \(add the missing axis/,
  );
});

test("code outside the subset is refused with what is not supported, and the notebook", () => {
  const verdict = judge(
    payloads["01.pick_columns"],
    "import numpy as np\nreturn np.take_along_axis(x, columns, 1)",
  );
  assert.equal(verdict.passed, false);
  assert.match(
    said("01.pick_columns", verdict),
    /import numpy is not supported here\. Open this chapter's notebook/,
  );
  const forbidden = judge(payloads["01.gather_loop"], "return torch.gather(input, dim, index)");
  assert.equal(
    said("01.gather_loop", forbidden),
    "On the visible example, your function called torch.gather, and this exercise asks you not to use torch.gather.",
  );
});

test("a whole function, def line included, is accepted", () => {
  const payload = payloads["01.pick_columns"];
  const verdict = judge(
    payload,
    "def pick_columns(x, columns):\n    return torch.gather(x, 1, columns)",
  );
  assert.equal(verdict.passed, true);
  const code = "import torch\ndef f(x: list[int], y=(1, 2)):\n    return x";
  assert.deepEqual(body(code), { code, function: true, main: true });
  assert.deepEqual(body("x.T"), { code: "x.T", function: false });
  // helper functions beside it, before or after, and defs inside it: Python calls the
  // exercise's function (named as the exercise, else the one no other def calls)
  for (const answer of [
    "def pick(x, c):\n    return x.gather(1, c)\n\ndef pick_columns(x, columns):\n    return pick(x, columns)",
    "def pick_columns(x, columns):\n    return pick(x, columns)\n\ndef pick(x, c):\n    return x.gather(1, c)",
    "def outer(x, columns):\n    def inner(i):\n        return x[i, columns[i]]\n    return torch.stack([inner(i) for i in range(len(x))])\n\ndef helper():\n    return 0",
    "def solve(x, columns):\n    out = torch.empty_like(columns, dtype=x.dtype)\n    for i in range(columns.shape[0]):\n        for j in range(columns.shape[1]):\n            out[i, j] = x[i, columns[i, j]]\n    return out",
  ])
    assert.equal(judge(payload, answer).passed, true, answer);
});

test("a def Python cannot read is a syntax error on the learner's line; what the page cannot run is named; a body without return gives None, as in Python", () => {
  const payload = payloads["01.pick_columns"];
  const words = (code) => render(judge(payload, code), payload.templates);
  assert.match(
    words("def pick_columns(x, columns)\n    return x"),
    /^Python cannot read your lines: line 1: expected ':'/,
  );
  assert.match(
    words("def pick_columns(x, columns):\nreturn x.gather(1, columns)"),
    /^Python cannot read your lines: line 2: expected an indented block/,
  );
  assert.match(
    words("def pick_columns(x, columns):\n    return x.gather(1, columns\n"),
    /^Python cannot read your lines: line 2: expected '\)' before the end/,
  );
  assert.match(
    words("def pick_columns(x, columns):\n    return x\nclass A:\n    pass"),
    /^The page cannot run this: classes/,
  );
  assert.match(
    words("def pick_columns(x):\n    return x"),
    /pick_columns\(\) takes 1 positional argument but 2 were given/,
  );
  // no `return`: Python's function gives None, its last expression is not its value
  assert.equal(
    words("def pick_columns(x, columns):\n    x.gather(1, columns)"),
    "On the visible example, your result is None (a function without `return` gives None).",
  );
  assert.equal(
    words("def pick_columns(x, columns):\n    return x.gather(1, columns).float()"),
    "On the visible example, your result has dtype float32, not int64: your final `.float()` converts it to float32.\n" +
      "Convert to int64 there instead (`.long()`), or drop the conversion.",
  );
  assert.equal(
    words("def pick_columns(x, columns):\n    return [1]"),
    "On the visible example, your result is a list, but it should be a torch.Tensor.\nBuild it with torch ops (torch.as_tensor converts).",
  );
});

test("typed answers read as learners paste them", () => {
  const read = (text) => {
    const { value, unreadable } = readTyped(text);
    if (unreadable) return unreadable;
    if (value.t === "tensor") return [value.dtype, value.shape, value.data];
    return value.t;
  };
  assert.deepEqual(read("tensor([[12, 11],\n        [21, 21]])"), [
    "int64",
    [2, 2],
    [12, 11, 21, 21],
  ]);
  assert.deepEqual(read("tensor([[2], [0]], dtype=torch.int32)"), ["int32", [2, 1], [2, 0]]);
  assert.deepEqual(read("array([[10, 11],\n       [20, 21]])"), [
    "int64",
    [2, 2],
    [10, 11, 20, 21],
  ]);
  assert.deepEqual(read("[[10 11 12]\n [20 21 22]]"), "list");
  assert.deepEqual(read("tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)"), [
    "int32",
    [2, 2],
    [1, 2, 3, 4],
  ]);
  assert.deepEqual(
    read("<tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, 21], dtype=int32)>"),
    ["int32", [2], [1, 21]],
  );
  assert.deepEqual(read("prediction = tensor(12)"), ["int64", [], [12]]);
  assert.match(read("no idea"), /not defined|expected/);
  const payload = payloads["01.predict_columns"];
  for (const pasted of [
    "tensor([[11, 11, 10],\n        [22, 20, 22]])",
    "[[11 11 10]\n [22 20 22]]",
    "array([[11, 11, 10], [22, 20, 22]])",
  ])
    assert.equal(judge(payload, pasted).passed, true, pasted);
});

test("a typed tensor converted with .float() reads as that tensor; anything else after it is refused, naming it", () => {
  const payload = payloads["01.predict_columns"];
  const { value } = readTyped("torch.tensor([[11, 11, 10], [22, 20, 22]]).float()");
  assert.deepEqual(
    [value.dtype, value.shape, value.data],
    ["float32", [2, 3], [11, 11, 10, 22, 20, 22]],
  );
  assert.equal(judge(payload, "torch.tensor([[11, 11, 10], [22, 20, 22]]).long()").passed, true);
  const words = render(
    judge(payload, "torch.tensor([[11, 11, 10], [22, 20, 22]]).sum()"),
    payload.templates,
  );
  assert.match(
    words,
    /^The page cannot read this: `\.sum\(\)` on a typed tensor .* is not supported here/,
  );
  assert.doesNotMatch(words, /a str/);
});

test("choose exercises: each choice's own verdict; no choice asks for one", () => {
  const payload = payloads["04.device_mismatch"];
  for (const choice of payload.choices)
    assert.deepEqual(judge(payload, choice.label), choice.verdict);
  const none = judge(payload, "");
  assert.equal(none.template, "choose.pick_one");
  assert.equal(said("04.device_mismatch", none), "Pick one statement: write its label, e.g. 'A'.");
});

test("raises exercises: labels as typed, the first misjudged call's verdict", () => {
  const payload = payloads["01.which_calls_raise"];
  const raising = payload.choices.filter((c) => c.raises).map((c) => c.label);
  for (const typed of [
    raising.join(", "),
    raising.join("").toLowerCase(),
    `[${raising.map((l) => `'${l}'`).join(", ")}]`,
  ])
    assert.equal(judge(payload, typed).passed, true, typed);
  const missed = payload.choices.find((c) => c.raises);
  assert.deepEqual(
    judge(payload, raising.filter((l) => l !== missed.label).join(", ") || "none"),
    missed.verdict,
  );
  // several calls misjudged: each named with its rule in the first step (issue 38)
  const several = judge(payloads["04.which_calls_raise"], "b, C, F");
  assert.equal(
    said("04.which_calls_raise", several).split("\n")[0],
    "B and C run: the index may be longer along dim, smaller elsewhere (B); " +
      "an empty index is not checked (C). " +
      "D raises: torch.take_along_dim takes positions as int64.",
  );
  const unknown = judge(payload, "Z");
  assert.equal(
    said("01.which_calls_raise", unknown),
    `There is no call 'Z': the calls are ${payload.choices.map((c) => c.label).join(", ")}.`,
  );
});

test("the stub's answer and a prediction that it raises get the exercise's verdicts", () => {
  const payload = payloads["01.predict_columns"];
  assert.deepEqual(judge(payload, "prediction = ..."), payload.verdicts.unanswered);
  assert.deepEqual(judge(payload, "It will raise an error"), payload.verdicts.says_raises);
  assert.deepEqual(
    judge(payloads["01.pick_columns"], ""),
    payloads["01.pick_columns"].verdicts.unanswered,
  );
});
