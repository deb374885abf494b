// The page's safe evaluator (gatherlab/browser/interpreter/evaluator.mjs) against torch and
// TensorFlow: every stored expression (tools/cases/evaluator_cases.py) gives the same value,
// dtype and shape, or raises the same exception type and breaks the same
// gatherlab.diagnose rule. Run with `node --test tests/js/` (make test does).
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import {
  PyError,
  UnsupportedError,
  fromPayload,
  repr,
  run,
  toPayload,
} from "../../gatherlab/browser/interpreter/evaluator.mjs";

const { cases, versions } = JSON.parse(
  gunzipSync(
    readFileSync(new URL("./generated/evaluator_cases.json.gz", import.meta.url)),
  ).toString("utf-8"),
);

const inputsOf = (env) =>
  Object.fromEntries(
    Object.entries(env).map(([name, [dtype, shape, data]]) => [
      name,
      fromPayload({ dtype, shape, data }),
    ]),
  );

function outcome(testCase) {
  const env = inputsOf(testCase.env);
  if (testCase.tf)
    for (const value of Object.values(env)) if (value.t === "tensor") value.lib = "tf";
  try {
    const value = run(testCase.expr, env, { tf: true });
    if (value.t === "tensor") {
      const { dtype, shape, data } = toPayload(value);
      return { value: [dtype, shape, data] };
    }
    return { value: { py: repr(value) } };
  } catch (error) {
    if (error instanceof PyError)
      return error.rule ? { error: error.type, rule: error.rule } : { error: error.type };
    if (error instanceof UnsupportedError) return { unsupported: error.message };
    throw error;
  }
}

const expected = (testCase) => {
  if ("value" in testCase) return { value: testCase.value };
  return testCase.rule ? { error: testCase.error, rule: testCase.rule } : { error: testCase.error };
};

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// a case marked approx (exp and log inside): the same dtype, shape and error, and
// values within 1e-6 relative (float32's precision is about 6e-8)
const near = (a, b) => {
  if (!a.value || !b.value || !Array.isArray(a.value)) return same(a, b);
  const [[ta, sa, da], [tb, sb, db]] = [a.value, b.value];
  return (
    ta === tb &&
    same(sa, sb) &&
    da.length === db.length &&
    da.every((x, k) => x === db[k] || Math.abs(x - db[k]) <= 1e-6 * Math.max(1, Math.abs(db[k])))
  );
};

test(`at least 5,000 expressions, valid and invalid (torch ${versions.torch}, TensorFlow ${versions.tensorflow})`, () => {
  assert.ok(cases.length >= 5000, `only ${cases.length} cases`);
  const raising = cases.filter((c) => "error" in c).length;
  assert.ok(raising >= 1000 && cases.length - raising >= 3000, `${raising} raise`);
  const rules = new Set(cases.map((c) => c.rule).filter(Boolean));
  for (const rule of [
    "dim-range",
    "index-dtype",
    "rank-mismatch",
    "index-too-large",
    "negative-index",
    "index-out-of-range",
    "index-not-vector",
    "scalar-index-count",
    "broadcast-mismatch",
    "empty-input",
  ])
    assert.ok(rules.has(rule), `no case breaks ${rule}`);
  assert.ok(
    cases.some((c) => c.tf),
    "no TensorFlow case",
  );
});

test("the evaluator agrees with torch and TensorFlow on every stored expression", () => {
  const wrong = [];
  for (const testCase of cases) {
    const got = outcome(testCase);
    if (!(testCase.approx ? near : same)(got, expected(testCase)))
      wrong.push({ expr: testCase.expr, env: testCase.env, want: expected(testCase), got });
  }
  const agree = cases.length - wrong.length;
  if (process.env.EVALUATOR_DIFF) writeFileSync(process.env.EVALUATOR_DIFF, JSON.stringify(wrong));
  console.log(
    `agreement: ${agree} of ${cases.length} (${((100 * agree) / cases.length).toFixed(2)} %)`,
  );
  assert.equal(
    JSON.stringify(wrong.slice(0, 8), null, 0),
    "[]",
    `${wrong.length} of ${cases.length} differ`,
  );
});

test("never eval: names outside the subset are refused, naming what is not supported", () => {
  const x = fromPayload({ dtype: "int64", shape: [2], data: [1, 2] });
  for (const [code, named] of [
    ["np.take(x, 0)", "the name np"],
    ["x.index_copy_(0, x, x)", "the attribute .index_copy_ of a tensor"],
    ["torch.constructor", "torch.constructor"],
    ["constructor", "name 'constructor' is not defined"],
    ["x.__class__", "the attribute .__class__"],
    ["torch.nn.functional.relu(x)", "torch.nn.functional.relu"],
    ["torch.nn.Linear", "torch.nn.Linear"],
    ["globalThis", "name 'globalThis' is not defined"],
    ["x.constructor", "the attribute .constructor"],
    ["x @ x", "the @ operator"],
    ["class A:\n    pass", "classes"],
    ["def f():\n    yield x", "yield"],
    ["async def f():\n    return x", "async"],
    ["@staticmethod\ndef f():\n    return x", "decorators"],
    ["with open('f') as f:\n    pass", "with blocks"],
    ["from torch import gather", "from … import"],
    ["{1: 2}", "dicts and sets"],
    ["b'x'", "bytes literals"],
    ["1j", "the number 1j"],
  ]) {
    assert.throws(
      () => run(code, { x }),
      (/** @type {any} */ error) => error.message.includes(named),
      code,
    );
  }
});

