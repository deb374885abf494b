// The explorers' browser code against cases generated from gatherlab and torch
// (tools/cases/agreement_cases.py): every diagnosis, trace step, trace line, parse result and
// printed float must be the same. Run with `node --test tests/js/` (part of `make test`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import {
  diagnose,
  formatValue,
  libraryOps,
  ParseError,
  parseTensor,
  RuleError,
  trace,
  traceLine,
} from "../../gatherlab/browser/explorers/core.mjs";
import { floatRepr } from "../../gatherlab/browser/interpreter/python.mjs";

const file = new URL("./generated/agreement_cases.json.gz", import.meta.url);
const { calls, library, parse, reprs } = JSON.parse(
  gunzipSync(readFileSync(file)).toString("utf8"),
);

const describe = (c) =>
  `${c.op}(input ${JSON.stringify(c.input.shape)}, dim ${c.dim}, index ` +
  `${JSON.stringify(c.index.data)} ${JSON.stringify(c.index.shape)} ${c.index.dtype})`;

test("the suite is large and mixed", () => {
  assert.ok(calls.length >= 5000, `only ${calls.length} calls`);
  const invalid = calls.filter((c) => c.problems).length;
  assert.ok(invalid > 1000 && calls.length - invalid > 1000);
  const ranks = new Set(calls.map((c) => c.input.shape.length));
  for (const rank of [0, 1, 2, 3, 4]) assert.ok(ranks.has(rank), `no rank ${rank}`);
  const rules = new Set(calls.flatMap((c) => (c.problems ?? []).map((p) => p.rule)));
  for (const rule of [
    "dim-range",
    "index-dtype",
    "rank-mismatch",
    "index-too-large",
    "negative-index",
    "index-out-of-range",
    "broadcast-mismatch",
    "index-not-vector",
    "empty-input",
    "scalar-index-count",
  ])
    assert.ok(rules.has(rule), `no case breaks ${rule}`);
});

test("diagnose and trace agree with gatherlab on every call", () => {
  const disagreements = [];
  for (const c of calls) {
    const found = diagnose(c.input, c.dim, c.index, c.op);
    try {
      if (c.problems) {
        assert.deepEqual(found, c.problems);
        assert.throws(() => trace(c.input, c.dim, c.index, c.op), RuleError);
        continue;
      }
      assert.deepEqual(found, []);
      const traced = trace(c.input, c.dim, c.index, c.op);
      assert.deepEqual(traced.shape, c.shape);
      assert.equal(traced.dim, c.dim_used);
      const steps = traced.steps.map((s) => [
        s.out,
        s.index_at,
        s.position,
        s.used,
        s.source,
        s.value,
        s.flat,
      ]);
      assert.deepEqual(steps, c.steps);
      const lines = traced.steps.map((s) => traceLine(s, c.input.dtype));
      assert.deepEqual(lines, c.lines);
    } catch (error) {
      disagreements.push(`${describe(c)}: ${error.message.slice(0, 400)}`);
    }
  }
  assert.deepEqual(disagreements.slice(0, 5), [], `${disagreements.length} disagree`);
});

test("the parser reads and refuses what parse_tensor does", () => {
  for (const c of parse) {
    if (c.error) {
      assert.throws(
        () => parseTensor(c.text),
        (error) => error instanceof ParseError && error.message === c.error,
        c.text,
      );
    } else {
      assert.deepEqual(parseTensor(c.text), c.tensor, c.text);
    }
  }
});

test("floats print as Python's repr and gatherlab's .4g print them", () => {
  assert.ok(reprs.length > 20);
  for (const c of reprs) {
    assert.equal(floatRepr(c.value), c.repr, String(c.value));
    assert.equal(formatValue(c.value, "float64"), c.format, String(c.value));
  }
});

test("advanced indexing and TensorFlow's ops: the same output and reads, or a refusal", () => {
  const disagreements = [];
  let answered = 0;
  for (const c of library) {
    const mine = libraryOps(c.x, c.index, c.dim);
    assert.deepEqual(
      mine.map((op) => op.name),
      c.ops.map((op) => op.name),
    );
    c.ops.forEach((theirs, k) => {
      const op = mine[k];
      const where = `${op.name} x ${JSON.stringify(c.x.shape)} index ${JSON.stringify(c.index)} dim ${c.dim}`;
      try {
        if (op.refused) {
          assert.notEqual(c.index.dtype, "int64", "an int64 index is never refused");
          return;
        }
        assert.equal(op.code, theirs.code);
        if (theirs.problems) assert.deepEqual(op.problems, theirs.problems);
        else if (theirs.error) assert.ok(op.raises, `${theirs.error} but JS gave output`);
        else {
          assert.deepEqual(op.output, theirs.output);
          assert.deepEqual(op.reads, theirs.reads);
        }
        answered += 1;
      } catch (error) {
        disagreements.push(`${where}: ${error.message.slice(0, 300)}`);
      }
    });
  }
  assert.deepEqual(disagreements.slice(0, 5), [], `${disagreements.length} disagree`);
  const outputs = library.flatMap((c) => c.ops).filter((op) => op.output).length;
  assert.ok(answered > 3000 && outputs > 800, `${answered} answered, ${outputs} outputs`);
});
