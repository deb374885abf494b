// The scatter explorer's browser code against cases generated from gl.reference and
// torch (tools/cases/scatter_agreement.py): every refusal's message, every write and every
// output must be the same. Run with `node --test tests/js/` (part of `make test`).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { gunzipSync } from "node:zlib";

import {
  callText,
  collisionLine,
  scatterProblems,
  scatterResult,
  scatterWrites,
} from "../../gatherlab/browser/explorers/scatter.mjs";

const file = new URL("./generated/scatter_cases.json.gz", import.meta.url);
const calls = JSON.parse(gunzipSync(readFileSync(file)).toString("utf8"));

const describe = (c) =>
  `${callText(c.dim, c.reduce, c.include_self)} with x ${JSON.stringify(c.x.shape)}, ` +
  `index ${JSON.stringify(c.index.data)} ${JSON.stringify(c.index.shape)} ${c.index.dtype}, ` +
  `src ${JSON.stringify(c.src.shape)} ${c.src.dtype}`;

test("the suite is large and mixed", () => {
  assert.ok(calls.length >= 1000, `only ${calls.length} calls`);
  const refused = calls.filter((c) => c.message).length;
  assert.ok(refused > 200 && calls.length - refused > 200);
  const modes = new Set(calls.map((c) => `${c.reduce} ${c.include_self}`));
  assert.equal(modes.size, 11); // none, and 5 reductions with and without the old value
  assert.ok(
    calls.some((c) => c.writes && new Set(c.writes.map((w) => w[0].join())).size < c.writes.length),
  );
  assert.ok(calls.some((c) => c.x.dtype === "float64" && c.writes));
});

test("rules, writes and outputs agree with gl.reference and torch on every call", () => {
  const disagreements = [];
  for (const c of calls) {
    try {
      const problems = scatterProblems(c.x, c.dim, c.index, c.src, c.scalar);
      if (c.message) {
        assert.equal(problems[0]?.message, c.message);
        continue;
      }
      assert.deepEqual(problems, []);
      const writes = scatterWrites(c.x, c.dim, c.index, c.src);
      assert.deepEqual(
        writes.map((w) => [w.to, w.value]),
        c.writes,
      );
      const { output } = scatterResult(c.x, writes, c.reduce, c.include_self);
      assert.deepEqual(output.shape, c.output.shape);
      if (c.x.dtype.startsWith("float"))
        output.data.forEach((v, k) =>
          assert.ok(
            Math.abs(v - c.output.data[k]) <= 1e-9 * Math.max(1, Math.abs(v)),
            `${v} vs ${c.output.data[k]}`,
          ),
        );
      else assert.deepEqual(output.data, c.output.data);
    } catch (error) {
      disagreements.push(`${describe(c)}: ${error.message.slice(0, 300)}`);
    }
  }
  assert.deepEqual(disagreements.slice(0, 5), []);
});

test("a collision says what stays", () => {
  const x = { shape: [3], data: [10, 11, 12], dtype: "int64" };
  const writes = [
    { from: [0], to: [1], value: 100 },
    { from: [1], to: [1], value: 101 },
  ];
  const { output } = scatterResult(x, writes, "sum", true);
  assert.deepEqual(output.data, [10, 212, 12]);
  assert.equal(
    collisionLine([1], [100, 101], 11, 212, "sum", true, "int64"),
    "out[1] ← 100, 101: sum(11, 100, 101) = 212 (old 11 included)",
  );
  assert.equal(
    collisionLine([1], [100, 101], 11, 101, "none", true, "int64"),
    "out[1] ← 100, 101: one write stays (101 here); PyTorch promises none of them",
  );
  const mean = scatterResult(
    { shape: [1], data: [-5], dtype: "int64" },
    [
      { from: [0], to: [0], value: -2 },
      { from: [1], to: [0], value: 0 },
    ],
    "mean",
    true,
  );
  assert.deepEqual(mean.output.data, [-3]); // floor division, as torch's integer mean
});
