// The browser's copy of gatherlab's rules: parse what a reader types, diagnose a
// gather-family call as gl.diagnose does, and trace it as gl.trace does. Pure functions
// (no DOM); tests/js/agreement.test.mjs checks them against cases generated from Python.
// A tensor is {shape: [..], data: [..] (row-major), dtype: "int64" | "float64" | ...}.
// The rules' words are rules.mjs's, the file gatherlab/diagnose.py renders from.

import { floatRepr, parse, PyError, strRepr, UnsupportedError } from "../interpreter/python.mjs";
import RULES from "../rules.mjs";

export const OPS = ["gather", "take_along_dim", "take", "index_select"];
export const MAX_ENTRIES = 36;
export const MAX_RANK = 4; // gatherlab.widgets._parse.MAX_RANK
const INDEX_DTYPES = {
  gather: ["int64", "int32"],
  index_select: ["int64", "int32"],
  take_along_dim: ["int64"],
  take: ["int64"],
};

export class ParseError extends Error {}

const prod = (shape) => shape.reduce((a, b) => a * b, 1);
const coord = (at) => at.join(", ");
export const entry = (name, at) => (at.length ? `${name}[${coord(at)}]` : name);
// Is a dtype name a floating-point one (float16, bfloat16, float32, float64; half,
// double)? The one such test of the browser's engine.
export const isFloat = (dtype) => /^(b?float|half|double)/.test(dtype);

// Python's repr of a small list: [1, 2] and ints; used in messages (shape lists).
const pyList = (values) => `[${values.join(", ")}]`;
const pyTuple = (values) => (values.length === 1 ? `(${values[0]},)` : `(${values.join(", ")})`);
export { pyTuple };