test("x[i][j] = v writes into x, as torch's view does; print runs and shows nothing; annotations and f-string echoes", () => {
  const x = fromPayload({ dtype: "int64", shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
  assert.deepEqual(run("x[1][2] = 0\nx[0][1] += 10\nx", { x }).data, [1, 12, 3, 4, 5, 0]);
  assert.equal(run("n: int = x.shape[0]\nprint(n, f'{n=}')\nf'{n=} {n + 1}'", { x }).v, "n=2 3");
  assert.equal(run("print(x)", { x }, { function: true }).t, "none"); // no return: None
});

test("views share memory as torch's do: a write through one reaches the tensor, torch's overlap checks raise with its words, an unordered overlap is refused", () => {
  const x = () => fromPayload({ dtype: "int64", shape: [2, 3], data: [0, 1, 2, 3, 4, 5] });
  assert.deepEqual(run("x[:1][0] = 5\nx", { x: x() }).data, [5, 5, 5, 3, 4, 5]); // x[:1] is a view
  assert.deepEqual(run("x[[0]][0] = 5\nx", { x: x() }).data, [0, 1, 2, 3, 4, 5]); // x[[0]] is a copy
  assert.deepEqual(run("y = x\ny += 1\nx", { x: x() }).data, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(run("c = x[:, 1]\nx[1, 1] = 40\nc", { x: x() }).data, [1, 40]);
  const internal =
    "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
  const partial =
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.";
  const raises = (code, message) =>
    assert.throws(
      () => run(code, { x: x() }),
      (e) => e instanceof PyError && e.type === "RuntimeError" && e.message === message,
      code,
    );
  raises("f = x[:, :1].expand(-1, 4)\nf += 1", internal);
  raises("f = x[0].expand(2, 3)\nf[:, 1] = 5", internal);
  raises("v = x.view(-1)\nv[1:] += v[:-1]", partial);
  // the notebook's expanded input (page.py's "strides"): its columns share memory
  const flat = fromPayload({
    dtype: "int64",
    shape: [3, 2],
    data: [7, 7, 8, 8, 9, 9],
    strides: [1, 0],
  });
  assert.throws(
    () => run("flat += 1", { flat }),
    (/** @type {any} */ e) => e.message === internal,
  );
  assert.deepEqual(run("flat[1:, 0] += 10\nflat", { flat }).data, [7, 7, 18, 18, 19, 19]);
  // a column written while it is read: torch goes its own order, unchecked
  assert.throws(
    () => run("x[:, 1:] += x[:, :-1]", { x: x() }),
    (e) =>
      e instanceof UnsupportedError &&
      /in-place write whose input reads the memory it writes to/.test(e.message),
  );
});

test("assert: a true test goes on, a false one raises AssertionError with its message", () => {
  const x = fromPayload({ dtype: "int64", shape: [2, 3], data: [1, 2, 3, 4, 5, 6] });
  assert.equal(run("assert x.shape[0] == 2\nx.shape[1]", { x }).v, 3);
  assert.throws(
    () => run('assert x.shape[0] == 3, "two rows"', { x }),
    (/** @type {any} */ error) => error.type === "AssertionError" && error.message === "two rows",
  );
  assert.throws(
    () => run("assert x.sum() < 0", { x }),
    (/** @type {any} */ error) => error.type === "AssertionError" && error.message === "",
  );
});

test("statements: assignments, loops, item assignment, if/raise and return", () => {
  const input = fromPayload({ dtype: "int64", shape: [2, 3], data: [10, 11, 12, 20, 21, 22] });
  const index = fromPayload({ dtype: "int64", shape: [2, 2], data: [2, 0, 1, 1] });
  const code = [
    "out = torch.empty(index.shape, dtype=input.dtype)",
    "rows, columns = index.shape",
    "for i in range(rows):",
    "    for j in range(columns):",
    "        position = int(index[i, j])",
    "        if position < 0:",
    "            raise IndexError('negative')",
    "        out[i, j] = input[i, position]",
    "return out",
  ].join("\n");
  const out = run(code, { input, index });
  assert.deepEqual([out.dtype, out.shape, out.data], ["int64", [2, 2], [12, 10, 21, 21]]);
  const bad = fromPayload({ dtype: "int64", shape: [1, 1], data: [-1] });
  assert.throws(
    () => run(code, { input, index: bad }),
    (e) => e instanceof PyError && e.type === "IndexError",
  );
});

test("Python's builtins the page does not run are reported as unsupported, not as undefined", () => {
  for (const code of ["isinstance(1, int)", "dict(a=1)", "set([1])", "open('f')"])
    assert.throws(
      () => run(code),
      (error) => error instanceof UnsupportedError && /Python's builtin/.test(error.message),
      code,
    );
  // a name that Python does not know is still a NameError
  assert.throws(
    () => run("no_such_name"),
    (error) => error instanceof PyError && error.type === "NameError",
  );
});

test("slice() builds what start:stop:step does", () => {
  const x = fromPayload({ dtype: "int64", shape: [3, 4], data: [...Array(12).keys()] });
  for (const [built, written] of [
    ["x[slice(2)]", "x[:2]"],
    ["x[slice(1, None)]", "x[1:]"],
    ["x[:, slice(0, 4, 2)]", "x[:, 0:4:2]"],
  ])
    assert.deepEqual(toPayload(run(built, { x })), toPayload(run(written, { x })), built);
});

test("min() and max() over a tensor compare its 0-d entries, as Python does", () => {
  // torch: max(torch.tensor([0, 4, 1])) is tensor(4), int() of it 4 (once the first
  // entry came back whatever the values)
  const labels = fromPayload({ dtype: "int64", shape: [3], data: [0, 4, 1] });
  assert.equal(repr(run("int(max(labels))", { labels })), "4");
  assert.equal(repr(run("int(min(labels))", { labels })), "0");
  assert.equal(repr(run("max(3, 7.5, 2)", {})), "7.5");
  assert.equal(repr(run("min([5, 2, 9])", {})), "2");
});
