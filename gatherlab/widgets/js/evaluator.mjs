// A small, safe evaluator for the lines a learner writes in an exercise box: it runs
// what python.mjs parses (a subset of Python: assignments, for/if blocks, raise, assert,
// return, expressions) with the part of torch and TensorFlow the chapters teach.
// It never calls eval or Function: every name it knows is in the tables below, and
// anything else is refused with an UnsupportedError that names it.
// tests/js/evaluator.test.mjs checks it against torch and TensorFlow (tools/evaluator_cases.py).
// A tensor is {t: "tensor", lib: "torch" | "tf", dtype, shape: [..], data: [..] row-major}.

import { diagnose, formatValue, isFloat, unravel } from "./core.mjs";
import { ELLIPSIS, NONE, PyError, UnsupportedError, floatRepr, parse, pyInt, strRepr } from "./python.mjs";
import { REDUCTIONS, scatterProblems, scatterResult, scatterWrites } from "./scatter.mjs";

export { PyError, UnsupportedError, parse } from "./python.mjs";

// The code called an op the exercise asks it not to use (gatherlab's ForbiddenOpError).
export class ForbiddenError extends Error {
  constructor(name) {
    super(`${name} is not allowed in this exercise`);
    this.name_ = name;
  }
}

const MAX_STEPS = 200000;
const MAX_ENTRIES = 100000;

// ------------------------------------------------------------------ values

const pyFloat = (v) => ({ t: "float", v });
const pyBool = (v) => ({ t: "bool", v: Boolean(v) });
const tuple = (items) => ({ t: "tuple", items });
const list = (items) => ({ t: "list", items });

const prod = (shape) => shape.reduce((a, b) => a * b, 1);
const INTS = ["uint8", "int8", "int16", "int32", "int64"];
const isIntDtype = (d) => INTS.includes(d);
const category = (d) => (d === "bool" ? 0 : isIntDtype(d) ? 1 : 2);
const RANK = { bool: 0, uint8: 1, int8: 1, int16: 2, int32: 3, int64: 4, float16: 5, bfloat16: 5, float32: 6, float64: 7 };

function cast(value, dtype) {
  if (dtype === "bool") return value ? 1 : 0;
  if (isIntDtype(dtype)) {
    const whole = Math.trunc(value);
    if (dtype === "int32") return whole | 0;
    return whole === 0 ? 0 : whole;
  }
  if (dtype === "float32") return Math.fround(value);
  return value;
}

export function tensor(shape, data, dtype, lib = "torch") {
  if (data.length > MAX_ENTRIES) throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
  return { t: "tensor", lib, dtype, shape, data };
}

// A payload value {dtype, shape, data} (gatherlab/exercises/page.py) as a tensor.
// A value with "strides" is a view whose entries share memory (the notebook's expanded
// tensor, stride 0 where it repeats an entry): the page's shares it alike.
export function fromPayload(value, lib = "torch") {
  if (value && value.dtype !== undefined) {
    const data = value.data.map((v) => cast(fromJsonNumber(v), value.dtype));
    if (!value.strides) return tensor(value.shape, data, value.dtype, lib);
    const layout = { storage: [], offset: 0, strides: value.strides };
    offsetsOf(value.shape, layout).forEach((o, k) => {
      layout.storage[o] = data[k];
    });
    for (let o = 0; o < layout.storage.length; o++) layout.storage[o] ??= 0;  // no entry reads it
    return viewTensor(tensor([layout.storage.length], layout.storage, value.dtype, lib), value.shape.slice(), layout);
  }
  return fromJson(value);
}

function fromJson(value) {
  if (value === null) return NONE;
  if (typeof value === "boolean") return pyBool(value);
  if (typeof value === "number") return Number.isInteger(value) ? pyInt(value) : pyFloat(value);
  if (typeof value === "string") return { t: "str", v: value };
  if (Array.isArray(value)) return list(value.map(fromJson));
  throw new UnsupportedError("this argument");
}