// gatherlab.trace.format_value: Python's f"{value:.4g}" for a float (rounding the
// exact binary value half to even, as Python does: 12345.0 gives 1.234e+04), bools as
// True and False, integers as they are; `precision` gives f"{value:.7g}" and the rest.
export function formatValue(value, dtype = "int64", precision = 4) {
  if (dtype === "bool") return value ? "True" : "False";
  if (!isFloat(dtype)) return String(value);
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  if (value === 0) return Object.is(value, -0) ? "-0" : "0";
  let [digits, exponent] = significant(Math.abs(value), precision);
  const sign = value < 0 ? "-" : "";
  const strip = (text) => (text.includes(".") ? text.replace(/\.?0*$/, "") : text);
  if (exponent < -4 || exponent >= precision) {
    const mantissa = strip(`${digits[0]}.${digits.slice(1)}`);
    const e = `${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    return `${sign}${mantissa}e${e}`;
  }
  if (exponent < 0) digits = "0".repeat(-exponent) + digits;
  const point = Math.max(exponent, 0) + 1;
  return sign + strip(`${digits.slice(0, point)}.${digits.slice(point)}`);
}

// The first `count` significant digits of a positive double and its decimal exponent,
// from its exact decimal expansion, rounded half to even.
/** @returns {[string, number]} */
function significant(value, count) {
  const [all, power] = exactDecimal(value);
  let exponent = power;
  const rest = all.slice(count);
  let kept = BigInt(all.slice(0, count).padEnd(count, "0"));
  const half = rest[0] === "5" && /^5?0*$/.test(rest);
  if (rest[0] > "5" || (rest[0] === "5" && (!half || kept % 2n === 1n))) kept += 1n;
  let text = kept.toString();
  if (text.length > count) {
    text = text.slice(0, count);
    exponent += 1;
  }
  return [text, exponent];
}

// A positive finite double exactly, as its decimal digits and the exponent of the
// first: mantissa * 2**e is mantissa * 5**-e / 10**-e for a negative e.
/** @returns {[string, number]} */
function exactDecimal(value) {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, value);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased ? fraction | (1n << 52n) : fraction;
  const e = (biased || 1) - 1075;
  if (e >= 0) {
    const digits = (mantissa << BigInt(e)).toString();
    return [digits, digits.length - 1];
  }
  const digits = (mantissa * 5n ** BigInt(-e)).toString();
  return [digits, digits.length - 1 + e];
}

// ---- parsing: the same language as gatherlab.widgets._parse (nested lists of numbers,
// read as ast.literal_eval reads them, with python.mjs's grammar, the evaluator's)

export function parseTensor(text, name = "the tensor") {
  const source = text.trim();
  const unreadable = () =>
    new ParseError(
      `could not read ${strRepr(source)} as a list of numbers; ` + "write it like [[2, 0], [1, 1]]",
    );
  let program;
  try {
    program = parse(source);
  } catch (error) {
    // literal_eval's errors, and RecursionError: a list nested too deep to parse
    if ([PyError, UnsupportedError, RangeError].some((kind) => error instanceof kind))
      throw unreadable();
    throw error;
  }
  if (program.length !== 1 || program[0].s !== "expr") throw unreadable();
  const parsed = literalValue(program[0].value, unreadable);
  const shape = shapeOf(parsed, "the list");
  const flat = [];
  const walk = (item) => (Array.isArray(item) ? item.forEach(walk) : flat.push(item));
  walk(parsed);
  const dtype = flat.some((item) => item.float) ? "float64" : "int64";
  if (dtype === "int64" && flat.some((item) => !Number.isSafeInteger(item.number)))
    throw unreadable();
  const data = flat.map((item) => (item.float ? item.number : item.number + 0));
  return checkedTensor({ shape, data, dtype }, name);
}

// What ast.literal_eval accepts, from the parsed tree: constants, lists and tuples of
// them, and a sign on a number; a number as {number, float}, another constant as
// {other: its repr}. Anything else is `unreadable()`.
function literalValue(node, unreadable) {
  const isNumber = (item) => item.e === "const" && ["int", "float"].includes(item.v.t);
  const number = (v, sign = 1) => ({ number: sign * v.v, float: v.t === "float" });
  if (node.e === "list" || node.e === "tuple")
    return node.items.map((item) => literalValue(item, unreadable));
  if (node.e === "unary" && ["-", "+"].includes(node.op) && isNumber(node.value))
    return number(node.value.v, node.op === "-" ? -1 : 1);
  if (node.e !== "const") throw unreadable();
  const { v } = node;
  if (isNumber(node)) return number(v);
  const other = { bool: v.v ? "True" : "False", none: "None", ellipsis: "Ellipsis" }[v.t];
  return { other: other ?? strRepr(v.v) };
}

function shapeOf(value, where) {
  if (value.other !== undefined)
    throw new ParseError(`${where} is ${value.other}; only whole numbers and decimals can go here`);
  if (!Array.isArray(value)) return [];
  const shapes = value.map((item, k) => shapeOf(item, `${where}[${k}]`));
  const texts = new Set(shapes.map((shape) => shape.join(",")));
  if (texts.size > 1)
    throw new ParseError(`the rows of ${where} have different lengths; make them equal`);
  return [value.length, ...(shapes[0] ?? [])];
}

export function checkedTensor(tensor, name = "the tensor") {
  if (tensor.shape.length > MAX_RANK)
    throw new ParseError(
      `${name} has ${tensor.shape.length} dims; the explorers show at most ${MAX_RANK}`,
    );
  if (tensor.data.length > MAX_ENTRIES)
    throw new ParseError(
      `${name} has ${tensor.data.length} entries; the explorers show at most ` +
        `${MAX_ENTRIES} (use gl.trace for bigger tensors)`,
    );
  return tensor;
}

export function formatTensor(tensor) {
  const { shape, data, dtype } = tensor;
  const show = (v) => (isFloat(dtype) ? floatRepr(v) : String(v));
  const build = (axis, offset) => {
    if (axis === shape.length) return show(data[offset]);
    const stride = prod(shape.slice(axis + 1));
    const items = [];
    for (let k = 0; k < shape[axis]; k++) items.push(build(axis + 1, offset + k * stride));
    return `[${items.join(", ")}]`;
  };
  return build(0, 0);
}

// ---- coordinates

export function coords(shape) {
  const all = [];
  const n = prod(shape);
  for (let flat = 0; flat < n; flat++) all.push(unravel(flat, shape));
  return all;
}

export function unravel(flat, shape) {
  const at = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    at[d] = flat % shape[d];
    flat = Math.floor(flat / shape[d]);
  }
  return at;
}

export function ravel(at, shape) {
  let flat = 0;
  for (let d = 0; d < shape.length; d++) flat = flat * shape[d] + at[d];
  return flat;
}

export const valueAt = (tensor, at) => tensor.data[ravel(at, tensor.shape)];

// ---- diagnose: gatherlab.diagnose for torch tensors on one device

// "a list", "an int": a type's name as a sentence says it (rules.with_article).
export const withArticle = (name) =>
  `${"aeiou".includes(name[0]?.toLowerCase()) ? "an" : "a"} ${name}`;

// rules.mjs's {field} templates, filled as gatherlab.diagnose._fill fills them.
export function fill(template, fields) {
  return template.replace(/\{([a-z_]+)\}/g, (_, name) => {
    if (!(name in fields)) throw new Error(`no field ${name} for ${template}`);
    return String(fields[name]);
  });
}

const phrase = (name, fields = {}) => fill(RULES.phrases[name], fields);

// gatherlab.diagnose.rule_problem: the rule worded by its message and hint templates.
export function problem(rule, message, hint = "", fields = {}, where = null) {
  const texts = RULES.rules[rule];
  return {
    rule,
    message: fill(texts.messages[message], fields),
    hint: hint ? fill(texts.hints[hint], fields) : "",
    where,
  };
}

function dimProblem(dim, ndim, scalarHasDim = true) {
  if (ndim === 0 && !scalarHasDim) return problem("dim-range", "no-dims", "no-dims", { dim });
  const rank = Math.max(ndim, 1);
  if (-rank <= dim && dim < rank) return null;
  // one past the last: the last dim counted from 1 (R's torch numbers dims so)
  const words = dim === ndim ? "one-past" : "out-of-range";
  return problem("dim-range", words, words, {
    dim,
    ndim,
    low: -rank,
    high: rank - 1,
  });
}

function dtypeProblem(op, index, allowed = INDEX_DTYPES[op]) {
  if (allowed.includes(index.dtype)) return null;
  return problem("index-dtype", "index-dtype", "index-dtype", {
    dtype: index.dtype,
    op,
    allowed: allowed.join(phrase("or")),
  });
}

function valueProblems(index, size, axisText, wrapNegative = false) {
  const low = wrapNegative ? -size : 0;
  const firsts = [];
  const kinds = wrapNegative
    ? [["index-out-of-range", (v) => v < low || v >= size]]
    : [
        ["negative-index", (v) => v < 0],
        ["index-out-of-range", (v) => v >= size],
      ];
  for (const [kind, bad] of kinds) {
    const flat = index.data.findIndex(bad);
    if (flat >= 0) firsts.push([flat, kind]);
  }
  firsts.sort((a, b) => a[0] - b[0]);
  return firsts.map(([flat, kind]) =>
    positionProblem(kind, unravel(flat, index.shape), index.data[flat], size, axisText, low),
  );
}

function positionProblem(kind, at, value, size, axisText, low) {
  const valid = size ? phrase("valid-range", { low, high: size - 1 }) : phrase("no-valid-position");
  const fields = { entry: entry("index", at), value, axis: axisText, valid };
  if (kind === "negative-index") {
    const hint = -size <= value ? "in-python" : "from-zero";
    return problem(kind, kind, hint, { ...fields, fixed: size + value }, at);
  }
  const hint = low < 0 ? "from-end" : "from-zero";
  return problem(kind, kind, hint, { ...fields, size, low }, at);
}

const shape1 = (tensor) => (tensor.shape.length ? tensor.shape : [1]);
const wrap = (dim, rank) => ((dim % rank) + rank) % rank;

function diagnoseGather(input, dim, index) {
  const bad = dimProblem(dim, input.shape.length);
  if (bad) return [bad];
  if (index.data.length === 0) return [];
  const dtype = dtypeProblem("gather", index);
  if (dtype) return [dtype];
  const source = shape1(input);
  const positions = shape1(index);
  if (source.length !== positions.length)
    return [
      problem(
        "rank-mismatch",
        // fewer dims: the index read as whole slices (tf.gather, index_select)
        positions.length < source.length ? "gather-fewer" : "gather",
        rankFix(index.shape.length, input.shape.length, "add-then-expand"),
        { index_rank: index.shape.length, input_rank: input.shape.length },
      ),
    ];
  const wrapped = wrap(dim, source.length);
  const tooLarge = [];
  source.forEach((s, d) => {
    const i = positions[d];
    if (d !== wrapped && i > s)
      tooLarge.push(
        problem("index-too-large", "index-too-large", "index-too-large", {
          axis: d,
          index_size: i,
          input_size: s,
          dim: wrapped,
        }),
      );
  });
  if (tooLarge.length) return tooLarge;
  return valueProblems(index, source[wrapped], axisText(input.shape.length, wrapped));
}

const axisText = (ndim, dim) => (ndim ? phrase("dim-of-input", { dim }) : phrase("scalar-input"));

// The hint that adds the missing axis, or removes the extra one: never the wrong way
// round (gatherlab.diagnose._rank_fix; `add` names the adding hint).
const rankFix = (indexRank, inputRank, add = "add") => (indexRank > inputRank ? "remove" : add);

function broadcastForTakeAlongDim(sourceShape, indexShape, dim) {
  const others = sourceShape.map((s, d) => {
    const a = d === dim ? 1 : s;
    const b = d === dim ? 1 : indexShape[d];
    return a === 1 ? b : a;
  });
  const along = (shape) => others.map((s, d) => (d === dim ? shape[dim] : s));
  return [along(sourceShape), along(indexShape)];
}

function diagnoseTakeAlongDim(input, index, dim) {
  if (dim === null) {
    if (index.data.length === 0) return [];
    const dtype = dtypeProblem("take_along_dim", index, INDEX_DTYPES.gather);
    if (dtype) return [dtype];
    return valueProblems(index, input.data.length, phrase("flattened-input"));
  }
  const ndim = input.shape.length;
  if (ndim !== index.shape.length)
    return [
      problem("rank-mismatch", "take_along_dim", rankFix(index.shape.length, ndim), {
        index_rank: index.shape.length,
        input_rank: ndim,
      }),
    ];
  const bad = dtypeProblem("take_along_dim", index) || dimProblem(dim, ndim, false);
  if (bad) return [bad];
  const wrapped = wrap(dim, ndim);
  for (let d = ndim - 1; d >= 0; d--) {
    const s = input.shape[d];
    const i = index.shape[d];
    if (d !== wrapped && s !== i && s !== 1 && i !== 1)
      return [
        problem("broadcast-mismatch", "broadcast-mismatch", "broadcast-mismatch", {
          axis: d,
          input_size: s,
          index_size: i,
          dim: wrapped,
        }),
      ];
  }
  const [, indexTo] = broadcastForTakeAlongDim(input.shape, index.shape, wrapped);
  if (input.shape[wrapped] === 0 && prod(indexTo))
    return [problem("empty-input", "take_along_dim", "take", { dim: wrapped })];
  return [];
}

function diagnoseTake(input, index) {
  const dtype = dtypeProblem("take", index);
  if (dtype) return [dtype];
  if (index.data.length === 0) return [];
  if (input.data.length === 0) return [problem("empty-input", "take", "take")];
  return valueProblems(index, input.data.length, phrase("flattened-input"), true);
}

function diagnoseIndexSelect(input, dim, index) {
  const ndim = input.shape.length;
  const bad = dimProblem(dim, ndim);
  if (bad) return [bad];
  if (index.shape.length > 1)
    return [
      problem("index-not-vector", "index-not-vector", "index-not-vector", {
        rank: index.shape.length,
      }),
    ];
  if (ndim === 0 && index.data.length !== 1)
    return [
      problem("scalar-index-count", "scalar-index-count", "scalar-index-count", {
        count: index.data.length,
      }),
    ];
  const dtype = dtypeProblem("index_select", index);
  if (dtype) return [dtype];
  const wrapped = wrap(dim, Math.max(ndim, 1));
  const size = ndim ? input.shape[wrapped] : 1;
  if (size === 0 && index.data.length && ndim > 1)
    return [problem("empty-input", "index_select", "select", { dim: wrapped })];
  return valueProblems(index, size, axisText(ndim, wrapped));
}

export function diagnose(input, dim, index, op = "gather") {
  if (!OPS.includes(op))
    return [problem("unknown-op", "unknown-op", "", { ops: OPS.join(", "), op: `'${op}'` })];
  if (op === "gather") return diagnoseGather(input, dim, index);
  if (op === "take_along_dim") return diagnoseTakeAlongDim(input, index, dim);
  if (op === "take") return diagnoseTake(input, index);
  return diagnoseIndexSelect(input, dim, index);
}

// ---- trace: gatherlab.trace; each step {out, index_at, position, used, source, value, flat}

export class RuleError extends Error {
  constructor(problems) {
    super(problems.map((p) => p.message).join("; "));
    this.problems = problems;
  }
}

function gatherSteps(input, dim, index) {
  if (index.data.length === 0) return { shape: index.shape, steps: [] };
  const source = { shape: shape1(input), data: input.data };
  const indexShape = shape1(index);
  const steps = coords(indexShape).map((out, k) => {
    const position = index.data[k];
    const read = out.slice();
    read[dim] = position;
    return {
      out: out.slice(0, index.shape.length),
      index_at: out.slice(0, index.shape.length),
      position,
      used: position,
      source: read.slice(0, input.shape.length),
      value: valueAt(source, read),
      flat: null,
    };
  });
  return { shape: index.shape, steps };
}

function indexSelectSteps(input, dim, index) {
  const sourceShape = shape1(input);
  const shared = index.data;
  const shape = sourceShape.map((s, d) => (d === dim ? shared.length : s));
  const steps = coords(shape).map((out) => {
    const k = out[dim];
    const read = out.slice();
    read[dim] = shared[k];
    return {
      out: out.slice(0, input.shape.length),
      index_at: [k].slice(0, index.shape.length),
      position: shared[k],
      used: shared[k],
      source: read.slice(0, input.shape.length),
      value: valueAt({ shape: sourceShape, data: input.data }, read),
      flat: null,
    };
  });
  return { shape: shape.slice(0, input.shape.length), steps };
}

function takeSteps(input, index) {
  const size = input.data.length;
  const steps = coords(index.shape).map((out, k) => {
    const position = index.data[k];
    const used = position < 0 ? position + size : position;
    return {
      out,
      index_at: out,
      position,
      used,
      source: unravel(used, input.shape),
      value: input.data[used],
      flat: used,
    };
  });
  return { shape: index.shape, steps };
}

function takeAlongDimSteps(input, dim, index) {
  const [, indexShape] = broadcastForTakeAlongDim(input.shape, index.shape, dim);
  const size = input.shape[dim];
  const steps = coords(indexShape).map((out) => {
    const indexAt = out.map((c, d) => (index.shape[d] === 1 ? 0 : c));
    const position = valueAt(index, indexAt);
    const used = ((position % size) + size) % size;
    const read = out.map((c, d) => (input.shape[d] === 1 ? 0 : c));
    read[dim] = used;
    return {
      out,
      index_at: indexAt,
      position,
      used,
      source: read,
      value: valueAt(input, read),
      flat: null,
    };
  });
  return { shape: indexShape, steps };
}

function flatTakeAlongDimSteps(input, index) {
  const steps = index.data.map((position, k) => ({
    out: [k],
    index_at: unravel(k, index.shape),
    position,
    used: position,
    source: unravel(position, input.shape),
    value: input.data[position],
    flat: position,
  }));
  return { shape: [index.data.length], steps };
}

// The trace of torch.<op>(input, dim, index): {op, dim, shape (of out), steps,
// output}; a RuleError with diagnose's problems for an invalid call.
export function trace(input, dim, index, op = "gather") {
  const problems = diagnose(input, dim, index, op);
  if (problems.length) throw new RuleError(problems);
  let result;
  let wrapped = null;
  if (op === "take") result = takeSteps(input, index);
  else if (op === "take_along_dim" && dim === null) result = flatTakeAlongDimSteps(input, index);
  else {
    wrapped = wrap(dim, Math.max(input.shape.length, 1));
    if (op === "take_along_dim") result = takeAlongDimSteps(input, wrapped, index);
    else if (op === "index_select") result = indexSelectSteps(input, wrapped, index);
    else result = gatherSteps(input, wrapped, index);
  }
  const output = {
    shape: result.shape,
    data: result.steps.map((step) => step.value),
    dtype: input.dtype,
  };
  return { op, dim: wrapped, shape: result.shape, steps: result.steps, output };
}

// out[0, 1] ← index[0, 1] = 0 → x[0, 0] = 11
export function traceLine(step, dtype, sourceName = "x") {
  const used = step.used !== step.position ? ` (wraps to ${step.used})` : "";
  const via = step.flat !== null ? `flat ${step.flat} = ` : "";
  return (
    `${entry("out", step.out)} ← ${entry("index", step.index_at)} = ` +
    `${step.position}${used} → ${via}${entry(sourceName, step.source)} = ` +
    formatValue(step.value, dtype)
  );
}

export const shapeText = (shape) => pyTuple(shape);
export const listText = pyList;

// ---- the ops only the libraries run: advanced indexing and TensorFlow's three forms,
// for an int64 index (what a reader types). Each gives {name, code} with its output and
// the source coordinates it read, or the `form` rule the chapter states, or
// `raises`: the library refuses the call (its own message needs a running notebook).
// Another index dtype is `refused`: the libraries check those themselves.

function selected(x, shape, readAt) {
  const reads = [];
  for (const out of coords(shape)) {
    const at = readAt(out);
    if (at === null) return null; // a position the library refuses
    reads.push(at);
  }
  const output = { shape, data: reads.map((at) => valueAt(x, at)), dtype: x.dtype };
  return { output, reads };
}

function result(name, code, found, raises) {
  if (found === null) return { name, code, raises };
  return { name, code, ...found };
}

export function libraryOps(x, index, dim) {
  const rank = x.shape.length;
  const size = x.shape[dim];
  const integer = /^u?int/.test(index.dtype);
  const form = (name, code, message) => ({ name, code, problems: [problem("form", message)] });
  const torchRaises = "PyTorch raises IndexError here";
  const tfRaises = "TensorFlow raises InvalidArgumentError here on a CPU";
  const ops = [];
  // x[index, torch.arange(...)[None, :], ...]: negative positions wrap, as in Python
  if (index.shape.length !== rank || !integer || index.data.length === 0)
    ops.push(form("advanced indexing", "x[coordinates]", "indexing"));
  else if (index.dtype !== "int64")
    ops.push({ name: "advanced indexing", code: "x[coordinates]", refused: true });
  else {
    const parts = x.shape.map((_, d) =>
      d === dim
        ? "index"
        : `torch.arange(${index.shape[d]})[${x.shape
            .map((__, k) => (k === d ? ":" : "None"))
            .join(", ")}]`,
    );
    const found = selected(x, index.shape, (out) => {
      const at = out.slice();
      const p = valueAt(index, out);
      if (p < -size || p >= size) return null;
      at[dim] = p < 0 ? p + size : p;
      return at.every((c, d) => c < x.shape[d]) ? at : null;
    });
    ops.push(result("advanced indexing", `x[${parts.join(", ")}]`, found, torchRaises));
  }
  const inRange = (p) => p >= 0 && p < size;
  // tf.gather(x, index, axis=dim, batch_dims=dim): the leading dims pair up
  const batchCode = `tf.gather(x, index, axis=${dim}, batch_dims=${dim})`;
  const plainCode = `tf.gather(x, index, axis=${dim})`;
  if (index.dtype !== "int64") {
    ops.push({ name: "tf.gather batch_dims", code: batchCode, refused: true });
    ops.push({ name: "tf.gather", code: plainCode, refused: true });
  } else {
    const lead = index.shape.slice(0, dim);
    const fits = index.shape.length >= dim && lead.every((s, d) => s === x.shape[d]);
    const batchShape = [
      ...x.shape.slice(0, dim),
      ...index.shape.slice(dim),
      ...x.shape.slice(dim + 1),
    ];
    const batch = !fits
      ? null
      : selected(x, batchShape, (out) => {
          const k = index.shape.length;
          const p = valueAt(index, out.slice(0, k));
          return inRange(p) ? [...out.slice(0, dim), p, ...out.slice(k)] : null;
        });
    ops.push(result("tf.gather batch_dims", batchCode, batch, tfRaises));
    const plainShape = [...x.shape.slice(0, dim), ...index.shape, ...x.shape.slice(dim + 1)];
    const plain = selected(x, plainShape, (out) => {
      const k = index.shape.length;
      const p = valueAt(index, out.slice(dim, dim + k));
      return inRange(p) ? [...out.slice(0, dim), p, ...out.slice(dim + k)] : null;
    });
    ops.push(result("tf.gather", plainCode, plain, tfRaises));
  }
  // tf.gather_nd(x, coordinates): index on dim, arange on every other axis
  const ndCode = "tf.gather_nd(x, coordinates)";
  if (index.shape.length !== rank || !integer) ops.push(form("tf.gather_nd", ndCode, "gather-nd"));
  else if (index.dtype !== "int64") ops.push({ name: "tf.gather_nd", code: ndCode, refused: true });
  else {
    const found = selected(x, index.shape, (out) => {
      const at = out.slice();
      at[dim] = valueAt(index, out);
      return inRange(at[dim]) && at.every((c, d) => c < x.shape[d]) ? at : null;
    });
    ops.push(result("tf.gather_nd", ndCode, found, tfRaises));
  }
  return ops;
}