// JSON has no inf or nan: payloads write them as Python prints them.
const NON_FINITE = { inf: Infinity, "-inf": -Infinity, nan: NaN };
const fromJsonNumber = (v) => (typeof v === "string" ? NON_FINITE[v] : Number(v));
const toJsonNumber = (v) => (Number.isFinite(v) ? v : Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf");

// A tensor as {dtype, shape, data} (data as JSON numbers or booleans).
export function toPayload(value) {
  const t = asTensorLoose(value);
  const data = t.dtype === "bool" ? t.data.map((v) => Boolean(v)) : t.data.map(toJsonNumber);
  return { dtype: t.dtype, shape: t.shape.slice(), data };
}

function asTensorLoose(value) {
  if (value.t === "tensor") return value;
  return fromSequence(value, null, "torch");
}

const typeName = (value) => {
  if (value.t === "tensor") return value.lib === "tf" ? "tf.Tensor" : "Tensor";
  return { int: "int", float: "float", bool: "bool", none: "NoneType", str: "str", list: "list",
    tuple: "tuple", ellipsis: "ellipsis", dtype: "torch.dtype", module: "module",
    func: "builtin_function_or_method", range: "range" }[value.t] ?? value.t;
};

function isNumber(value) {
  return value.t === "int" || value.t === "float" || value.t === "bool";
}
const numberOf = (value) => (value.t === "bool" ? (value.v ? 1 : 0) : value.v);

function toInt(value, what = "an integer") {
  if (value.t === "int") return value.v;
  if (value.t === "bool") return value.v ? 1 : 0;
  if (value.t === "tensor" && value.data.length === 1 && !isFloat(value.dtype) && value.shape.length === 0)
    return value.data[0];
  throw new PyError("TypeError", `expected ${what}, got ${typeName(value)}`);
}

function sizesFrom(args, name) {
  // f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size)
  if (args.length === 1 && (args[0].t === "tuple" || args[0].t === "list"))
    return args[0].items.map((v) => toInt(v, `${name}'s sizes to be ints`));
  if (args.length === 1 && args[0].t === "tensor" && args[0].shape.length === 1 && !isFloat(args[0].dtype))
    return args[0].data.slice();
  return args.map((v) => toInt(v, `${name}'s sizes to be ints`));
}

// ---- building tensors from Python values (torch.tensor, tf.constant, indices)

function fromSequence(value, dtype, lib) {
  const flat = [];
  let sawFloat = false;
  let sawInt = false;
  let sawBool = false;
  let sourceDtype = null;
  const shapeOf = (item) => {
    if (item.t === "list" || item.t === "tuple") {
      const shapes = item.items.map(shapeOf);
      const texts = new Set(shapes.map((s) => s.join(",")));
      if (texts.size > 1)
        throw new PyError("ValueError", `expected sequence of length ${shapes[0][0] ?? 0} at dim 1 (got ${shapes.find((s) => s.join(",") !== shapes[0].join(","))[0]})`);
      return [item.items.length, ...(shapes[0] ?? [])];
    }
    if (item.t === "tensor") {
      sourceDtype = item.dtype;
      return item.shape.slice();
    }
    if (!isNumber(item)) throw new PyError("TypeError", `could not make a tensor of ${typeName(item)}`);
    return [];
  };
  const shape = shapeOf(value);
  const walk = (item) => {
    if (item.t === "list" || item.t === "tuple") return item.items.forEach(walk);
    if (item.t === "tensor") {
      for (const v of item.data) flat.push(v);
      if (isFloat(item.dtype)) sawFloat = true;
      else if (item.dtype === "bool") sawBool = true;
      else sawInt = true;
      return;
    }
    if (item.t === "float") sawFloat = true;
    else if (item.t === "bool") sawBool = true;
    else sawInt = true;
    flat.push(numberOf(item));
  };
  walk(value);
  let inferred;
  if (value.t === "tensor") inferred = value.dtype;
  else if (sawFloat) inferred = lib === "tf" ? "float32" : sourceDtype && isFloat(sourceDtype) ? sourceDtype : "float32";
  else if (sawInt) inferred = lib === "tf" ? "int32" : "int64";
  else if (sawBool) inferred = "bool";
  else inferred = "float32";  // an empty list
  const target = dtype ?? inferred;
  if (lib === "tf" && dtype && isIntDtype(dtype) && sawFloat)
    throw new PyError("TypeError", `Cannot convert a float to an integer tensor of dtype ${dtype}`);
  return tensor(shape, flat.map((v) => cast(v, target)), target, lib);
}

function asTensor(value, lib = "torch", like = null) {
  if (value.t === "tensor") return value;
  if (isNumber(value)) {
    let dtype;
    if (like && lib === "tf") dtype = like.dtype;
    else dtype = value.t === "float" ? "float32" : value.t === "bool" ? "bool" : lib === "tf" ? "int32" : "int64";
    return { ...tensor([], [cast(numberOf(value), dtype)], dtype, lib), scalar: value.t };
  }
  if (value.t === "list" || value.t === "tuple") return fromSequence(value, null, lib);
  throw new PyError("TypeError", `expected a tensor, got ${typeName(value)}`);
}

// ------------------------------------------------------------------ shapes, broadcasting

function normDim(dim, rank, op = "") {
  const r = Math.max(rank, 1);
  if (dim < -r || dim >= r)
    throw new PyError("IndexError", `Dimension out of range (expected to be in range of [${-r}, ${r - 1}], but got ${dim})${op}`);
  return dim < 0 ? dim + r : dim;
}

function strides(shape) {
  const out = new Array(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = s;
    s *= Math.max(shape[d], 1);  // as torch's: a size-0 dim steps as a size-1 one
  }
  return out;
}

function forEachCoord(shape, fn) {
  const n = prod(shape);
  const at = new Array(shape.length).fill(0);
  for (let flat = 0; flat < n; flat++) {
    fn(at, flat);
    for (let d = shape.length - 1; d >= 0; d--) {
      if (++at[d] < shape[d]) break;
      at[d] = 0;
    }
  }
}

function broadcastShapes(a, b) {
  const rank = Math.max(a.length, b.length);
  const out = [];
  for (let k = 0; k < rank; k++) {
    const x = a[a.length - rank + k] ?? 1;
    const y = b[b.length - rank + k] ?? 1;
    if (x !== y && x !== 1 && y !== 1)
      throw new PyError("RuntimeError", `The size of tensor a (${x}) must match the size of tensor b (${y}) at non-singleton dimension ${k}`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

// The data of t read at every coordinate of `shape` (t's shape broadcasts to it).
function broadcastData(t, shape) {
  if (t.shape.length === shape.length && t.shape.every((s, d) => s === shape[d])) return t.data;
  const offset = shape.length - t.shape.length;
  const st = strides(t.shape);
  const out = new Array(prod(shape));
  forEachCoord(shape, (at, flat) => {
    let src = 0;
    for (let d = 0; d < t.shape.length; d++) if (t.shape[d] !== 1) src += at[d + offset] * st[d];
    out[flat] = t.data[src];
  });
  return out;
}

// torch's type promotion: dimensioned tensors, then 0-d tensors, then Python scalars;
// an operand of a lower priority counts only when its category (bool, int, float) is
// higher, and then as that category's default dtype.
function promote(a, b) {
  const level = (o) => (o.scalar ? 2 : o.shape.length === 0 ? 1 : 0);
  const dt = (o) => (o.scalar ? (o.scalar === "float" ? "float32" : o.scalar === "bool" ? "bool" : "int64") : o.dtype);
  const [first, second] = level(a) <= level(b) ? [a, b] : [b, a];
  const x = dt(first);
  const y = dt(second);
  if (level(first) === level(second)) {
    if (category(x) !== category(y)) return category(x) > category(y) ? x : y;
    return RANK[x] >= RANK[y] ? x : y;
  }
  if (category(y) > category(x)) {
    if (second.scalar) return y === "bool" ? x : y === "float32" ? "float32" : "int64";
    return y;
  }
  return x;
}

function tfDtypeCheck(a, b, name) {
  if (a.dtype !== b.dtype)
    throw new PyError("InvalidArgumentError", `cannot compute ${name} as input #1(zero-based) was expected to be a ${a.dtype} tensor but is a ${b.dtype} tensor`);
}

const floorDiv = (x, y) => Math.floor(x / y);
const pyMod = (x, y) => {
  const r = x % y;
  return r !== 0 && (r < 0) !== (y < 0) ? r + y : r;
};
function roundHalfEven(v) {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// JavaScript's & and | work on 32 bits; torch's and Python's on the whole integer.
function bitwise(x, y, f) {
  const small = (v) => v >= -(2 ** 31) && v < 2 ** 31;
  return small(x) && small(y) ? f(x, y) : Number(f(BigInt(x), BigInt(y)));
}

const ARITH = {
  "+": (x, y) => x + y,
  "-": (x, y) => x - y,
  "*": (x, y) => x * y,
  "/": (x, y) => x / y,
  "//": floorDiv,
  "%": pyMod,
  "**": (x, y) => x ** y,
  "&": (x, y) => bitwise(x, y, (a, b) => a & b),
  "|": (x, y) => bitwise(x, y, (a, b) => a | b),
  "<": (x, y) => (x < y ? 1 : 0),
  "<=": (x, y) => (x <= y ? 1 : 0),
  ">": (x, y) => (x > y ? 1 : 0),
  ">=": (x, y) => (x >= y ? 1 : 0),
  "==": (x, y) => (x === y ? 1 : 0),
  "!=": (x, y) => (x !== y ? 1 : 0),
};
const COMPARISONS = new Set(["<", "<=", ">", ">=", "==", "!="]);
const TF_NAMES = { "+": "AddV2", "-": "Sub", "*": "Mul", "/": "RealDiv", "//": "FloorDiv", "%": "FloorMod", "<": "Less", "<=": "LessEqual", ">": "Greater", ">=": "GreaterEqual", "==": "Equal", "!=": "NotEqual" };

function tensorBinary(op, left, right) {
  const lib = left.t === "tensor" ? left.lib : right.lib;
  const a = asTensor(left, lib, right.t === "tensor" ? right : null);
  const b = asTensor(right, lib, left.t === "tensor" ? left : null);
  let dtype;
  if (lib === "tf") {
    tfDtypeCheck(a, b, TF_NAMES[op] ?? op);
    dtype = a.dtype;
    if (op === "/" && isIntDtype(dtype)) dtype = "float64";
  } else dtype = promote(a, b);
  if ((op === "&" || op === "|") && isFloat(dtype))
    throw new PyError("NotImplementedError", `"bitwise_${op === "&" ? "and" : "or"}_cpu" not implemented for '${dtype === "float32" ? "Float" : "Double"}'`);
  if (op === "/" && !isFloat(dtype)) dtype = "float32";
  if ((op === "//" || op === "%") && !isFloat(dtype) && lib === "torch") {
    const zero = (op === "//" || op === "%") && b.data.some((v) => v === 0);
    if (zero) throw new PyError("RuntimeError", "ZeroDivisionError");
  }
  if ((op === "//" || op === "%") && dtype === "bool" && lib === "torch")
    throw new PyError("NotImplementedError", `"${op === "//" ? "div_floor" : "remainder"}_cpu" not implemented for 'Bool'`);
  if (op === "-" && (a.dtype === "bool" || b.dtype === "bool") && lib === "torch")
    throw new PyError("RuntimeError", "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.");
  const shape = broadcastShapes(a.shape, b.shape);
  const xs = broadcastData(a, shape);
  const ys = broadcastData(b, shape);
  const f = ARITH[op];
  const conv = (v) => cast(v, dtype);
  const data = new Array(xs.length);
  if (op === "/" && left.t !== "tensor" && dtype === "float32") {
    // torch's scalar / tensor is reciprocal(tensor) * scalar, rounded twice
    for (let k = 0; k < xs.length; k++) data[k] = Math.fround(Math.fround(1 / conv(ys[k])) * conv(xs[k]));
    return tensor(shape, data, dtype, lib);
  }
  for (let k = 0; k < xs.length; k++) {
    const x = conv(xs[k]);
    const y = conv(ys[k]);
    let v = f(x, y);
    if (dtype === "bool" && !COMPARISONS.has(op)) v = op === "*" || op === "&" ? (x && y ? 1 : 0) : op === "+" || op === "|" ? (x || y ? 1 : 0) : v;
    data[k] = v;
  }
  if (COMPARISONS.has(op)) return tensor(shape, data, "bool", lib);
  return tensor(shape, data.map((v) => cast(v, dtype)), dtype, lib);
}

// ------------------------------------------------------------------ memory: views and writes

// torch's views share their tensor's memory; so do the page's. A tensor that owns its
// memory holds its values row-major in `data`. A view that is not row-major over that
// memory (expand, basic indexing, transposes, and views of those) carries `alias` =
// {storage, offset, strides}: its entry at coordinate c is storage[offset + sum of
// c[d] * strides[d]], where storage is the owner's `data` (an expand's strides are 0
// where it repeats an entry). Its `data` is read from the storage again whenever the
// storage was written to since (VERSIONS), and a write into it goes to the
// storage: every tensor that shares the memory sees it, as in torch. torch's checks
// before a write are the page's too (assertNoOverlap).

const VERSIONS = new WeakMap();  // storage: how many writes it has had
const versionOf = (storage) => VERSIONS.get(storage) ?? 0;
const touched = (storage) => VERSIONS.set(storage, versionOf(storage) + 1);

export function layoutOf(t) {
  return t.alias ?? { storage: t.data, offset: 0, strides: strides(t.shape) };
}

// The storage position of every entry of a tensor of `shape` laid out as `layout`.
function offsetsOf(shape, layout) {
  const out = new Array(prod(shape));
  forEachCoord(shape, (at, flat) => {
    let o = layout.offset;
    for (let d = 0; d < at.length; d++) o += at[d] * layout.strides[d];
    out[flat] = o;
  });
  return out;
}

// A view of t's memory with its own shape and layout: a plain tensor sharing the
// storage where the layout is the storage's own row-major order, else an alias
// (TensorFlow's tensors are never written to: a copy).
function viewTensor(t, shape, layout) {
  const rowMajor = strides(shape);
  const plain = layout.offset === 0 && layout.storage.length === prod(shape) &&
    shape.every((s, d) => s <= 1 || layout.strides[d] === rowMajor[d]);
  if (plain) return tensor(shape, layout.storage, t.dtype, t.lib);
  const offsets = offsetsOf(shape, layout);
  if (t.lib === "tf") return tensor(shape, offsets.map((o) => layout.storage[o]), t.dtype, t.lib);
  if (offsets.length > MAX_ENTRIES) throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
  const out = { t: "tensor", lib: t.lib, dtype: t.dtype, shape };
  let cache = null;
  let seen = -1;
  Object.defineProperty(out, "alias", { value: layout, enumerable: false });
  Object.defineProperty(out, "data", {
    enumerable: true,
    get() {
      if (cache === null || seen !== versionOf(layout.storage)) {
        cache = offsets.map((o) => layout.storage[o]);
        seen = versionOf(layout.storage);
      }
      return cache;
    },
  });
  return out;
}

// torch's computeStride: the strides that read `layout`'s memory in `shape` without a
// copy, or null where none do (a view then raises, a reshape copies).
function viewStrides(oldShape, oldStrides, shape) {
  const kept = oldShape.map((s, d) => [s, oldStrides[d]]).filter(([s]) => s !== 1);
  if (prod(oldShape) === 0 || !kept.length) return strides(shape);
  const sizes = kept.map(([s]) => s);
  const steps = kept.map(([, st]) => st);
  const out = new Array(shape.length).fill(0);
  let viewD = shape.length - 1;
  let base = steps[steps.length - 1];
  let tensorNumel = 1;
  let viewNumel = 1;
  for (let d = sizes.length - 1; d >= 0; d--) {
    tensorNumel *= sizes[d];
    if (d === 0 || steps[d - 1] !== tensorNumel * base) {
      while (viewD >= 0 && (viewNumel < tensorNumel || shape[viewD] === 1)) {
        out[viewD] = viewNumel * base;
        viewNumel *= shape[viewD];
        viewD--;
      }
      if (viewNumel !== tensorNumel) return null;
      if (d > 0) {
        base = steps[d - 1];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  return viewD === -1 ? out : null;
}

export const INTERNAL_OVERLAP = "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
export const PARTIAL_OVERLAP = "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.";

// torch's assert_no_internal_overlap: a write into entries that share one place in
// memory (an expanded dim, stride 0, of size > 1) raises.
function assertNoInternalOverlap(shape, layout) {
  if (prod(shape) === 0) return;  // no entries: none share memory
  if (shape.some((s, d) => s > 1 && layout.strides[d] === 0)) throw new PyError("RuntimeError", INTERNAL_OVERLAP);
}

// torch's assert_no_partial_overlap between what is written (shape, layout) and a
// tensor read for it: where both lie densely in memory, the same entries in the same
// order are fine and any other overlap raises. torch checks no other layout (it writes
// as it reads, in its own order), so the page refuses those where they do overlap.
function assertNoPartialOverlap(shape, layout, input) {
  if (!input || input.t !== "tensor" || input.lib !== "torch") return;
  const other = layoutOf(input);
  if (other.storage !== layout.storage) return;
  const a = offsetsOf(shape, layout);
  const b = offsetsOf(input.shape, other);
  if (!a.length || !b.length) return;
  const dense = (offsets) => {
    const low = Math.min(...offsets);
    return new Set(offsets).size === offsets.length && Math.max(...offsets) - low + 1 === offsets.length;
  };
  if (!dense(a) || !dense(b)) {
    const read = new Set(b);
    if (a.some((o) => read.has(o)))
      throw new UnsupportedError("an in-place write whose input reads the memory it writes to, in a layout torch does not check (its result follows torch's own order of work): clone() the input first");
    return;
  }
  const [aLow, aHigh, bLow, bHigh] = [Math.min(...a), Math.max(...a), Math.min(...b), Math.max(...b)];
  const same = aLow === bLow && aHigh === bHigh && shape.length === input.shape.length &&
    shape.every((s, d) => s === input.shape[d] && (s <= 1 || layout.strides[d] === other.strides[d]));
  if (same) return;
  if (aLow <= bHigh && bLow <= aHigh) throw new PyError("RuntimeError", PARTIAL_OVERLAP);
}

// Writes `values` (row-major over the written entries) into storage at `offsets`.
function writeAt(storage, offsets, values, dtype) {
  offsets.forEach((o, k) => {
    storage[o] = cast(values[k], dtype);
  });
  touched(storage);
}

// ------------------------------------------------------------------ torch ops

function view(t, shape, strict = false) {
  if (!t.alias) return tensor(shape, t.data, t.dtype, t.lib);
  const found = viewStrides(t.shape, t.alias.strides, shape);
  if (found) return viewTensor(t, shape, { ...t.alias, strides: found });
  if (strict) throw new PyError("RuntimeError", "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.");
  return tensor(shape, t.data.slice(), t.dtype, t.lib);  // reshape: a copy
}

function inferShape(sizes, total, raw) {
  const unknown = sizes.filter((s) => s === -1).length;
  const text = `shape '[${raw.join(", ")}]' is invalid for input of size ${total}`;
  if (unknown > 1) throw new PyError("RuntimeError", "only one dimension can be inferred");
  if (sizes.some((s) => s < -1)) throw new PyError("RuntimeError", `invalid shape dimension ${sizes.find((s) => s < -1)}`);
  const known = prod(sizes.filter((s) => s !== -1));
  if (unknown) {
    if (known === 0 || total % known !== 0) throw new PyError("RuntimeError", text);
    return sizes.map((s) => (s === -1 ? total / known : s));
  }
  if (known !== total) throw new PyError("RuntimeError", text);
  return sizes;
}

function reshape(t, sizes, strict = false) {
  return view(t, inferShape(sizes, t.data.length, sizes), strict);
}

function unsqueeze(t, dim) {
  const rank = t.shape.length + 1;
  if (dim < -rank || dim >= rank)
    throw new PyError("IndexError", `Dimension out of range (expected to be in range of [${-rank}, ${rank - 1}], but got ${dim})`);
  const d = dim < 0 ? dim + rank : dim;
  const shape = t.shape.slice();
  shape.splice(d, 0, 1);
  return view(t, shape);
}

function squeeze(t, dims) {
  if (dims === null) return view(t, t.shape.filter((s) => s !== 1));
  const wrapped = dims.map((d) => normDim(d, t.shape.length));
  return view(t, t.shape.filter((s, d) => !(s === 1 && wrapped.includes(d))));
}

function expand(t, sizes) {
  if (sizes.length < t.shape.length)
    throw new PyError("RuntimeError", `expand(torch.LongTensor{[${t.shape.join(", ")}]}, size=[${sizes.join(", ")}]): the number of sizes provided (${sizes.length}) must be greater or equal to the number of dimensions in the tensor (${t.shape.length})`);
  const offset = sizes.length - t.shape.length;
  const shape = sizes.map((s, k) => {
    const own = k >= offset ? t.shape[k - offset] : null;
    if (s === -1) {
      if (own === null) throw new PyError("RuntimeError", `The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ${k}`);
      return own;
    }
    if (own !== null && own !== 1 && own !== s)
      throw new PyError("RuntimeError", `The expanded size of the tensor (${s}) must match the existing size (${own}) at non-singleton dimension ${k}.  Target sizes: [${sizes.join(", ")}].  Tensor sizes: [${t.shape.join(", ")}]`);
    if (s < 0) throw new PyError("RuntimeError", `The expanded size of the tensor (${s}) isn't allowed`);
    return s;
  });
  const source = layoutOf(t);
  const steps = shape.map((s, k) => (k < offset || (t.shape[k - offset] === 1 && s !== 1) ? 0 : source.strides[k - offset]));
  return viewTensor(t, shape, { ...source, strides: steps });
}

function repeatTensor(t, sizes) {
  if (sizes.length < t.shape.length)
    throw new PyError("RuntimeError", "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  if (sizes.some((s) => s < 0)) throw new PyError("RuntimeError", `Trying to create tensor with negative dimension ${sizes.find((s) => s < 0)}: [${sizes.join(", ")}]`);
  const source = view(t, [...new Array(sizes.length - t.shape.length).fill(1), ...t.shape]);
  const shape = source.shape.map((s, d) => s * sizes[d]);
  const st = strides(source.shape);
  const data = new Array(prod(shape));
  forEachCoord(shape, (at, flat) => {
    let src = 0;
    for (let d = 0; d < at.length; d++) src += (at[d] % source.shape[d]) * st[d];
    data[flat] = source.data[src];
  });
  return tensor(shape, data, t.dtype, t.lib);
}

// Select positions along one dim (each entry of `positions` a position, valid).
function takeAlong(t, dim, positions) {
  const shape = t.shape.slice();
  shape[dim] = positions.length;
  const st = strides(t.shape);
  const data = new Array(prod(shape));
  forEachCoord(shape, (at, flat) => {
    let src = 0;
    for (let d = 0; d < at.length; d++) src += (d === dim ? positions[at[d]] : at[d]) * st[d];
    data[flat] = t.data[src];
  });
  return tensor(shape, data, t.dtype, t.lib);
}

function repeatInterleave(t, repeats, dim) {
  let source = t;
  let d = dim;
  if (dim === null) {
    source = view(t, [t.data.length]);
    d = 0;
  } else if (!t.shape.length) {
    throw new PyError("IndexError", `Dimension specified as ${dim} but tensor has no dimensions`);
  } else d = normDim(dim, t.shape.length);
  if (source.shape.length === 0) source = view(source, [1]);
  const size = source.shape[d];
  let counts;
  if (repeats.t === "tensor") {
    if (isFloat(repeats.dtype)) throw new PyError("RuntimeError", "repeat_interleave only supports integer repeats");
    counts = repeats.data.length === 1 ? new Array(size).fill(repeats.data[0]) : repeats.data.slice();
    if (repeats.shape.length > 1) throw new PyError("RuntimeError", "repeats must be 0-dim or 1-dim tensor");
  } else counts = new Array(size).fill(toInt(repeats));
  if (counts.length !== size)
    throw new PyError("RuntimeError", `repeats must have the same size as input along dim, but got repeats.size(0) = ${counts.length} and input.size(${d}) = ${size}`);
  if (counts.some((c) => c < 0)) throw new PyError("RuntimeError", "repeats can not be negative");
  const positions = [];
  counts.forEach((c, p) => {
    for (let r = 0; r < c; r++) positions.push(p);
  });
  return takeAlong(source, d, positions);
}

function flatten(t, start = 0, end = -1) {
  if (t.shape.length === 0) return view(t, [1]);
  const s = normDim(start, t.shape.length);
  const e = normDim(end, t.shape.length);
  if (s > e) throw new PyError("RuntimeError", "flatten() has invalid args: start_dim cannot come after end_dim");
  return view(t, [...t.shape.slice(0, s), prod(t.shape.slice(s, e + 1)), ...t.shape.slice(e + 1)]);
}

function permute(t, dims) {
  if (dims.length !== t.shape.length)
    throw new PyError("RuntimeError", `permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ${t.shape.length} is not equal to len(dims) = ${dims.length}`);
  const wrapped = dims.map((d) => normDim(d, t.shape.length));
  if (new Set(wrapped).size !== wrapped.length) throw new PyError("RuntimeError", "permute(): duplicate dims are not allowed.");
  const shape = wrapped.map((d) => t.shape[d]);
  const source = layoutOf(t);
  return viewTensor(t, shape, { ...source, strides: wrapped.map((d) => source.strides[d]) });
}

function transpose(t, a, b) {
  if (t.shape.length === 0) return t;
  const order = t.shape.map((_, d) => d);
  const x = normDim(a, t.shape.length);
  const y = normDim(b, t.shape.length);
  [order[x], order[y]] = [order[y], order[x]];
  return permute(t, order);
}

function joinTensors(tensors, dim, stack, lib) {
  const name = lib === "tf" ? (stack ? "stack" : "concat") : stack ? "stack" : "cat";
  if (!tensors.length) throw new PyError(lib === "tf" ? "ValueError" : "RuntimeError", `${name} expects a non-empty TensorList`);
  const ts = tensors.map((v) => asTensor(v, lib));
  if (stack) {
    const first = ts[0].shape;
    ts.forEach((t, k) => {
      if (t.shape.join(",") !== first.join(","))
        throw new PyError(lib === "tf" ? "InvalidArgumentError" : "RuntimeError", `stack expects each tensor to be equal size, but got [${first.join(", ")}] at entry 0 and [${t.shape.join(", ")}] at entry ${k}`);
    });
    const rank = first.length + 1;
    if (dim < -rank || dim >= rank)
      throw new PyError(lib === "tf" ? "InvalidArgumentError" : "IndexError", `Dimension out of range (expected to be in range of [${-rank}, ${rank - 1}], but got ${dim})`);
    const d = dim < 0 ? dim + rank : dim;
    return joinTensors(ts.map((t) => unsqueeze(t, d)), d, false, lib);
  }
  const rank = ts[0].shape.length;
  if (ts.some((t) => t.shape.length === 0)) throw new PyError(lib === "tf" ? "InvalidArgumentError" : "RuntimeError", `zero-dimensional tensor (at position ${ts.findIndex((t) => t.shape.length === 0)}) cannot be concatenated`);
  ts.forEach((t) => {
    if (t.shape.length !== rank) throw new PyError(lib === "tf" ? "InvalidArgumentError" : "RuntimeError", `Tensors must have same number of dimensions: got ${rank} and ${t.shape.length}`);
  });
  const d = lib === "tf" ? tfAxis(dim, rank) : normDim(dim, rank);
  ts.forEach((t, k) => {
    t.shape.forEach((s, e) => {
      if (e !== d && s !== ts[0].shape[e])
        throw new PyError(lib === "tf" ? "InvalidArgumentError" : "RuntimeError", `Sizes of tensors must match except in dimension ${d}. Expected size ${ts[0].shape[e]} but got size ${s} for tensor number ${k} in the list.`);
    });
  });
  let dtype = ts[0].dtype;
  if (lib === "tf") ts.forEach((t) => tfDtypeCheck(ts[0], t, "ConcatV2"));
  else for (const t of ts.slice(1)) dtype = promote({ ...ts[0], dtype }, t);
  const shape = ts[0].shape.slice();
  shape[d] = ts.reduce((n, t) => n + t.shape[d], 0);
  const outer = prod(shape.slice(0, d));
  const data = [];
  for (let o = 0; o < outer; o++)
    for (const t of ts) {
      const chunk = prod(t.shape.slice(d));
      for (let k = 0; k < chunk; k++) data.push(cast(t.data[o * chunk + k], dtype));
    }
  return tensor(shape, data, dtype, lib);
}

function tfAxis(axis, rank) {
  if (axis < -rank || axis >= rank)
    throw new PyError("InvalidArgumentError", `ConcatOp : Expected concatenating dimensions in the range [${-rank}, ${rank}), but got ${axis}`);
  return axis < 0 ? axis + rank : axis;
}

// The exception type torch raises for each rule (the agreement cases pin them down).
function ruleType(op, rule, x, dim) {
  if (rule === "dim-range" || rule === "index-not-vector") return "IndexError";
  if (rule === "index-dtype" || rule === "scalar-index-count") return "RuntimeError";
  if (op === "take") return "IndexError";
  if (op !== "index_select") return "RuntimeError";
  // index_select's positions: the CPU kernel for dim 1, or an empty input of rank > 1,
  // raises RuntimeError; its general path raises IndexError
  const rank = x.shape.length;
  if (rank > 1 && (x.data.length === 0 || ((dim % rank) + rank) % rank === 1)) return "RuntimeError";
  return "IndexError";
}

// A gather-family call through core.mjs's diagnose: the rule a bad call breaks.
export function family(op, input, dim, index) {
  const x = asTensor(input);
  if (index.t !== "tensor") throw new PyError("TypeError", `${op}(): argument 'index' (position ${op === "take" || op === "take_along_dim" ? 2 : 3}) must be Tensor, not ${typeName(index)}`);
  if (dim !== null && dim.t !== undefined) dim = toInt(dim, "dim to be an int");
  const problems = diagnose(x, dim, index, op);
  if (problems.length) {
    const [first] = problems;
    const error = new PyError(ruleType(op, first.rule, x, dim), first.message, first.rule, first.hint);
    error.call = `torch.${op}`;
    throw error;
  }
  return familyResult(op, x, dim, index);
}

function familyResult(op, x, dim, index) {
  if (op === "take") {
    const n = x.data.length;
    return tensor(index.shape.slice(), index.data.map((p) => x.data[p < 0 ? p + n : p]), x.dtype);
  }
  if (op === "take_along_dim" && dim === null) {
    return tensor([index.data.length], index.data.map((p) => x.data[p]), x.dtype);
  }
  const rank = Math.max(x.shape.length, 1);
  const d = ((dim % rank) + rank) % rank;
  const xs = x.shape.length ? x : view(x, [1]);
  if (op === "index_select") {
    if (x.shape.length === 0) return tensor([], index.data.length ? [x.data[0]] : [], x.dtype);
    return takeAlong(xs, d, index.data);
  }
  if (op === "take_along_dim") {
    const shape = xs.shape.map((s, k) => (k === d ? index.shape[k] : s === 1 ? index.shape[k] : s));
    const st = strides(xs.shape);
    const size = xs.shape[d];
    const data = new Array(prod(shape));
    const ist = strides(index.shape);
    forEachCoord(shape, (at, flat) => {
      let iflat = 0;
      for (let k = 0; k < at.length; k++) if (index.shape[k] !== 1) iflat += at[k] * ist[k];
      const p = pyMod(index.data[iflat], size);
      let src = 0;
      for (let k = 0; k < at.length; k++) src += (k === d ? p : xs.shape[k] === 1 ? 0 : at[k]) * st[k];
      data[flat] = xs.data[src];
    });
    return tensor(shape, data, x.dtype);
  }
  // gather
  const is = index.shape.length ? index : view(index, [1]);
  const st = strides(xs.shape);
  const data = new Array(index.data.length);
  forEachCoord(is.shape, (at, flat) => {
    let src = 0;
    for (let k = 0; k < at.length; k++) src += (k === d ? index.data[flat] : at[k]) * st[k];
    data[flat] = xs.data[src];
  });
  return tensor(index.shape.slice(), data, x.dtype);
}

// ---- chapter 6's writes: scatter and index_add, in place (name_) or on a copy

// x.scatter_(dim, index, src) (reduce "none"), x.scatter_add_ (reduce "sum") and x.scatter_reduce_(dim, index, src, reduce, include_self=...), by
// scatter.mjs's rules and writes; torch raises RuntimeError for every rule it breaks.
function scatterOp(name, x, dim, index, src, reduce, includeSelf = true) {
  if (src.t !== "tensor" && (reduce !== "none" || !isNumber(src)))
    throw new PyError("TypeError", `${name}(): argument 'src' (position 3) must be Tensor, not ${typeName(src)}`);
  const d = normDim(toInt(dim), Math.max(x.shape.length, 1));
  if (index.t !== "tensor") throw new PyError("TypeError", `${name}(): argument 'index' (position 2) must be Tensor, not ${typeName(index)}`);
  let values = src;
  if (src.t !== "tensor") {
    values = filled(index.shape.slice(), numberOf(src), x.dtype, "torch");
  }
  const problems = scatterProblems(x, d, index, values, src.t !== "tensor");
  if (problems.length) {  // worded by its rule, as implement.py's _problem words it
    const error = new PyError("RuntimeError", problems[0].message);
    error.call = name.endsWith("_") ? `torch.Tensor.${name}` : `torch.${name}`;
    throw error;
  }
  const { output } = scatterResult(x, scatterWrites(x, d, index, values), reduce, includeSelf);
  return tensor(x.shape.slice(), output.data.map((v) => cast(v, x.dtype)), x.dtype);
}

// x.index_add_(dim, index, source): x[..., index[k], ...] += source[..., k, ...], in
// torch's order of checks.
function indexAdd(name, x, dim, index, source) {
  const rank = Math.max(x.shape.length, 1);
  const d = normDim(toInt(dim), rank);
  const i = asTensor(index);
  const s = asTensor(source);
  if (i.shape.length > 1)
    throw new PyError("IndexError", `${name}(): Index is supposed to be a vector, but got dim: ${i.shape.length} with type: ${torchDtypeName(i.dtype)} and size: [${i.shape.join(", ")}]`);
  if (i.dtype !== "int64" && i.dtype !== "int32")
    throw new PyError("RuntimeError", `${name}(): Expected dtype int32/int64 for index but got: ${torchDtypeName(i.dtype)}`);
  if (s.dtype !== x.dtype)
    throw new PyError("RuntimeError", `${name}(): self (${torchDtypeName(x.dtype)}) and source (${torchDtypeName(s.dtype)}) must have the same scalar type`);
  const target = x.shape.length ? x.shape : [1];
  const from = s.shape.length ? s.shape : [1];
  if (i.data.length !== from[d] && !(s.shape.length === 0 && i.data.length === 1))
    throw new PyError("RuntimeError", `${name}(): Number of indices (${i.data.length}) should be equal to source.size(dim): (${from[d]}), for dim: ${d}`);
  if (from.length !== target.length || from.some((size, k) => k !== d && size !== target[k]))
    throw new PyError("RuntimeError", `source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = [${x.shape.join(", ")}] source.shape = [${s.shape.join(", ")}]`);
  const bad = i.data.find((p) => p < 0 || p >= target[d]);
  if (bad !== undefined) {
    if (x.shape.length <= 1) throw new PyError("IndexError", "index out of range in self");
    throw new PyError("RuntimeError", `index ${bad} is out of bounds for dimension ${d} with size ${target[d]}`);
  }
  const data = x.data.slice();
  const inner = prod(target.slice(d + 1));
  const outer = prod(target.slice(0, d));
  for (let o = 0; o < outer; o++)
    for (let k = 0; k < i.data.length; k++)
      for (let r = 0; r < inner; r++) {
        const to = (o * target[d] + i.data[k]) * inner + r;
        data[to] = cast(data[to] + s.data[(o * from[d] + k) * inner + r], x.dtype);
      }
  return tensor(x.shape.slice(), data, x.dtype);
}

// x.index_put_(indices, values, accumulate=False): x[indices] = values on a copy, or
// with accumulate every value added where it goes (a repeated position adds up).
function indexPut(name, x, indices, values, accumulate) {
  if (indices.t !== "tuple" && indices.t !== "list")
    throw new PyError("TypeError", `${name}(): argument 'indices' (position 1) must be tuple of Tensors, not ${typeName(indices)}`);
  const v = asTensor(values);
  if (v.dtype !== x.dtype)
    throw new PyError("RuntimeError", `Index put requires the source and destination dtypes match, got ${torchDtypeName(x.dtype)} for the destination and ${torchDtypeName(v.dtype)} for the source.`);
  const out = tensor(x.shape.slice(), x.data.slice(), x.dtype);
  const where = { t: "tuple", items: indices.items };
  if (!accumulate) {
    setItem(out, where, v);
    return out;
  }
  const { shape, positions } = locate(out, where);
  const added = expand(v.shape.length > shape.length ? view(v, v.shape.slice(v.shape.length - shape.length)) : v, shape).data;
  positions.forEach((p, k) => {
    out.data[p] = cast(out.data[p] + added[k], x.dtype);
  });
  return out;
}

// Writes an in-place op's result into the tensor itself (views of it see it, as in
// torch) and returns that tensor.
function inPlace(t, result, ...inputs) {
  const layout = layoutOf(t);
  assertNoInternalOverlap(t.shape, layout);
  for (const input of inputs) assertNoPartialOverlap(t.shape, layout, input);
  writeAt(layout.storage, offsetsOf(t.shape, layout), result.data, t.dtype);
  return t;
}

// x.log_softmax(dim) and x.softmax(dim), line by line along dim (floats only).
function softmax(t, dim, log) {
  const op = log ? "log_softmax" : "softmax";
  const shape = t.shape.length ? t.shape : [1];
  const d = normDim(dim, shape.length);
  const out = t.data.slice();
  if (!out.length) return tensor(t.shape.slice(), out, t.dtype);  // torch checks no dtype
  if (!isFloat(t.dtype)) throw new PyError("NotImplementedError", `"${op}_lastdim_kernel_impl" not implemented for '${torchDtypeName(t.dtype)}'`);
  const size = shape[d];
  const inner = prod(shape.slice(d + 1));
  const outer = prod(shape.slice(0, d));
  for (let o = 0; o < outer; o++)
    for (let r = 0; r < inner; r++) {
      const at = (k) => (o * size + k) * inner + r;
      const line = Array.from({ length: size }, (_, k) => t.data[at(k)]);
      const top = Math.max(...line);
      const total = line.reduce((sum, x) => sum + Math.exp(x - top), 0);
      line.forEach((x, k) => {
        out[at(k)] = cast(log ? x - top - Math.log(total) : Math.exp(x - top) / total, t.dtype);
      });
    }
  return tensor(t.shape.slice(), out, t.dtype);
}

// torch's Tensor.diagonal: a view of the entries [..., i, ..., i + offset, ...] along
// dim1 and dim2, those two dims removed and the diagonal appended as the last dim.
function diagonal(t, offset, dim1, dim2) {
  const rank = t.shape.length;
  const d1 = normDim(dim1, rank);
  const d2 = normDim(dim2, rank);
  if (d1 === d2) throw new PyError("RuntimeError", `diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
  const [n1, n2] = [t.shape[d1], t.shape[d2]];
  const length = Math.max(0, offset >= 0 ? Math.min(n1, n2 - offset) : Math.min(n1 + offset, n2));
  const source = layoutOf(t);
  const keep = t.shape.map((_, d) => d).filter((d) => d !== d1 && d !== d2);
  let start = source.offset;
  if (length > 0) start += offset >= 0 ? offset * source.strides[d2] : -offset * source.strides[d1];
  return viewTensor(t, [...keep.map((d) => t.shape[d]), length], {
    ...source,
    offset: start,
    strides: [...keep.map((d) => source.strides[d]), source.strides[d1] + source.strides[d2]],
  });
}

// x.diag(): a 1-D tensor's diagonal matrix, or a 2-D tensor's main diagonal.
function diag(t) {
  const rank = t.shape.length;
  if (rank === 1) {
    const n = t.shape[0];
    const data = new Array(n * n).fill(0);
    t.data.forEach((x, k) => { data[k * n + k] = x; });
    return tensor([n, n], data, t.dtype);
  }
  if (rank !== 2) throw new PyError("RuntimeError", `diag(): Supports 1D or 2D tensors. Got ${rank}D`);
  const n = Math.min(...t.shape);
  return tensor([n], Array.from({ length: n }, (_, k) => t.data[k * t.shape[1] + k]), t.dtype);
}

// torch.nn.functional.one_hot(labels, num_classes=-1): int64 labels only.
function oneHot(t, classes) {
  if (t.dtype !== "int64") throw new PyError("RuntimeError", "one_hot is only applicable to index tensor of type LongTensor.");
  if (classes <= 0 && !t.data.length) throw new PyError("RuntimeError", "Can not infer total number of classes from empty tensor.");
  if (t.data.some((x) => x < 0)) throw new PyError("RuntimeError", "Class values must be non-negative.");
  const n = classes === -1 ? Math.max(...t.data) + 1 : classes;
  if (t.data.some((x) => x >= n)) throw new PyError("RuntimeError", "Class values must be smaller than num_classes.");
  const data = new Array(t.data.length * n).fill(0);
  t.data.forEach((x, k) => { data[k * n + x] = 1; });
  return tensor([...t.shape, n], data, "int64");
}

// x.argsort(dim, descending): the positions that sort each line along dim; ties keep
// their order (torch promises that only with stable=True; torch 2.13's CPU sort kept it
// on lines of up to 16 entries, not longer, so the stored cases stay within that).
function argsort(t, dim, descending) {
  if (!t.shape.length) return tensor([], [0], "int64");
  const d = normDim(dim, t.shape.length);
  const out = tensor(t.shape.slice(), new Array(t.data.length).fill(0), "int64");
  const size = t.shape[d];
  const inner = prod(t.shape.slice(d + 1));
  const outer = prod(t.shape.slice(0, d));
  const key = (v) => (Number.isNaN(v) ? Infinity : v);
  for (let o = 0; o < outer; o++)
    for (let r = 0; r < inner; r++) {
      const at = (k) => (o * size + k) * inner + r;
      const order = Array.from({ length: size }, (_, k) => k);
      order.sort((a, b) => {
        const [x, y] = [t.data[at(a)], t.data[at(b)]];
        if (Number.isNaN(x) !== Number.isNaN(y)) return (Number.isNaN(x) ? 1 : -1) * (descending ? -1 : 1);
        return (descending ? key(y) - key(x) : key(x) - key(y)) || a - b;
      });
      order.forEach((k, n) => {
        out.data[at(n)] = k;
      });
    }
  return out;
}

function clamp(t, lo, hi) {
  if (lo.t === "none" && hi.t === "none") throw new PyError("RuntimeError", "torch.clamp: At least one of 'min' or 'max' must not be None");
  let dtype = t.dtype;
  for (const bound of [lo, hi])
    if (bound.t !== "none") dtype = promote({ ...t, dtype }, bound.t === "tensor" ? bound : { scalar: bound.t });
  const low = lo.t === "none" ? -Infinity : cast(numberOf(lo), dtype);
  const high = hi.t === "none" ? Infinity : cast(numberOf(hi), dtype);
  const bounded = (v) => (Number.isNaN(v) ? v : Math.min(Math.max(v, low), high));
  return tensor(t.shape.slice(), t.data.map((v) => cast(bounded(cast(v, dtype)), dtype)), dtype);
}

// torch.bincount(t, weights=None, minlength=0): how often each value occurs, or the
// sum of the weights at each value (float32 weights sum as float32, any other dtype as
// float64; an empty input counts nothing, as int64).
function bincount(t, minlength, weights = NONE) {
  if (isFloat(t.dtype)) throw new PyError("NotImplementedError", `"bincount_cpu" not implemented for '${torchDtypeName(t.dtype)}'`);
  if (t.shape.length !== 1 || t.data.some((v) => v < 0)) throw new PyError("RuntimeError", "bincount only supports 1-d non-negative integral inputs.");
  const w = weights.t === "none" ? null : asTensor(weights);
  if (w && (w.shape.length !== 1 || w.data.length !== t.data.length))
    throw new PyError("RuntimeError", "weights should be 1-d and have the same length as input");
  const counts = new Array(Math.max(minlength, ...t.data.map((v) => v + 1), 0)).fill(0);
  t.data.forEach((v, k) => { counts[v] += w ? Number(w.data[k]) : 1; });
  const dtype = !w || !t.data.length ? "int64" : w.dtype === "float32" ? "float32" : "float64";
  return tensor([counts.length], counts.map((c) => cast(c, dtype)), dtype);
}

function where(cond, a, b) {
  const c = asTensor(cond);
  if (c.dtype !== "bool") throw new PyError("RuntimeError", `where expected condition to be a boolean tensor, but got a tensor with dtype ${torchDtypeName(c.dtype)}`);
  const x = asTensor(a);
  const y = asTensor(b);
  const dtype = promote(x, y);
  const shape = broadcastShapes(broadcastShapes(c.shape, x.shape), y.shape);
  const cs = broadcastData(c, shape);
  const xs = broadcastData(x, shape);
  const ys = broadcastData(y, shape);
  return tensor(shape, cs.map((v, k) => cast(v ? xs[k] : ys[k], dtype)), dtype);
}

function reduce(t, dim, keepdim, kind) {
  const fns = {
    sum: [0, (a, b) => a + b],
    any: [0, (a, b) => (a || b ? 1 : 0)],
    all: [1, (a, b) => (a && b ? 1 : 0)],
    prod: [1, (a, b) => a * b],
    max: [-Infinity, Math.max],
    min: [Infinity, Math.min],
  };
  const [start, f] = fns[kind];
  let dtype = kind === "any" || kind === "all" ? "bool" : kind === "sum" || kind === "prod" ? (isFloat(t.dtype) ? t.dtype : "int64") : t.dtype;
  if (t.lib === "tf" && kind === "sum") dtype = t.dtype;
  if (dim === null) {
    if ((kind === "max" || kind === "min") && t.data.length === 0)
      throw new PyError("RuntimeError", `${kind}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`);
    // f takes two values: Array.reduce would hand Math.max its index and array too
    return tensor(keepdim ? t.shape.map(() => 1) : [], [cast(t.data.reduce((a, b) => f(a, b), start), dtype)], dtype, t.lib);
  }
  const d = normDim(dim, t.shape.length);
  if (!t.shape.length) return reduce(t, null, false, kind);
  const shape = t.shape.slice();
  const size = shape[d];
  shape[d] = 1;
  const st = strides(t.shape);
  const data = [];
  forEachCoord(shape, (at) => {
    let acc = start;
    let base = 0;
    for (let k = 0; k < at.length; k++) base += at[k] * st[k];
    for (let p = 0; p < size; p++) acc = f(acc, t.data[base + p * (st[d] ?? 1)]);
    data.push(cast(acc, dtype));
  });
  const out = tensor(shape, data, dtype, t.lib);
  return keepdim ? out : view(out, shape.filter((_, k) => k !== d));
}

// ---- indexing

function sliceRange(slice, size) {
  const step = slice.step ?? 1;
  if (step <= 0) throw new PyError("ValueError", "step must be greater than zero");
  const clamp = (v, dflt) => {
    if (v === null) return dflt;
    if (v < 0) v += size;
    return Math.min(Math.max(v, 0), size);
  };
  const start = clamp(slice.start, 0);
  const stop = clamp(slice.stop, size);
  const out = [];
  for (let p = start; p < stop; p += step) out.push(p);
  return out;
}

// What x[index] reads: the result's shape and, for each result entry, the flat source
// position (torch's rules: integers select first, advanced indices broadcast together
// and go where the first one was when they are adjacent, else first).
function locate(x, indexValue) {
  const items = indexValue.t === "tuple" ? indexValue.items.slice() : [indexValue];
  const parts = [];
  for (const item of items) {
    if (item.t === "ellipsis" || item.t === "none" || item.t === "slice") parts.push(item);
    else if (item.t === "int") parts.push(item);
    else if (item.t === "bool") throw new UnsupportedError("indexing with True or False");
    else if (item.t === "tensor") {
      if (isFloat(item.dtype)) throw new PyError("IndexError", "tensors used as indices must be long, int, byte or bool tensors");
      // torch reads a 0-d integer tensor as an integer
      parts.push(item.shape.length === 0 && item.dtype !== "bool" ? pyInt(item.data[0]) : item);
    } else if (item.t === "list" || item.t === "tuple" || item.t === "range") {
      // torch reads a range index as the list of its ints
      const t = fromSequence(item.t === "range" ? list(item.items) : item, null, "torch");
      if (isFloat(t.dtype)) throw new PyError("IndexError", "tensors used as indices must be long, int, byte or bool tensors");
      parts.push(t);
    } else throw new PyError("IndexError", `only integers, slices (\`:\`), ellipsis (\`...\`), None and long or byte Variables are valid indices (got ${typeName(item)})`);
  }
  const consumes = (p) => (p.t === "tensor" ? (p.dtype === "bool" ? Math.max(p.shape.length, 0) : 1) : p.t === "int" || p.t === "slice" ? 1 : 0);
  const used = parts.reduce((n, p) => n + consumes(p), 0);
  const ellipses = parts.filter((p) => p.t === "ellipsis").length;
  let expanded = false;  // a second ... is taken as an empty one
  if (used > x.shape.length)
    throw new PyError("IndexError", `too many indices for tensor of dimension ${x.shape.length}`);
  const full = [];
  for (const p of parts) {
    if (p.t === "ellipsis") {
      if (!expanded) for (let k = 0; k < x.shape.length - used; k++) full.push({ t: "slice", start: null, stop: null, step: null });
      expanded = true;
    }
    else if (p.t === "tensor" && p.dtype === "bool") {
      // a mask: its true coordinates, one int tensor per dim it covers
      if (p.shape.length === 0) {
        full.push({ t: "newmask", value: p.data[0] });
        continue;
      }
      const coordsList = p.shape.map(() => []);
      forEachCoord(p.shape, (at, flat) => {
        if (p.data[flat]) at.forEach((c, d) => coordsList[d].push(c));
      });
      p.shape.forEach((s, d) => full.push({ ...tensor([coordsList[d].length], coordsList[d], "int64"), mask: { size: s, first: d === 0, shape: p.shape } }));
    } else full.push(p);
  }
  if (!ellipses) while (full.filter((p) => consumes(p) || p.mask).length < x.shape.length) full.push({ t: "slice", start: null, stop: null, step: null });
  // walk the source dims
  let dim = 0;
  const outDims = []; // {kind: "basic", positions, srcDim} | {kind: "new"} | {kind: "adv"}
  const advanced = [];
  const maskProblems = [];
  for (const p of full) {
    if (p.t === "none") outDims.push({ kind: "new" });
    else if (p.t === "newmask") outDims.push({ kind: "new", size: p.value ? 1 : 0 });
    else if (p.t === "slice") {
      outDims.push({ kind: "basic", positions: sliceRange(p, x.shape[dim]), srcDim: dim });
      dim++;
    } else if (p.t === "int") {
      const size = x.shape[dim];
      if (p.v < -size || p.v >= size) throw new PyError("IndexError", `index ${p.v} is out of bounds for dimension ${dim} with size ${size}`);
      outDims.push({ kind: "fixed", position: p.v < 0 ? p.v + size : p.v, srcDim: dim });
      dim++;
    } else {
      const size = x.shape[dim];
      if (p.mask && p.mask.size !== size)  // checked after the basic indices
        maskProblems.push(`The shape of the mask [${p.mask.shape.join(", ")}] at index ${dim} does not match the shape of the indexed tensor [${x.shape.join(", ")}] at index ${dim}`);
      advanced.push({ t: p, srcDim: dim });
      outDims.push({ kind: "adv", srcDim: dim });
      dim++;
    }
  }
  if (maskProblems.length) throw new PyError("IndexError", maskProblems[0]);
  let advShape = [];
  for (const a of advanced) {
    try {
      advShape = broadcastShapes(advShape, a.t.shape);
    } catch {
      throw new PyError("IndexError", `shape mismatch: indexing tensors could not be broadcast together with shapes ${advanced.map((b) => `[${b.t.shape.join(", ")}]`).join(", ")}`);
    }
  }
  const advData = advanced.map((a) => broadcastData(a.t, advShape).map((v) => (v < 0 ? v + x.shape[a.srcDim] : v)));
  // where do the advanced dims go? torch: integers are selected first, so only the
  // remaining dims count for adjacency
  const remaining = outDims.filter((o) => o.kind !== "fixed");
  const advAt = remaining.map((o, k) => (o.kind === "adv" ? k : -1)).filter((k) => k >= 0);
  const adjacent = advAt.length > 0 && advAt[advAt.length - 1] - advAt[0] === advAt.length - 1;
  const layout = []; // entries: {kind: "basic"|"new", ...} | {kind: "advblock"}
  remaining.forEach((o, k) => {
    if (o.kind === "adv") {
      if (adjacent && k === advAt[0]) layout.push({ kind: "advblock" });
    } else layout.push(o);
  });
  if (advanced.length && !adjacent) layout.unshift({ kind: "advblock" });
  const shape = [];
  for (const l of layout) {
    if (l.kind === "advblock") shape.push(...advShape);
    else if (l.kind === "new") shape.push(l.size ?? 1);
    else shape.push(l.positions.length);
  }
  for (const a of advanced)
    if (x.shape[a.srcDim] === 0 && a.t.data.length)
      throw new PyError("IndexError", "index is out of bounds for dimension with size 0");
  if (prod(shape) > 0)  // otherwise torch checks positions only when it reads something
    for (const a of advanced) {
      const size = x.shape[a.srcDim];
      const bad = a.t.data.find((v) => v < -size || v >= size);
      if (bad !== undefined) throw new PyError("IndexError", `index ${bad} is out of bounds for dimension ${a.srcDim} with size ${size}`);
    }
  const st = strides(x.shape);
  const fixedBase = outDims.filter((o) => o.kind === "fixed").reduce((n, o) => n + o.position * st[o.srcDim], 0);
  const positions = new Array(prod(shape));
  const advStrides = strides(advShape);
  forEachCoord(shape, (at, flat) => {
    let src = fixedBase;
    let d = 0;
    for (const l of layout) {
      if (l.kind === "advblock") {
        let aflat = 0;
        for (let k = 0; k < advShape.length; k++) aflat += at[d + k] * advStrides[k];
        advanced.forEach((a, k) => {
          src += advData[k][aflat] * st[a.srcDim];
        });
        d += advShape.length;
      } else if (l.kind === "new") d++;
      else {
        src += l.positions[at[d]] * st[l.srcDim];
        d++;
      }
    }
    positions[flat] = src;
  });
  return { shape, positions };
}

// torch's basic indexing (integers, slices, None, ...) gives a view of x: the layout
// it reads x's memory with, or null for an advanced index (a copy).
function basicLayout(x, index) {
  const items = index.t === "tuple" ? index.items : [index];
  const whole = (v) => v.t === "int" || (v.t === "tensor" && !v.shape.length && !isFloat(v.dtype) && v.dtype !== "bool");
  if (!items.every((v) => ["slice", "none", "ellipsis"].includes(v.t) || whole(v))) return null;
  const source = layoutOf(x);
  const used = items.filter((v) => v.t === "slice" || whole(v)).length;
  const steps = [];
  let offset = source.offset;
  let dim = 0;
  let expanded = false;
  for (const v of items) {
    if (v.t === "ellipsis") {
      if (!expanded) for (let k = 0; k < x.shape.length - used; k++) steps.push(source.strides[dim++]);
      expanded = true;
    } else if (v.t === "none") steps.push(0);
    else if (v.t === "slice") {
      const positions = sliceRange(v, x.shape[dim]);
      if (positions.length) offset += positions[0] * source.strides[dim];
      steps.push(source.strides[dim] * (v.step ?? 1));
      dim++;
    } else {
      const at = v.t === "int" ? v.v : v.data[0];
      offset += (at < 0 ? at + x.shape[dim] : at) * source.strides[dim];
      dim++;
    }
  }
  while (dim < x.shape.length) steps.push(source.strides[dim++]);
  return { ...source, offset, strides: steps };
}

function getItem(value, index) {
  if (value.t === "tensor") {
    if (value.lib === "tf" && containsTensor(index)) throw new UnsupportedError("indexing a TensorFlow tensor with a tensor (use tf.gather)");
    const { shape, positions } = locate(value, index);  // its checks, and the shape
    const layout = value.lib === "torch" ? basicLayout(value, index) : null;
    if (layout) return viewTensor(value, shape, layout);
    return tensor(shape, positions.map((p) => value.data[p]), value.dtype, value.lib);
  }
  if (value.t === "list" || value.t === "tuple") {
    if (index.t === "slice") {
      const items = sliceRange(index, value.items.length).map((p) => value.items[p]);
      return { t: value.t, items };
    }
    const k = toInt(index, "list indices to be integers");
    const n = value.items.length;
    if (k < -n || k >= n) throw new PyError("IndexError", `${value.t} index out of range`);
    return value.items[k < 0 ? k + n : k];
  }
  if (value.t === "str") throw new UnsupportedError("indexing strings");
  throw new PyError("TypeError", `'${typeName(value)}' object is not subscriptable`);
}

const containsTensor = (index) => (index.t === "tuple" ? index.items.some(containsTensor) : index.t === "tensor" || index.t === "list");

function setItem(target, index, value) {
  if (target.t === "list") {
    const k = toInt(index, "list indices to be integers");
    const n = target.items.length;
    if (k < -n || k >= n) throw new PyError("IndexError", "list assignment index out of range");
    target.items[k < 0 ? k + n : k] = value;
    return;
  }
  if (target.t !== "tensor") throw new PyError("TypeError", `'${typeName(target)}' object does not support item assignment`);
  if (target.lib === "tf") throw new PyError("TypeError", "'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment");
  const { shape, positions } = locate(target, index);
  // torch writes a basic index through its view (copy_, which checks the view), an
  // advanced one with index_put_ (which checks only the whole tensor against the value)
  const layout = layoutOf(target);
  const basic = basicLayout(target, index);
  if (basic) {
    assertNoInternalOverlap(shape, basic);
    assertNoPartialOverlap(shape, basic, value);
  } else assertNoPartialOverlap(target.shape, layout, value);
  const v = asTensor(value);
  if (v.shape.length > shape.length) {
    const extra = v.shape.slice(0, v.shape.length - shape.length);
    if (extra.some((s) => s !== 1)) throw new PyError("RuntimeError", `expand(torch.LongTensor{[${v.shape.join(", ")}]}, size=[${shape.join(", ")}]): the number of sizes provided (${shape.length}) must be greater or equal to the number of dimensions in the tensor (${v.shape.length})`);
  }
  const trimmed = v.shape.length > shape.length ? view(v, v.shape.slice(v.shape.length - shape.length)) : v;
  let data;
  try {
    data = expand(trimmed, shape).data;
  } catch (error) {
    if (error instanceof PyError) throw new PyError("RuntimeError", `shape mismatch: value tensor of shape [${v.shape.join(", ")}] cannot be broadcast to indexing result of shape [${shape.join(", ")}]`);
    throw error;
  }
  const offsets = target.alias ? offsetsOf(target.shape, layout) : null;
  writeAt(layout.storage, offsets ? positions.map((p) => offsets[p]) : positions, data, target.dtype);
}

// ------------------------------------------------------------------ the library tables

const TORCH_DTYPES = {
  int64: "int64", long: "int64", int32: "int32", int: "int32", int16: "int16", int8: "int8",
  uint8: "uint8", float32: "float32", float: "float32", float64: "float64", double: "float64",
  bool: "bool", float16: "float16", half: "float16",
};
const torchDtypeName = (d) => ({ int64: "Long", int32: "Int", float32: "Float", float64: "Double", bool: "Bool", int16: "Short", int8: "Char", uint8: "Byte", float16: "Half" })[d] ?? d;
const dtypeValue = (name, lib) => ({ t: "dtype", name, lib });

function args(spec, given, kwargs, fname) {
  // spec: ["a", "b=default", ...]; returns {name: value}
  const out = {};
  const names = spec.map((s) => s.split("=")[0]);
  if (given.length > spec.length) throw new PyError("TypeError", `${fname}() takes at most ${spec.length} arguments (${given.length} given)`);
  given.forEach((v, k) => {
    out[names[k]] = v;
  });
  for (const [name, v] of kwargs) {
    if (!names.includes(name)) throw new UnsupportedError(`the argument ${name}= of ${fname}`);
    if (name in out) throw new PyError("TypeError", `${fname}() got multiple values for argument '${name}'`);
    out[name] = v;
  }
  spec.forEach((s, k) => {
    const [name, dflt] = s.split("=");
    if (!(name in out)) {
      if (dflt === undefined) throw new PyError("TypeError", `${fname}() missing required argument '${name}' (pos ${k + 1})`);
      out[name] = dflt === "None" ? NONE : dflt === "False" ? pyBool(false) : dflt === "True" ? pyBool(true) : pyInt(Number(dflt));
    }
  });
  return out;
}

const optionalInt = (v) => (v.t === "none" ? null : toInt(v, "an int"));
function dtypeArg(v, lib) {
  if (v.t === "none") return null;
  if (v.t === "dtype") return v.name;
  if (v.t === "str" && lib === "tf" && TORCH_DTYPES[v.v]) return TORCH_DTYPES[v.v];
  throw new PyError("TypeError", `dtype must be a ${lib === "tf" ? "tf" : "torch"}.dtype, not ${typeName(v)}`);
}

function arange(a, lib) {
  const { start, end, step, dtype } = a;
  let lo = 0;
  let hi;
  if (end.t === "none") hi = numberOf(start);
  else {
    lo = numberOf(start);
    hi = numberOf(end);
  }
  const s = numberOf(step);
  if (s === 0) throw new PyError(lib === "tf" ? "InvalidArgumentError" : "RuntimeError", "step must be nonzero");
  const floats = [start, end, step].some((v) => v.t === "float");
  const out = [];
  const n = Math.max(0, Math.ceil((hi - lo) / s));
  if (n > MAX_ENTRIES) throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
  for (let k = 0; k < n; k++) out.push(lo + k * s);
  const d = dtypeArg(dtype, lib) ?? (floats ? "float32" : lib === "tf" ? "int32" : "int64");
  return tensor([out.length], out.map((v) => cast(v, d)), d, lib);
}

function filled(shape, value, dtype, lib) {
  return tensor(shape, new Array(prod(shape)).fill(cast(value, dtype)), dtype, lib);
}

const fn = (name, call) => ({ t: "func", name, call });

const TORCH = {
  tensor: fn("torch.tensor", (g, kw) => {
    const a = args(["data", "dtype=None", "requires_grad=False"], g, kw, "tensor");
    if (a.requires_grad.t === "bool" && a.requires_grad.v) throw new UnsupportedError("requires_grad (gradients need the notebook)");
    const d = dtypeArg(a.dtype, "torch");
    if (a.data.t === "tensor") return tensor(a.data.shape, a.data.data.map((v) => cast(v, d ?? a.data.dtype)), d ?? a.data.dtype);
    return fromSequence(a.data, d, "torch");
  }),
  as_tensor: null,
  arange: fn("torch.arange", (g, kw) => arange(args(["start", "end=None", "step=1", "dtype=None"], g, kw, "arange"), "torch")),
  gather: fn("torch.gather", (g, kw) => {
    const a = args(["input", "dim", "index"], g, kw, "gather");
    return family("gather", a.input, a.dim, a.index);
  }),
  index_select: fn("torch.index_select", (g, kw) => {
    const a = args(["input", "dim", "index"], g, kw, "index_select");
    return family("index_select", a.input, a.dim, a.index);
  }),
  take: fn("torch.take", (g, kw) => {
    const a = args(["input", "index"], g, kw, "take");
    return family("take", a.input, null, a.index);
  }),
  take_along_dim: fn("torch.take_along_dim", (g, kw) => {
    const a = args(["input", "indices", "dim=None"], g, kw, "take_along_dim");
    return family("take_along_dim", a.input, optionalInt(a.dim), a.indices);
  }),
  stack: fn("torch.stack", (g, kw) => {
    const a = args(["tensors", "dim=0"], g, kw, "stack");
    return joinTensors(sequenceItems(a.tensors, "stack"), toInt(a.dim), true, "torch");
  }),
  cat: fn("torch.cat", (g, kw) => {
    const a = args(["tensors", "dim=0"], g, kw, "cat");
    return joinTensors(sequenceItems(a.tensors, "cat"), toInt(a.dim), false, "torch");
  }),
  where: fn("torch.where", (g, kw) => {
    const a = args(["condition", "input", "other"], g, kw, "where");
    return where(a.condition, a.input, a.other);
  }),
  empty: null,
  zeros: null,
  ones: null,
  full: fn("torch.full", (g, kw) => {
    const a = args(["size", "fill_value", "dtype=None"], g, kw, "full");
    const fill = a.fill_value;
    const d = dtypeArg(a.dtype, "torch") ?? (fill.t === "float" ? "float32" : fill.t === "bool" ? "bool" : "int64");
    return filled(sizesFrom([a.size], "full"), numberOf(fill), d, "torch");
  }),
  zeros_like: null,
  ones_like: null,
  eye: fn("torch.eye", (g, kw) => {
    const a = args(["n", "m=None", "dtype=None"], g, kw, "eye");
    const n = toInt(a.n, "an int");
    const m = optionalInt(a.m) ?? n;
    if (n < 0 || m < 0) throw new PyError("RuntimeError", `n must be greater or equal to 0, got ${n < 0 ? n : m}`);
    const out = filled([n, m], 0, dtypeArg(a.dtype, "torch") ?? "float32", "torch");
    for (let k = 0; k < Math.min(n, m); k++) out.data[k * m + k] = cast(1, out.dtype);
    return out;
  }),
  floor_divide: fn("torch.floor_divide", (g, kw) => {
    const a = args(["input", "other"], g, kw, "floor_divide");
    return tensorBinary("//", a.input.t === "tensor" ? a.input : asTensor(a.input), a.other);
  }),
  broadcast_to: fn("torch.broadcast_to", (g, kw) => {
    const a = args(["input", "size"], g, kw, "broadcast_to");
    return expand(asTensor(a.input), sizesFrom([a.size], "broadcast_to"));
  }),
  meshgrid: null,
};
for (const [name, value] of [["empty", 0], ["zeros", 0], ["ones", 1]])
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    const dtype = kw.find(([k]) => k === "dtype");
    const rest = kw.filter(([k]) => k !== "dtype");
    if (rest.length) throw new UnsupportedError(`the argument ${rest[0][0]}= of torch.${name}`);
    const d = dtype ? dtypeArg(dtype[1], "torch") : "float32";
    return filled(sizesFrom(g, name), value, d, "torch");
  });
for (const [name, value] of [["zeros_like", 0], ["ones_like", 1]])
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    const a = args(["input", "dtype=None"], g, kw, name);
    const t = asTensor(a.input);
    return filled(t.shape.slice(), value, dtypeArg(a.dtype, "torch") ?? t.dtype, "torch");
  });
TORCH.as_tensor = TORCH.tensor;
TORCH.nn = { t: "module", name: "torch.nn" };
const NN = { functional: { t: "module", name: "torch.nn.functional" } };
const FUNCTIONAL = {
  one_hot: fn("torch.nn.functional.one_hot", (g, kw) => {
    const a = args(["input", "num_classes=-1"], g, kw, "one_hot");
    return oneHot(asTensor(a.input), toInt(a.num_classes));
  }),
  log_softmax: fn("torch.nn.functional.log_softmax", (g, kw) => callMethod(asTensor(g[0]), "log_softmax", g.slice(1), kw)),
  softmax: fn("torch.nn.functional.softmax", (g, kw) => callMethod(asTensor(g[0]), "softmax", g.slice(1), kw)),
};
delete TORCH.meshgrid;
for (const [alias, dtype] of Object.entries(TORCH_DTYPES)) TORCH[alias] = dtypeValue(dtype, "torch");
// the methods that are also functions: torch.unsqueeze(x, 0), torch.flatten(x), ...
for (const name of ["unsqueeze", "squeeze", "reshape", "flatten", "repeat_interleave", "round", "transpose", "permute", "sum", "any", "all", "numel", "abs", "floor", "ceil", "max", "min", "clone", "scatter", "scatter_add", "scatter_reduce", "index_add", "argsort", "clamp", "bincount", "log_softmax", "softmax", "diag", "diagonal"])
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    if (!g.length) throw new PyError("TypeError", `${name}() missing required argument 'input'`);
    return callMethod(asTensor(g[0]), name, g.slice(1), kw);
  });

function sequenceItems(value, name) {
  if (value.t === "list" || value.t === "tuple") return value.items;
  if (value.t === "tensor") throw new PyError("TypeError", `${name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor`);
  throw new PyError("TypeError", `${name}() expects a sequence of tensors`);
}

function tfTensorArg(v, dtype = null) {
  if (v.t === "tensor") {
    if (dtype && v.dtype !== dtype) throw new PyError("ValueError", `Tensor conversion requested dtype ${dtype} for Tensor with dtype ${v.dtype}`);
    return v.lib === "tf" ? v : { ...v, lib: "tf" };
  }
  return fromSequence(v, dtype, "tf");
}

function tfConstant(v, dtype) {
  if (isNumber(v)) {
    const d = dtype ?? (v.t === "float" ? "float32" : v.t === "bool" ? "bool" : "int32");
    return tensor([], [cast(numberOf(v), d)], d, "tf");
  }
  if (v.t === "tensor") return tensor(v.shape, v.data.map((x) => cast(x, dtype ?? v.dtype)), dtype ?? v.dtype, "tf");
  return fromSequence(v, dtype, "tf");
}

function tfGather(params, indices, axis, batchDims) {
  const p = tfTensorArg(params);
  const i = tfTensorArg(indices);
  if (isFloat(i.dtype) || i.dtype === "bool")
    throw new PyError("TypeError", `Value passed to parameter 'indices' has DataType ${i.dtype} not in list of allowed values: int16, int32, int64`);
  let b = batchDims;
  if (b < 0) b += i.shape.length;
  let ax = axis === null ? b : axis;
  if (ax < 0) ax += p.shape.length;
  if (b < 0 || b > i.shape.length) throw new PyError("InvalidArgumentError", `Expected batch_dims in the range [${-i.shape.length}, ${i.shape.length}], but got ${batchDims}`);
  if (ax < 0 || ax >= p.shape.length) throw new PyError("InvalidArgumentError", `Expected axis in the range [${-p.shape.length}, ${p.shape.length}), but got ${axis}`);
  if (b > ax) throw new PyError("InvalidArgumentError", `batch_dims (${b}) must be less than or equal to axis (${ax})`);
  for (let d = 0; d < b; d++)
    if (p.shape[d] !== i.shape[d])
      throw new PyError("InvalidArgumentError", `params.shape[${d}]: ${p.shape[d]} should be equal to indices.shape[${d}]: ${i.shape[d]}`);
  const size = p.shape[ax];
  i.data.forEach((v, k) => {
    if (v < 0 || v >= size) {
      const at = unravel(k, i.shape);
      throw new PyError("InvalidArgumentError", `indices[${at.join(",")}] = ${v} is not in [0, ${size})`);
    }
  });
  const shape = [...p.shape.slice(0, ax), ...i.shape.slice(b), ...p.shape.slice(ax + 1)];
  const pst = strides(p.shape);
  const ist = strides(i.shape);
  const irank = i.shape.length - b;
  const data = new Array(prod(shape));
  forEachCoord(shape, (at, flat) => {
    let iflat = 0;
    for (let d = 0; d < b; d++) iflat += at[d] * ist[d];
    for (let d = 0; d < irank; d++) iflat += at[ax + d] * ist[b + d];
    let src = 0;
    for (let d = 0; d < ax; d++) src += at[d] * pst[d];
    src += i.data[iflat] * pst[ax];
    for (let d = ax + 1; d < p.shape.length; d++) src += at[d - ax - 1 + ax + irank] * pst[d];
    data[flat] = p.data[src];
  });
  return tensor(shape, data, p.dtype, "tf");
}


function tfGatherNd(params, indices, batchDims) {
  const p = tfTensorArg(params);
  const i = tfTensorArg(indices);
  if (isFloat(i.dtype) || i.dtype === "bool")
    throw new PyError("TypeError", `Value passed to parameter 'indices' has DataType ${i.dtype} not in list of allowed values: int16, int32, int64`);
  if (batchDims !== 0) throw new UnsupportedError("tf.gather_nd with batch_dims");
  if (i.shape.length === 0) throw new PyError("InvalidArgumentError", "indices must be at least a vector");
  const depth = i.shape[i.shape.length - 1];
  if (depth > p.shape.length)
    throw new PyError("InvalidArgumentError", `index innermost dimension length must be <= params rank; saw: ${depth} vs. ${p.shape.length}`);
  const outer = i.shape.slice(0, -1);
  const inner = p.shape.slice(depth);
  const chunk = prod(inner);
  const pst = strides(p.shape);
  const data = [];
  const n = prod(outer);
  for (let k = 0; k < n; k++) {
    let src = 0;
    for (let d = 0; d < depth; d++) {
      const v = i.data[k * depth + d];
      if (v < 0 || v >= p.shape[d]) {
        const at = unravel(k, outer);
        throw new PyError("InvalidArgumentError", `indices[${at.join(",")}] = [${i.data.slice(k * depth, k * depth + depth).join(", ")}] does not index into param shape [${p.shape.join(",")}]`);
      }
      src += v * pst[d];
    }
    for (let c = 0; c < chunk; c++) data.push(p.data[src + c]);
  }
  return tensor([...outer, ...inner], data, p.dtype, "tf");
}

const TF_DTYPES = { int64: "int64", int32: "int32", int16: "int16", int8: "int8", uint8: "uint8", float32: "float32", float64: "float64", float16: "float16", bool: "bool", double: "float64", half: "float16" };

const TF = {
  constant: fn("tf.constant", (g, kw) => {
    const a = args(["value", "dtype=None"], g, kw, "constant");
    return tfConstant(a.value, dtypeArg(a.dtype, "tf"));
  }),
  convert_to_tensor: null,
  gather: fn("tf.gather", (g, kw) => {
    const a = args(["params", "indices", "validate_indices=None", "axis=None", "batch_dims=0"], g, kw, "gather");
    return tfGather(a.params, a.indices, optionalInt(a.axis), toInt(a.batch_dims));
  }),
  gather_nd: fn("tf.gather_nd", (g, kw) => {
    const a = args(["params", "indices", "batch_dims=0"], g, kw, "gather_nd");
    return tfGatherNd(a.params, a.indices, toInt(a.batch_dims));
  }),
  stack: fn("tf.stack", (g, kw) => {
    const a = args(["values", "axis=0"], g, kw, "stack");
    const items = sequenceItems(a.values, "stack").map((v) => tfTensorArg(v));
    items.forEach((t) => tfDtypeCheck(items[0], t, "Pack"));
    return joinTensors(items, toInt(a.axis), true, "tf");
  }),
  concat: fn("tf.concat", (g, kw) => {
    const a = args(["values", "axis"], g, kw, "concat");
    return joinTensors(sequenceItems(a.values, "concat").map((v) => tfTensorArg(v)), toInt(a.axis), false, "tf");
  }),
  range: fn("tf.range", (g, kw) => {
    const a = args(["start", "limit=None", "delta=1", "dtype=None"], g, kw, "range");
    const unwrap = (v) => (v.t === "tensor" && v.shape.length === 0 ? (isFloat(v.dtype) ? pyFloat(v.data[0]) : pyInt(v.data[0])) : v);
    const firstTensor = [a.start, a.limit].find((v) => v.t === "tensor");
    const out = arange({ start: unwrap(a.start), end: unwrap(a.limit), step: unwrap(a.delta), dtype: a.dtype }, "tf");
    if (firstTensor && a.dtype.t === "none") return tensor(out.shape, out.data, firstTensor.dtype, "tf");
    return out;
  }),
  shape: fn("tf.shape", (g, kw) => {
    const a = args(["input", "out_type=None"], g, kw, "shape");
    const t = tfTensorArg(a.input);
    const d = dtypeArg(a.out_type, "tf") ?? "int32";
    return tensor([t.shape.length], t.shape.slice(), d, "tf");
  }),
  reshape: fn("tf.reshape", (g, kw) => {
    const a = args(["tensor", "shape"], g, kw, "reshape");
    const t = tfTensorArg(a.tensor);
    const sizes = sizesFrom([a.shape], "reshape");
    try {
      return reshape(t, sizes);
    } catch (error) {
      if (error instanceof PyError) throw new PyError("InvalidArgumentError", `Input to reshape is a tensor with ${t.data.length} values, but the requested shape has ${prod(sizes)}`);
      throw error;
    }
  }),
  expand_dims: fn("tf.expand_dims", (g, kw) => {
    const a = args(["input", "axis"], g, kw, "expand_dims");
    const t = tfTensorArg(a.input);
    try {
      return unsqueeze(t, toInt(a.axis));
    } catch (error) {
      if (error instanceof PyError) throw new PyError("InvalidArgumentError", `Tried to expand dim index ${toInt(a.axis)} for tensor with ${t.shape.length} dimensions.`);
      throw error;
    }
  }),
  broadcast_to: fn("tf.broadcast_to", (g, kw) => {
    const a = args(["input", "shape"], g, kw, "broadcast_to");
    const t = tfTensorArg(a.input);
    const sizes = sizesFrom([a.shape], "broadcast_to");
    if (sizes.includes(-1) || sizes.length < t.shape.length) throw new PyError("InvalidArgumentError", `Unable to broadcast tensor of shape [${t.shape.join(",")}] to tensor of shape [${sizes.join(",")}]`);
    try {
      return expand(t, sizes);
    } catch (error) {
      if (error instanceof PyError) throw new PyError("InvalidArgumentError", `Incompatible shapes: [${t.shape.join(",")}] vs. [${sizes.join(",")}]`);
      throw error;
    }
  }),
  tile: fn("tf.tile", (g, kw) => {
    const a = args(["input", "multiples"], g, kw, "tile");
    const t = tfTensorArg(a.input);
    const m = sizesFrom([a.multiples], "tile");
    if (m.length !== t.shape.length) throw new PyError("InvalidArgumentError", `Expected multiples argument to be a vector of length ${t.shape.length} but got length ${m.length}`);
    return repeatTensor(t, m);
  }),
  cast: fn("tf.cast", (g, kw) => {
    const a = args(["x", "dtype"], g, kw, "cast");
    const t = tfTensorArg(a.x);
    const d = dtypeArg(a.dtype, "tf");
    return tensor(t.shape, t.data.map((v) => cast(v, d)), d, "tf");
  }),
  reduce_sum: fn("tf.reduce_sum", (g, kw) => {
    const a = args(["input_tensor", "axis=None", "keepdims=False"], g, kw, "reduce_sum");
    return reduce(tfTensorArg(a.input_tensor), optionalInt(a.axis), a.keepdims.v, "sum");
  }),
  transpose: fn("tf.transpose", (g, kw) => {
    const a = args(["a", "perm=None"], g, kw, "transpose");
    const t = tfTensorArg(a.a);
    const perm = a.perm.t === "none" ? t.shape.map((_, d) => t.shape.length - 1 - d) : sizesFrom([a.perm], "transpose");
    return permute(t, perm);
  }),
  where: fn("tf.where", (g, kw) => {
    const a = args(["condition", "x=None", "y=None"], g, kw, "where");
    if (a.x.t === "none") throw new UnsupportedError("tf.where with one argument");
    const out = where(tfTensorArg(a.condition), tfTensorArg(a.x), tfTensorArg(a.y));
    return { ...out, lib: "tf" };
  }),
};
TF.convert_to_tensor = TF.constant;
for (const [alias, dtype] of Object.entries(TF_DTYPES)) TF[alias] = dtypeValue(dtype, "tf");

// np.array(...) in a typed answer (NumPy's printed form): read as torch.tensor.
const NP = { array: TORCH.tensor };
for (const [alias, dtype] of Object.entries(TF_DTYPES)) NP[alias] = dtypeValue(dtype, "torch");

// ---- tensor methods and attributes

function callMethod(t, name, g, kw) {
  const noKw = () => {
    if (kw.length) throw new UnsupportedError(`the argument ${kw[0][0]}= of .${name}()`);
  };
  const dimKw = (spec) => args(spec, g, kw, name);
  if (t.lib === "tf" && !["numpy", "__tf_shape__"].includes(name))
    throw new UnsupportedError(`the method .${name}() of a TensorFlow tensor (use the tf.* function)`);
  switch (name) {
    case "gather": {
      const a = dimKw(["dim", "index"]);
      return family("gather", t, a.dim, a.index);
    }
    case "index_select": {
      const a = dimKw(["dim", "index"]);
      return family("index_select", t, a.dim, a.index);
    }
    case "take": {
      const a = dimKw(["index"]);
      return family("take", t, null, a.index);
    }
    case "take_along_dim": {
      const a = dimKw(["indices", "dim=None"]);
      return family("take_along_dim", t, optionalInt(a.dim), a.indices);
    }
    case "unsqueeze": return unsqueeze(t, toInt(dimKw(["dim"]).dim));
    case "squeeze": {
      const a = dimKw(["dim=None"]);
      if (a.dim.t === "none") return squeeze(t, null);
      return squeeze(t, a.dim.t === "tuple" || a.dim.t === "list" ? a.dim.items.map((v) => toInt(v)) : [toInt(a.dim)]);
    }
    case "expand": noKw(); return expand(t, sizesFrom(needArgs(g, name), "expand"));
    case "expand_as": return expand(t, asTensor(dimKw(["other"]).other).shape.slice());
    case "reshape": noKw(); return reshape(t, sizesFrom(g, "reshape"));
    case "view": {
      noKw();
      if (g.length === 1 && g[0].t === "dtype") throw new UnsupportedError(".view(dtype)");
      return reshape(t, sizesFrom(g, "view"), true);
    }
    case "view_as": case "reshape_as": return reshape(t, asTensor(dimKw(["other"]).other).shape.slice(), name === "view_as");
    case "repeat": noKw(); return repeatTensor(t, sizesFrom(g, "repeat"));
    case "repeat_interleave": {
      const a = dimKw(["repeats", "dim=None"]);
      return repeatInterleave(t, a.repeats, optionalInt(a.dim));
    }
    case "flatten": {
      const a = dimKw(["start_dim=0", "end_dim=-1"]);
      return flatten(t, toInt(a.start_dim), toInt(a.end_dim));
    }
    case "long": case "int": case "float": case "double": case "bool": case "short": {
      noKw();
      if (g.length) throw new PyError("TypeError", `${name}() takes no arguments`);
      const d = TORCH_DTYPES[name];
      if (d === t.dtype) return t;  // torch returns the tensor itself
      return tensor(t.shape, t.data.map((v) => cast(v, d)), d);
    }
    case "to": case "type": {
      const a = dimKw(["dtype"]);
      if (a.dtype.t !== "dtype") throw new UnsupportedError(`.${name}() with anything but a dtype`);
      if (a.dtype.name === t.dtype) return t;  // torch returns the tensor itself
      return tensor(t.shape, t.data.map((v) => cast(v, a.dtype.name)), a.dtype.name);
    }
    case "round": {
      const a = dimKw(["decimals=0"]);
      if (t.dtype === "bool") throw new PyError("NotImplementedError", '"round_cpu" not implemented for \'Bool\'');
      if (toInt(a.decimals) !== 0) throw new UnsupportedError(".round(decimals=...)");
      return tensor(t.shape, t.data.map((v) => (isFloat(t.dtype) ? cast(roundHalfEven(v), t.dtype) : v)), t.dtype);
    }
    case "floor": case "ceil": case "abs": case "neg": {
      noKw();
      const f = { floor: Math.floor, ceil: Math.ceil, abs: Math.abs, neg: (v) => -v }[name];
      if (t.dtype === "bool" && name !== "abs") throw new PyError("RuntimeError", `${name} is not supported for bool tensors`);
      return tensor(t.shape, t.data.map((v) => cast(f(v) + 0, t.dtype)), t.dtype);
    }
    case "size": {
      const a = dimKw(["dim=None"]);
      if (a.dim.t === "none") return { ...tuple(t.shape.map(pyInt)), size: true };
      if (!t.shape.length) throw new PyError("IndexError", `Dimension specified as ${toInt(a.dim)} but tensor has no dimensions`);
      return pyInt(t.shape[normDim(toInt(a.dim), t.shape.length)]);
    }
    case "dim": case "ndimension": noKw(); return pyInt(t.shape.length);
    case "numel": case "nelement": noKw(); return pyInt(t.data.length);
    case "item": {
      noKw();
      if (t.data.length !== 1) throw new PyError("RuntimeError", `a Tensor with ${t.data.length} elements cannot be converted to Scalar`);
      return scalarOf(t, 0);
    }
    case "tolist": noKw(); return toList(t);
    case "clone": noKw(); return tensor(t.shape, t.data.slice(), t.dtype);
    case "contiguous": {  // the tensor itself where it is row-major in memory, as torch's
      noKw();
      const rowMajor = strides(t.shape);
      if (!t.alias || t.shape.every((s, d) => s <= 1 || t.alias.strides[d] === rowMajor[d])) return t;
      return tensor(t.shape, t.data.slice(), t.dtype);
    }
    case "detach": noKw(); return viewTensor(t, t.shape.slice(), layoutOf(t));  // the same memory
    case "t": {
      noKw();
      if (t.shape.length > 2) throw new PyError("RuntimeError", `t() expects a tensor with <= 2 dimensions, but self is ${t.shape.length}D`);
      return t.shape.length < 2 ? t : transpose(t, 0, 1);
    }
    case "transpose": {
      const a = dimKw(["dim0", "dim1"]);
      return transpose(t, toInt(a.dim0), toInt(a.dim1));
    }
    case "permute": noKw(); return permute(t, sizesFrom(needArgs(g, name), "permute"));
    case "sum": case "any": case "all": case "max": case "min": case "prod": {
      const a = dimKw(["dim=None", "keepdim=False"]);
      if ((name === "max" || name === "min") && a.dim.t !== "none") throw new UnsupportedError(`.${name}(dim) (it returns values and indices)`);
      return reduce(t, optionalInt(a.dim), a.keepdim.v, name);
    }
    case "scatter": case "scatter_": case "scatter_add": case "scatter_add_": {
      const a = dimKw(["dim", "index", "src"]);
      const out = scatterOp(name, t, a.dim, a.index, a.src, name.startsWith("scatter_add") ? "sum" : "none");
      return name.endsWith("_") ? inPlace(t, out, a.src, a.index) : out;
    }
    case "log_softmax": case "softmax": {
      const a = dimKw(["dim"]);
      return softmax(t, toInt(a.dim), name === "log_softmax");
    }
    case "diag": noKw(); return diag(t);
    case "diagonal": {
      const a = dimKw(["offset=0", "dim1=0", "dim2=1"]);
      return diagonal(t, toInt(a.offset), toInt(a.dim1), toInt(a.dim2));
    }
    case "scatter_reduce": case "scatter_reduce_": {
      const a = dimKw(["dim", "index", "src", "reduce", "include_self=True"]);
      const reduce = a.reduce.t === "str" ? a.reduce.v : null;
      if (!REDUCTIONS.includes(reduce))
        throw new PyError("RuntimeError", `reduce argument must be either sum, prod, mean, amax or amin, got ${a.reduce.t === "str" ? a.reduce.v : typeName(a.reduce)}`);
      const out = scatterOp(name, t, a.dim, a.index, a.src, reduce, Boolean(a.include_self.v));
      return name.endsWith("_") ? inPlace(t, out, a.src, a.index) : out;
    }
    case "index_add": case "index_add_": {
      const a = dimKw(["dim", "index", "source"]);
      const out = indexAdd(name, t, a.dim, a.index, a.source);
      return name.endsWith("_") ? inPlace(t, out, a.source, a.index) : out;
    }
    case "index_put": case "index_put_": {
      const a = dimKw(["indices", "values", "accumulate=False"]);
      const out = indexPut(name, t, a.indices, a.values, truthy(a.accumulate));
      return name.endsWith("_") ? inPlace(t, out) : out;
    }
    case "argsort": {
      const a = dimKw(["dim=-1", "descending=False", "stable=False"]);
      return argsort(t, toInt(a.dim), truthy(a.descending));
    }
    case "clamp": {
      const a = dimKw(["min=None", "max=None"]);
      return clamp(t, a.min, a.max);
    }
    case "bincount": {
      const a = dimKw(["weights=None", "minlength=0"]);
      return bincount(t, toInt(a.minlength), a.weights);
    }
    default:
      throw new UnsupportedError(`the method .${name}()`);
  }
}

const METHODS = new Set([
  "gather", "index_select", "take", "take_along_dim", "unsqueeze", "squeeze", "expand",
  "expand_as", "reshape", "view", "view_as", "reshape_as", "repeat", "repeat_interleave",
  "flatten", "long", "int", "float", "double", "bool", "short", "to", "type", "round",
  "floor", "ceil", "abs", "neg", "size", "dim", "ndimension", "numel", "nelement", "item",
  "tolist", "clone", "contiguous", "detach", "t", "transpose", "permute", "sum", "any",
  "all", "max", "min", "prod", "scatter", "scatter_", "scatter_add", "scatter_add_",
  "scatter_reduce", "scatter_reduce_", "index_add", "index_add_", "index_put", "index_put_",
  "argsort", "clamp", "bincount", "log_softmax", "softmax", "diag", "diagonal",
]);

function needArgs(g, name) {
  if (!g.length) throw new PyError("TypeError", `${name}() missing 1 required positional arguments: "size"`);
  return g;
}

function scalarOf(t, k) {
  const v = t.data[k];
  if (t.dtype === "bool") return pyBool(v);
  return isFloat(t.dtype) ? pyFloat(v) : pyInt(v);
}

function toList(t) {
  const build = (axis, offset) => {
    if (axis === t.shape.length) return scalarOf(t, offset);
    const st = prod(t.shape.slice(axis + 1));
    const items = [];
    for (let k = 0; k < t.shape[axis]; k++) items.push(build(axis + 1, offset + k * st));
    return list(items);
  };
  return build(0, 0);
}

function attribute(value, name) {
  if (value.t === "module") {
    const table = { torch: TORCH, tf: TF, np: NP, "torch.nn": NN, "torch.nn.functional": FUNCTIONAL }[value.name];
    if (Object.hasOwn(table, name) && table[name]) return table[name];
    throw new UnsupportedError(`${value.name}.${name}`);
  }
  if (value.t === "tensor") {
    if (name === "shape") return { ...tuple(value.shape.map(pyInt)), size: true };
    if (name === "ndim") return pyInt(value.shape.length);
    if (name === "dtype") return dtypeValue(value.dtype, value.lib);
    if (name === "data" && value.lib === "torch") return value;  // no autograd here
    if (name === "T" && value.lib === "torch") return value.shape.length < 2 ? value : permute(value, value.shape.map((_, d) => value.shape.length - 1 - d));
    if (value.lib === "tf" || !METHODS.has(name)) throw new UnsupportedError(`the attribute .${name} of a ${value.lib === "tf" ? "TensorFlow " : ""}tensor`);
    return { t: "method", self: value, name };
  }
  if (value.t === "list" && name === "append") return { t: "method", self: value, name };
  throw new UnsupportedError(`the attribute .${name} of a ${typeName(value)}`);
}

// ------------------------------------------------------------------ builtins

function iterate(value) {
  if (value.t === "range") return value.items;
  if (value.t === "list" || value.t === "tuple") return value.items.slice();
  if (value.t === "tensor") {
    if (value.shape.length === 0) throw new PyError("TypeError", "iteration over a 0-d tensor");
    const items = [];
    for (let k = 0; k < value.shape[0]; k++) items.push(getItem(value, pyInt(k)));
    return items;
  }
  throw new PyError("TypeError", `'${typeName(value)}' object is not iterable`);
}

// str(value), for an assert's message: a str as it is, anything else as its repr.
const asText = (value) => (value.t === "str" ? value.v : repr(value));

function truthy(value) {
  switch (value.t) {
    case "bool": case "int": case "float": return numberOf(value) !== 0;
    case "none": return false;
    case "str": return value.v.length > 0;
    case "list": case "tuple": return value.items.length > 0;
    case "range": return value.items.length > 0;
    case "tensor":
      if (value.data.length !== 1) throw new PyError("RuntimeError", `Boolean value of Tensor with more than one value is ambiguous`);
      return value.data[0] !== 0;
    default: return true;
  }
}

// Python's other builtins: a learner's code may use them, so the page says it cannot
// run them instead of calling them undefined (the notebook runs them).
const PYTHON_BUILTINS = new Set([
  "sum", "sorted", "reversed", "map", "filter", "any", "all", "round", "divmod", "pow",
  "isinstance", "issubclass", "type", "str", "bool", "dict", "set", "frozenset", "iter",
  "next", "hasattr", "getattr", "setattr", "callable", "id", "hash", "ord", "chr", "bin",
  "hex", "oct", "format", "vars", "dir", "globals", "locals", "eval", "exec", "open",
  "input", "super", "object", "property", "staticmethod", "classmethod", "bytes",
  "bytearray", "memoryview", "complex", "ascii", "compile", "delattr", "help",
  "breakpoint", "__import__", "KeyError", "AssertionError", "ZeroDivisionError",
  "NotImplementedError", "StopIteration", "AttributeError", "NameError", "ArithmeticError",
]);

const BUILTINS = {
  range: fn("range", (g) => {
    const ints = g.map((v) => toInt(v, "an integer"));
    const [start, stop, step] = ints.length === 1 ? [0, ints[0], 1] : [ints[0], ints[1], ints[2] ?? 1];
    if (step === 0) throw new PyError("ValueError", "range() arg 3 must not be zero");
    const items = [];
    for (let v = start; step > 0 ? v < stop : v > stop; v += step) {
      items.push(pyInt(v));
      if (items.length > MAX_ENTRIES) throw new UnsupportedError("ranges this long");
    }
    return { t: "range", items };
  }),
  len: fn("len", (g) => {
    const [v] = g;
    if (v.t === "tensor") {
      if (!v.shape.length) throw new PyError("TypeError", "len() of a 0-d tensor");
      return pyInt(v.shape[0]);
    }
    return pyInt(iterate(v).length);
  }),
  int: fn("int", (g) => {
    const [v] = g;
    if (v.t === "tensor") {
      if (v.data.length !== 1) throw new PyError("RuntimeError", `a Tensor with ${v.data.length} elements cannot be converted to Scalar`);
      return pyInt(Math.trunc(v.data[0]) + 0);
    }
    if (isNumber(v)) return pyInt(Math.trunc(numberOf(v)) + 0);
    throw new PyError("TypeError", `int() argument must be a number, not '${typeName(v)}'`);
  }),
  float: fn("float", (g) => {
    const [v] = g;
    if (v.t === "tensor" && v.data.length === 1) return pyFloat(v.data[0]);
    if (isNumber(v)) return pyFloat(numberOf(v));
    throw new PyError("TypeError", `float() argument must be a number, not '${typeName(v)}'`);
  }),
  list: fn("list", (g) => list(g.length ? iterate(g[0]) : [])),
  tuple: fn("tuple", (g) => tuple(g.length ? iterate(g[0]) : [])),
  abs: fn("abs", (g) => (g[0].t === "tensor" ? callMethod(g[0], "abs", [], []) : g[0].t === "float" ? pyFloat(Math.abs(g[0].v)) : pyInt(Math.abs(numberOf(g[0]))))),
  min: fn("min", (g) => pickExtreme(g, (a, b) => a < b)),
  max: fn("max", (g) => pickExtreme(g, (a, b) => a > b)),
  // print shows nothing on the page (the notebook prints): its arguments still run
  print: fn("print", () => NONE),
  repr: fn("repr", (g) => ({ t: "str", v: repr(g[0]) })),
  enumerate: fn("enumerate", (g) => list(iterate(g[0]).map((v, k) => tuple([pyInt(k), v])))),
  zip: fn("zip", (g) => {
    const lists = g.map(iterate);
    const n = Math.min(...lists.map((l) => l.length));
    return list(Array.from({ length: n }, (_, k) => tuple(lists.map((l) => l[k]))));
  }),
  // slice(stop), slice(start, stop[, step]): what `start:stop:step` builds
  slice: fn("slice", (g) => {
    if (!g.length || g.length > 3) throw new PyError("TypeError", `slice expected at least 1 argument, got ${g.length}`);
    const [start, stop, step] = (g.length === 1 ? [NONE, g[0], NONE] : [g[0], g[1], g[2] ?? NONE]).map(optionalInt);
    return { t: "slice", start, stop, step };
  }),
  IndexError: { t: "exception", name: "IndexError" },
  ValueError: { t: "exception", name: "ValueError" },
  RuntimeError: { t: "exception", name: "RuntimeError" },
  TypeError: { t: "exception", name: "TypeError" },
  Exception: { t: "exception", name: "Exception" },
};

function pickExtreme(g, better) {
  const items = g.length === 1 ? iterate(g[0]) : g;
  if (!items.length) throw new PyError("ValueError", "max() arg is an empty sequence");
  return items.reduce((best, v) => (better(numberOf(v), numberOf(best)) ? v : best));
}

// ------------------------------------------------------------------ interpreter

class Return {
  constructor(value) {
    this.value = value;
  }
}

function binary(op, left, right) {
  if (op === "@") throw new UnsupportedError("the @ operator");
  if (left.t === "tensor" || right.t === "tensor") return tensorBinary(op, left, right);
  if (isNumber(left) && isNumber(right)) {
    const x = numberOf(left);
    const y = numberOf(right);
    const float = left.t === "float" || right.t === "float";
    if ((op === "/" || op === "//" || op === "%") && y === 0)
      throw new PyError("ZeroDivisionError", op === "/" ? "division by zero" : "integer division or modulo by zero");
    if (COMPARISONS.has(op)) return pyBool(ARITH[op](x, y));
    if (op === "&" || op === "|") {
      if (float) throw new PyError("TypeError", `unsupported operand type(s) for ${op}: 'float' and 'int'`);
      const v = ARITH[op](x, y);
      return left.t === "bool" && right.t === "bool" ? pyBool(v) : pyInt(v);
    }
    const v = ARITH[op](x, y);
    if (op === "/" || float) return pyFloat(v);
    if (op === "**" && y < 0) return pyFloat(v);
    return pyInt(v);
  }
  if ((left.t === "list" || left.t === "tuple") && op === "+" && right.t === left.t) return { t: left.t, items: [...left.items, ...right.items] };
  if ((left.t === "list" || left.t === "tuple") && op === "*" && (right.t === "int" || right.t === "bool")) {
    const items = [];
    for (let r = 0; r < numberOf(right); r++) items.push(...left.items);
    return { t: left.t, items };
  }
  if ((right.t === "list" || right.t === "tuple") && op === "*" && left.t === "int") return binary(op, right, left);
  if (op === "==" || op === "!=") {
    const same = equalValues(left, right);
    return pyBool(op === "==" ? same : !same);
  }
  throw new PyError("TypeError", `unsupported operand type(s) for ${op}: '${typeName(left)}' and '${typeName(right)}'`);
}

// torch's x op= y: in place, into x's memory, after torch's checks (no two entries of
// x share memory, y does not partly overlap x), where y broadcasts to x's shape and
// the result's dtype casts to x's (no float into an integer tensor, only bool into bool).
function augmented(op, current, other) {
  const layout = layoutOf(current);
  assertNoInternalOverlap(current.shape, layout);
  assertNoPartialOverlap(current.shape, layout, other);
  const refuseCast = (dtype) => {
    if (category(dtype) > category(current.dtype))
      throw new PyError("RuntimeError", `result type ${torchDtypeName(dtype)} can't be cast to the desired output type ${torchDtypeName(current.dtype)}`);
  };
  refuseCast(promote(current, asTensor(other, current.lib, current)));  // torch checks before it computes
  const value = binary(op, current, other);
  refuseCast(value.dtype);  // integer / integer is a float
  if (value.shape.length !== current.shape.length || value.shape.some((s, d) => s !== current.shape[d]))
    throw new PyError("RuntimeError", `output with shape [${current.shape.join(", ")}] doesn't match the broadcast shape [${value.shape.join(", ")}]`);
  writeAt(layout.storage, offsetsOf(current.shape, layout), value.data, current.dtype);
}

function equalValues(a, b) {
  if (isNumber(a) && isNumber(b)) return numberOf(a) === numberOf(b);
  if ((a.t === "list" || a.t === "tuple") && a.t === b.t)
    return a.items.length === b.items.length && a.items.every((v, k) => equalValues(v, b.items[k]));
  if (a.t === "none" && b.t === "none") return true;
  if (a.t === "str" && b.t === "str") return a.v === b.v;
  if (a.t === "dtype" && b.t === "dtype") return a.name === b.name;
  return false;
}

export function run(source, inputs = {}, options = {}) {
  const program = parse(source);
  const scope = new Map(Object.entries(inputs));
  const lib = options.lib ?? "torch";
  scope.set("torch", { t: "module", name: "torch" });
  if (lib === "tf" || options.tf) scope.set("tf", { t: "module", name: "tf" });
  // options.forbid: names (torch.gather, torch.Tensor.gather, tensorflow.gather_nd) the
  // code may not call; options.calls collects every name it calls.
  const forbid = new Set(options.forbid ?? []);
  const called = (name) => {
    if (forbid.has(name)) throw new ForbiddenError(name);
    if (options.calls) options.calls.add(name);
  };
  let steps = 0;
  const tick = () => {
    if (++steps > MAX_STEPS) throw new UnsupportedError(`answers that take more than ${MAX_STEPS} steps`);
  };

  const lookup = (name) => {
    if (scope.has(name)) return scope.get(name);
    if (Object.hasOwn(BUILTINS, name)) return BUILTINS[name];
    if (["np", "numpy", "F", "nn", "math"].includes(name)) throw new UnsupportedError(`the name ${name} (only torch${options.tf ? " and tf" : ""} and the exercise's arguments)`);
    if (PYTHON_BUILTINS.has(name)) throw new UnsupportedError(`Python's builtin ${name}`);
    throw new PyError("NameError", `name '${name}' is not defined`);
  };

  function evaluate(node) {
    tick();
    switch (node.e) {
      case "const": return node.v;
      case "name": return lookup(node.name);
      case "tuple": return tuple(node.items.map(evaluate));
      case "list": return list(node.items.map(evaluate));
      case "comp": {
        const items = [];
        for (const item of iterate(evaluate(node.iterable))) {
          bind(node.target, item);
          if (node.conditions.every((c) => truthy(evaluate(c)))) items.push(evaluate(node.element));
        }
        return list(items);
      }
      case "slice": {
        const part = (p) => (p === null ? null : optionalInt(evaluate(p)));
        return { t: "slice", start: part(node.start), stop: part(node.stop), step: part(node.step) };
      }
      case "attr": return attribute(evaluate(node.value), node.name);
      case "subscript": return getItem(evaluate(node.value), evaluate(node.index));
      case "call": {
        const func = evaluate(node.func);
        const g = node.args.map(evaluate);
        const kw = node.kwargs.map(([k, v]) => [k, evaluate(v)]);
        return callValue(func, g, kw);
      }
      case "unary": {
        const v = evaluate(node.value);
        if (v.t === "tensor") {
          if (node.op === "~") {
            if (isFloat(v.dtype)) throw new PyError("TypeError", "~ (bitwise_not) is only implemented for integer and boolean tensors");
            return tensor(v.shape, v.data.map((x) => (v.dtype === "bool" ? (x ? 0 : 1) : ~x)), v.dtype, v.lib);
          }
          if (node.op === "-" && v.dtype === "bool") throw new PyError("RuntimeError", "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.");
          return node.op === "-" ? tensor(v.shape, v.data.map((x) => cast(-x + 0, v.dtype)), v.dtype, v.lib) : v;
        }
        if (!isNumber(v)) throw new PyError("TypeError", `bad operand type for unary ${node.op}: '${typeName(v)}'`);
        if (node.op === "~") return pyInt(~numberOf(v));
        const x = node.op === "-" ? -numberOf(v) : numberOf(v);
        return v.t === "float" ? pyFloat(x) : pyInt(x + 0);
      }
      case "bin": return binary(node.op, evaluate(node.left), evaluate(node.right));
      case "compare": {
        let left = evaluate(node.first);
        let result = null;
        for (let k = 0; k < node.ops.length; k++) {
          const right = evaluate(node.rest[k]);
          const op = node.ops[k];
          let value;
          if (op === "is" || op === "is not") {
            const same = left === right || (left.t === "none" && right.t === "none");
            value = pyBool(op === "is" ? same : !same);
          } else if (op === "in" || op === "not in") {
            const found = iterate(right).some((v) => equalValues(v, left));
            value = pyBool(op === "in" ? found : !found);
          } else value = binary(op, left, right);
          if (node.ops.length === 1) return value;
          if (value.t === "tensor") throw new UnsupportedError("chained comparisons of tensors");
          if (!value.v) return pyBool(false);
          result = value;
          left = right;
        }
        return result;
      }
      case "bool": {
        const left = evaluate(node.left);
        if (node.op === "and") return truthy(left) ? evaluate(node.right) : left;
        return truthy(left) ? left : evaluate(node.right);
      }
      case "not": return pyBool(!truthy(evaluate(node.value)));
      case "ifexp": return truthy(evaluate(node.test)) ? evaluate(node.body) : evaluate(node.orelse);
      case "fstr": return { t: "str", v: node.parts.map((part) => (typeof part === "string" ? part : displayText(evaluate(part)))).join("") };
      default: throw new UnsupportedError(`this kind of expression (${node.e})`);
    }
  }

  function callValue(func, g, kw) {
    if (func.t === "func") {
      called(func.name.replace(/^tf\./, "tensorflow."));
      return func.call(g, kw);
    }
    if (func.t === "method") {
      if (func.self.t === "list") {
        func.self.items.push(g[0]);
        return NONE;
      }
      called(`torch.Tensor.${func.name}`);
      return callMethod(func.self, func.name, g, kw);
    }
    if (func.t === "exception") return { t: "exc", name: func.name, message: g[0] ? displayText(g[0]) : "" };
    if (func.t === "dtype") throw new UnsupportedError(`calling ${func.name}`);
    throw new PyError("TypeError", `'${typeName(func)}' object is not callable`);
  }

  function bind(target, value) {
    if (target.e === "name") {
      scope.set(target.name, value);
      return;
    }
    if (target.e === "subscript") {
      // x[i][j] = v writes into x where x[i] is a view (basic indexing), as in torch
      setItem(evaluate(target.value), evaluate(target.index), value);
      return;
    }
    const items = iterate(value);
    if (items.length !== target.items.length)
      throw new PyError("ValueError", items.length > target.items.length ? `too many values to unpack (expected ${target.items.length})` : `not enough values to unpack (expected ${target.items.length}, got ${items.length})`);
    target.items.forEach((t, k) => bind(t, items[k]));
  }

  function execute(body) {
    for (const statement of body) {
      tick();
      switch (statement.s) {
        case "pass": break;
        case "import":
          for (const { name, as } of statement.names) {
            if (name === "torch") scope.set(as, { t: "module", name: "torch" });
            else if (name === "tensorflow" && (lib === "tf" || options.tf)) scope.set(as, { t: "module", name: "tf" });
            else throw new UnsupportedError(`import ${name}`);
          }
          break;
        case "assign": {
          const value = evaluate(statement.value);
          for (const target of statement.targets) bind(target, value);
          break;
        }
        case "augassign": {
          const target = statement.target;
          const [root, index] = target.e === "subscript" ? [evaluate(target.value), evaluate(target.index)] : [null, null];
          const current = root ? getItem(root, index) : evaluate(target);
          const other = evaluate(statement.value);
          if (current.t !== "tensor" || current.lib !== "torch") {
            const value = binary(statement.op, current, other);
            if (root) setItem(root, index, value);
            else bind(target, value);
            break;
          }
          augmented(statement.op, current, other);
          // a basic index's view wrote into root; an advanced one's copy is put back
          if (root && (root.t !== "tensor" || !basicLayout(root, index))) setItem(root, index, current);
          break;
        }
        case "expr": {
          const value = evaluate(statement.value);
          lastValue = value;
          break;
        }
        case "return": throw new Return(statement.value === null ? NONE : evaluate(statement.value));
        case "assert":
          if (!truthy(evaluate(statement.test)))
            throw new PyError("AssertionError", statement.message === null ? "" : asText(evaluate(statement.message)));
          break;
        case "raise": {
          const exc = evaluate(statement.value);
          if (exc.t === "exception") throw new PyError(exc.name, "");
          if (exc.t === "exc") throw new PyError(exc.name, exc.message);
          throw new PyError("TypeError", "exceptions must derive from BaseException");
        }
        case "for":
          for (const item of iterate(evaluate(statement.iterable))) {
            bind(statement.target, item);
            execute(statement.body);
          }
          break;
        case "if":
          execute(truthy(evaluate(statement.test)) ? statement.body : statement.orelse);
          break;
        default: throw new UnsupportedError(statement.s);
      }
      if (statement.s !== "expr") lastValue = null;
    }
  }

  let lastValue = null;
  try {
    execute(program);
  } catch (signal) {
    if (signal instanceof Return) return signal.value;
    throw signal;
  }
  // options.function: the lines are a function's body, whose value is what `return`
  // gives (None without one), as Python calls it
  if (options.function) return NONE;
  if (lastValue === null) throw new PyError("ValueError", "the answer has no value: end with the expression (or `return` it)");
  return lastValue;
}

function displayText(value) {
  if (value.t === "str") return value.v;
  return repr(value);
}

// Python's repr of a value, for messages (tensors through core.mjs's formatter).
export function repr(value) {
  switch (value.t) {
    case "int": return String(value.v);
    case "float": return floatRepr(value.v);
    case "bool": return value.v ? "True" : "False";
    case "none": return "None";
    case "str": return strRepr(value.v);
    case "list": return `[${value.items.map(repr).join(", ")}]`;
    case "tuple": return value.size ? `torch.Size([${value.items.map(repr).join(", ")}])` : value.items.length === 1 ? `(${repr(value.items[0])},)` : `(${value.items.map(repr).join(", ")})`;
    case "tensor": return `tensor of shape (${value.shape.join(", ")}${value.shape.length === 1 ? "," : ""}) and dtype ${value.dtype}`;
    default: return typeName(value);
  }
}

// The names a typed answer may use: tensor(...) and array(...) as torch and NumPy print
// them, with their dtypes (tf.Tensor's printed forms are rewritten to these first).
export function literalScope() {
  const scope = { tensor: TORCH.tensor, array: TORCH.tensor, torch: { t: "module", name: "torch" } };
  for (const [alias, dtype] of Object.entries(TORCH_DTYPES)) scope[alias] = dtypeValue(dtype, "torch");
  scope.np = { t: "module", name: "np" };
  return scope;
}

export { formatValue };
