// The interpreter's values: Python's numbers, lists and tuples, and tensors with their
// dtypes, broadcasting, type promotion, arithmetic and memory (views and writes), shared
// by the torch and TensorFlow emulations (torch.mjs, tensorflow.mjs).
// A tensor is {t: "tensor", lib: "torch" | "tf", dtype, shape: [..], data: [..] row-major}.

import { isFloat } from "../explorers/core.mjs";
import TABLE from "../errors/error_rules.mjs";
import { floatRepr, NONE, PyError, pyInt, UnsupportedError } from "./python.mjs";

export const MAX_ENTRIES = 100000;

// ------------------------------------------------------------------ values

export const pyFloat = (v) => ({ t: "float", v });
export const pyBool = (v) => ({ t: "bool", v: Boolean(v) });
export const tuple = (items) => ({ t: "tuple", items });
export const list = (items) => ({ t: "list", items });

export const prod = (shape) => shape.reduce((a, b) => a * b, 1);
const INTS = ["uint8", "int8", "int16", "int32", "int64"];
const isIntDtype = (d) => INTS.includes(d);
export const category = (d) => (d === "bool" ? 0 : isIntDtype(d) ? 1 : 2);
const RANK = {
  bool: 0,
  uint8: 1,
  int8: 1,
  int16: 2,
  int32: 3,
  int64: 4,
  float16: 5,
  bfloat16: 5,
  float32: 6,
  float64: 7,
};

export function cast(value, dtype) {
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
  if (data.length > MAX_ENTRIES)
    throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
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
    for (let o = 0; o < layout.storage.length; o++) layout.storage[o] ??= 0; // no entry reads it
    return viewTensor(
      tensor([layout.storage.length], layout.storage, value.dtype, lib),
      value.shape.slice(),
      layout,
    );
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
const toJsonNumber = (v) =>
  Number.isFinite(v) ? v : Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";

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

export const typeName = (value) => {
  if (value.t === "tensor") return value.lib === "tf" ? "tf.Tensor" : "Tensor";
  return (
    {
      int: "int",
      float: "float",
      bool: "bool",
      none: "NoneType",
      str: "str",
      list: "list",
      tuple: "tuple",
      ellipsis: "ellipsis",
      dtype: "torch.dtype",
      module: "module",
      func: "builtin_function_or_method",
      range: "range",
    }[value.t] ?? value.t
  );
};

export function isNumber(value) {
  return value.t === "int" || value.t === "float" || value.t === "bool";
}
export const numberOf = (value) => (value.t === "bool" ? (value.v ? 1 : 0) : value.v);

export function toInt(value, what = "an integer") {
  if (value.t === "int") return value.v;
  if (value.t === "bool") return value.v ? 1 : 0;
  if (
    value.t === "tensor" &&
    value.data.length === 1 &&
    !isFloat(value.dtype) &&
    value.shape.length === 0
  )
    return value.data[0];
  throw new PyError("TypeError", `expected ${what}, got ${typeName(value)}`);
}

export function sizesFrom(args, name) {
  // f(2, 3), f((2, 3)), f([2, 3]), f(torch.Size)
  if (args.length === 1 && (args[0].t === "tuple" || args[0].t === "list"))
    return args[0].items.map((v) => toInt(v, `${name}'s sizes to be ints`));
  if (
    args.length === 1 &&
    args[0].t === "tensor" &&
    args[0].shape.length === 1 &&
    !isFloat(args[0].dtype)
  )
    return args[0].data.slice();
  return args.map((v) => toInt(v, `${name}'s sizes to be ints`));
}

// ---- building tensors from Python values (torch.tensor, tf.constant, indices)

export function fromSequence(value, dtype, lib) {
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
        throw new PyError(
          "ValueError",
          `expected sequence of length ${shapes[0][0] ?? 0} at dim 1 (got ${shapes.find((s) => s.join(",") !== shapes[0].join(","))[0]})`,
        );
      return [item.items.length, ...(shapes[0] ?? [])];
    }
    if (item.t === "tensor") {
      sourceDtype = item.dtype;
      return item.shape.slice();
    }
    if (!isNumber(item))
      throw new PyError("TypeError", `could not make a tensor of ${typeName(item)}`);
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
  else if (sawFloat)
    inferred =
      lib === "tf" ? "float32" : sourceDtype && isFloat(sourceDtype) ? sourceDtype : "float32";
  else if (sawInt) inferred = lib === "tf" ? "int32" : "int64";
  else if (sawBool) inferred = "bool";
  else inferred = "float32"; // an empty list
  const target = dtype ?? inferred;
  if (lib === "tf" && dtype && isIntDtype(dtype) && sawFloat)
    throw new PyError("TypeError", `Cannot convert a float to an integer tensor of dtype ${dtype}`);
  return tensor(
    shape,
    flat.map((v) => cast(v, target)),
    target,
    lib,
  );
}

export function asTensor(value, lib = "torch", like = null) {
  if (value.t === "tensor") return value;
  if (isNumber(value)) {
    let dtype;
    if (like && lib === "tf") dtype = like.dtype;
    else
      dtype =
        value.t === "float"
          ? "float32"
          : value.t === "bool"
            ? "bool"
            : lib === "tf"
              ? "int32"
              : "int64";
    return { ...tensor([], [cast(numberOf(value), dtype)], dtype, lib), scalar: value.t };
  }
  if (value.t === "list" || value.t === "tuple") return fromSequence(value, null, lib);
  throw new PyError("TypeError", `expected a tensor, got ${typeName(value)}`);
}

// ------------------------------------------------------------------ shapes, broadcasting

export function normDim(dim, rank, op = "") {
  const r = Math.max(rank, 1);
  if (dim < -r || dim >= r)
    throw new PyError(
      "IndexError",
      `Dimension out of range (expected to be in range of [${-r}, ${r - 1}], but got ${dim})${op}`,
    );
  return dim < 0 ? dim + r : dim;
}

export function strides(shape) {
  const out = new Array(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; d--) {
    out[d] = s;
    s *= Math.max(shape[d], 1); // as torch's: a size-0 dim steps as a size-1 one
  }
  return out;
}

export function forEachCoord(shape, fn) {
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

export function broadcastShapes(a, b) {
  const rank = Math.max(a.length, b.length);
  const out = [];
  for (let k = 0; k < rank; k++) {
    const x = a[a.length - rank + k] ?? 1;
    const y = b[b.length - rank + k] ?? 1;
    if (x !== y && x !== 1 && y !== 1)
      throw new PyError(
        "RuntimeError",
        `The size of tensor a (${x}) must match the size of tensor b (${y}) at non-singleton dimension ${k}`,
      );
    out.push(x === 1 ? y : x);
  }
  return out;
}

// The data of t read at every coordinate of `shape` (t's shape broadcasts to it).
export function broadcastData(t, shape) {
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
export function promote(a, b) {
  const level = (o) => (o.scalar ? 2 : o.shape.length === 0 ? 1 : 0);
  const dt = (o) =>
    o.scalar
      ? o.scalar === "float"
        ? "float32"
        : o.scalar === "bool"
          ? "bool"
          : "int64"
      : o.dtype;
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

// TensorFlow's names for dtypes in its kernels' words (float, double: C++ types).
const TF_KERNEL_NAMES = { float32: "float", float64: "double", float16: "half" };
const tfName = (dtype) => TF_KERNEL_NAMES[dtype] ?? dtype;

export function tfDtypeCheck(a, b, name) {
  if (a.dtype !== b.dtype)
    throw new PyError(
      "InvalidArgumentError",
      `cannot compute ${name} as input #1(zero-based) was expected to be a ${tfName(a.dtype)} tensor but is a ${tfName(b.dtype)} tensor`,
    );
}

// A Python float beside an integer TensorFlow tensor: TensorFlow converts it to the
// tensor's dtype and refuses (TypeError), but where the tensor is on the left of + (the
// float becomes a float32 tensor AddV2 refuses) or of / (truediv's own check).
function tfFloatOperand(op, left, right) {
  const [tensorSide, number] = left.t === "tensor" ? [left, right] : [right, left];
  if (number.t !== "float" || tensorSide.t !== "tensor" || !isIntDtype(tensorSide.dtype)) return;
  const dtype = tensorSide.dtype;
  if (left === tensorSide && op === "+")
    throw new PyError(
      "InvalidArgumentError",
      `cannot compute AddV2 as input #1(zero-based) was expected to be a ${dtype} tensor but is a float tensor`,
    );
  if (left === tensorSide && op === "/")
    throw new PyError(
      "TypeError",
      `\`x\` and \`y\` must have the same dtype, got tf.${dtype} != tf.float32.`,
    );
  throw new PyError(
    "TypeError",
    `Cannot convert ${floatRepr(number.v)} to EagerTensor of dtype ${dtype}`,
  );
}

const floorDiv = (x, y) => Math.floor(x / y);
export const pyMod = (x, y) => {
  const r = x % y;
  return r !== 0 && r < 0 !== y < 0 ? r + y : r;
};
export function roundHalfEven(v) {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// JavaScript's & and | work on 32 bits; torch's and Python's on the whole integer.
function bitwise(x, y, f) {
  const small = (v) => v >= -(2 ** 31) && v < 2 ** 31;
  return small(x) && small(y) ? f(x, y) : Number(f(BigInt(x), BigInt(y)));
}

export const ARITH = {
  "+": (x, y) => x + y,
  "-": (x, y) => x - y,
  "*": (x, y) => x * y,
  "/": (x, y) => x / y,
  "//": floorDiv,
  "%": pyMod,
  "**": (x, y) => x ** y,
  "&": (x, y) => bitwise(x, y, (a, b) => a & b),
  "|": (x, y) => bitwise(x, y, (a, b) => a | b),
  "^": (x, y) => bitwise(x, y, (a, b) => a ^ b),
  "<<": (x, y) => x * 2 ** y,
  ">>": (x, y) => Math.floor(x / 2 ** y),
  "<": (x, y) => (x < y ? 1 : 0),
  "<=": (x, y) => (x <= y ? 1 : 0),
  ">": (x, y) => (x > y ? 1 : 0),
  ">=": (x, y) => (x >= y ? 1 : 0),
  "==": (x, y) => (x === y ? 1 : 0),
  "!=": (x, y) => (x !== y ? 1 : 0),
};
export const COMPARISONS = new Set(["<", "<=", ">", ">=", "==", "!="]);
const TF_NAMES = {
  "+": "AddV2",
  "-": "Sub",
  "*": "Mul",
  "/": "RealDiv",
  "//": "FloorDiv",
  "%": "FloorMod",
  "<": "Less",
  "<=": "LessEqual",
  ">": "Greater",
  ">=": "GreaterEqual",
  "==": "Equal",
  "!=": "NotEqual",
};

// How many torch true divisions turned integers into floats since the checker last
// reset the count (exercises.mjs; implement.py notes the same with noting_divisions).
export const TRUE_DIVISIONS = { count: 0 };
// patching.dividing_truly: while TRUE_FLOORS.on, torch's floor divisions run as true
// ones, each noted in `used` by its words (`form`, set by the call that makes it)
export const TRUE_FLOORS = { on: false, used: [], form: null };

// The conversions of Python numbers into a tensor without a dtype that made float32 of
// floats or int32 of ints (torch.tensor, tf.constant), as { call, dtype }, since the
// checker last reset the list (exercises.mjs; implement.py notes the same with
// noting_python_numbers): NumPy would have made float64 or int64.
// `zeros` counts the torch.zeros calls without a dtype (float32) alike (implement.py's
// noting_default_dtypes): a write's float32 buffer is then told torch.zeros' default.
// casts: each dtype conversion of a tensor (.float(), .to(torch.int64)) that made a
// new dtype, as { call, out } (implement.py's noting_casts)
// defaults: the torch.zeros / ones / empty / eye calls without a dtype, in order
// (implement.py's noting_default_dtypes)
export const FLOAT_DEFAULTS = { calls: [], zeros: 0, casts: [], defaults: [], given: [] };
export function notePythonNumbers(call, value, dtype, out) {
  const kinds = new Set();
  const walk = (item) => {
    if (item.t === "list" || item.t === "tuple") item.items.forEach(walk);
    else kinds.add(item.t);
  };
  walk(value);
  const numbers =
    kinds.size === 0 || [...kinds].some((t) => t !== "float" && t !== "int")
      ? null
      : kinds.has("float")
        ? "float32"
        : "int32";
  if (dtype === null && numbers === out.dtype) FLOAT_DEFAULTS.calls.push({ call, dtype: numbers });
  return out;
}

export function tensorBinary(op, left, right) {
  const lib = left.t === "tensor" ? left.lib : right.lib;
  if (op === "//" && lib === "torch" && TRUE_FLOORS.on) {
    TRUE_FLOORS.used.push(TRUE_FLOORS.form ?? "`//`");
    op = "/";
  }
  if (lib === "tf") tfFloatOperand(op, left, right);
  const a = asTensor(left, lib, right.t === "tensor" ? right : null);
  const b = asTensor(right, lib, left.t === "tensor" ? left : null);
  let dtype;
  if (lib === "tf") {
    tfDtypeCheck(a, b, TF_NAMES[op] ?? op);
    dtype = a.dtype;
    if (op === "/" && isIntDtype(dtype)) dtype = "float64";
  } else dtype = promote(a, b);
  if ((op === "&" || op === "|" || op === "^") && isFloat(dtype))
    throw new PyError(
      "NotImplementedError",
      `"bitwise_${{ "&": "and", "|": "or", "^": "xor" }[op]}_cpu" not implemented for '${dtype === "float32" ? "Float" : "Double"}'`,
    );
  if (op === "<<" || op === ">>") {
    if (lib === "tf") throw new UnsupportedError(`${op} on TensorFlow tensors`);
    if (isFloat(dtype) || dtype === "bool") throw new UnsupportedError(`${op} on ${dtype} tensors`);
    if (b.data.some((v) => v < 0 || v >= 63))
      throw new UnsupportedError(`${op} by a negative count or by 63 bits or more`);
  }
  if (op === "/" && !isFloat(dtype)) {
    if (lib === "torch") TRUE_DIVISIONS.count += 1;
    dtype = "float32";
  }
  if ((op === "//" || op === "%") && !isFloat(dtype) && lib === "torch") {
    const zero = (op === "//" || op === "%") && b.data.some((v) => v === 0);
    if (zero) throw new PyError("RuntimeError", "ZeroDivisionError");
  }
  if ((op === "//" || op === "%") && dtype === "bool" && lib === "torch")
    throw new PyError(
      "NotImplementedError",
      `"${op === "//" ? "div_floor" : "remainder"}_cpu" not implemented for 'Bool'`,
    );
  if (op === "-" && (a.dtype === "bool" || b.dtype === "bool") && lib === "torch")
    throw new PyError(
      "RuntimeError",
      "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or `logical_xor()` operator instead.",
    );
  const shape = broadcastShapes(a.shape, b.shape);
  const xs = broadcastData(a, shape);
  const ys = broadcastData(b, shape);
  const f = ARITH[op];
  const conv = (v) => cast(v, dtype);
  const data = new Array(xs.length);
  if (op === "/" && left.t !== "tensor" && dtype === "float32") {
    // torch's scalar / tensor is reciprocal(tensor) * scalar, rounded twice
    for (let k = 0; k < xs.length; k++)
      data[k] = Math.fround(Math.fround(1 / conv(ys[k])) * conv(xs[k]));
    return tensor(shape, data, dtype, lib);
  }
  for (let k = 0; k < xs.length; k++) {
    const x = conv(xs[k]);
    const y = conv(ys[k]);
    let v = f(x, y);
    if (dtype === "bool" && !COMPARISONS.has(op))
      v =
        op === "*" || op === "&"
          ? x && y
            ? 1
            : 0
          : op === "+" || op === "|"
            ? x || y
              ? 1
              : 0
            : op === "^"
              ? (x ? 1 : 0) ^ (y ? 1 : 0)
              : v;
    data[k] = v;
  }
  if (COMPARISONS.has(op)) return tensor(shape, data, "bool", lib);
  return tensor(
    shape,
    data.map((v) => cast(v, dtype)),
    dtype,
    lib,
  );
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

const VERSIONS = new WeakMap(); // storage: how many writes it has had
const versionOf = (storage) => VERSIONS.get(storage) ?? 0;
const touched = (storage) => VERSIONS.set(storage, versionOf(storage) + 1);

export function layoutOf(t) {
  return t.alias ?? { storage: t.data, offset: 0, strides: strides(t.shape) };
}

// The storage position of every entry of a tensor of `shape` laid out as `layout`.
export function offsetsOf(shape, layout) {
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
export function viewTensor(t, shape, layout) {
  const rowMajor = strides(shape);
  const plain =
    layout.offset === 0 &&
    layout.storage.length === prod(shape) &&
    shape.every((s, d) => s <= 1 || layout.strides[d] === rowMajor[d]);
  if (plain) return tensor(shape, layout.storage, t.dtype, t.lib);
  const offsets = offsetsOf(shape, layout);
  if (t.lib === "tf")
    return tensor(
      shape,
      offsets.map((o) => layout.storage[o]),
      t.dtype,
      t.lib,
    );
  if (offsets.length > MAX_ENTRIES)
    throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
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
export function viewStrides(oldShape, oldStrides, shape) {
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

export const INTERNAL_OVERLAP =
  "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.";
export const PARTIAL_OVERLAP =
  "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single memory location. Please clone() the tensor before performing the operation.";

// torch's assert_no_internal_overlap: a write into entries that share one place in
// memory (an expanded dim, stride 0, of size > 1) raises.
export function assertNoInternalOverlap(shape, layout) {
  if (prod(shape) === 0) return; // no entries: none share memory
  if (shape.some((s, d) => s > 1 && layout.strides[d] === 0))
    throw new PyError("RuntimeError", INTERNAL_OVERLAP);
}

// torch's assert_no_partial_overlap between what is written (shape, layout) and a
// tensor read for it: where both lie densely in memory, the same entries in the same
// order are fine and any other overlap raises. torch checks no other layout (it writes
// as it reads, in its own order), so the page refuses those where they do overlap.
export function assertNoPartialOverlap(shape, layout, input) {
  if (!input || input.t !== "tensor" || input.lib !== "torch") return;
  const other = layoutOf(input);
  if (other.storage !== layout.storage) return;
  const a = offsetsOf(shape, layout);
  const b = offsetsOf(input.shape, other);
  if (!a.length || !b.length) return;
  const dense = (offsets) => {
    const low = Math.min(...offsets);
    return (
      new Set(offsets).size === offsets.length && Math.max(...offsets) - low + 1 === offsets.length
    );
  };
  if (!dense(a) || !dense(b)) {
    const read = new Set(b);
    if (a.some((o) => read.has(o)))
      throw new UnsupportedError(
        "an in-place write whose input reads the memory it writes to, in a layout torch does not check (its result follows torch's own order of work): clone() the input first",
      );
    return;
  }
  const [aLow, aHigh, bLow, bHigh] = [
    Math.min(...a),
    Math.max(...a),
    Math.min(...b),
    Math.max(...b),
  ];
  const same =
    aLow === bLow &&
    aHigh === bHigh &&
    shape.length === input.shape.length &&
    shape.every(
      (s, d) => s === input.shape[d] && (s <= 1 || layout.strides[d] === other.strides[d]),
    );
  if (same) return;
  if (aLow <= bHigh && bLow <= aHigh) throw new PyError("RuntimeError", PARTIAL_OVERLAP);
}

// Writes `values` (row-major over the written entries) into storage at `offsets`.
export function writeAt(storage, offsets, values, dtype) {
  offsets.forEach((o, k) => {
    storage[o] = cast(values[k], dtype);
  });
  touched(storage);
}

// The words a library refuses a keyword its op lacks with: torch's, TensorFlow's (its
// dispatched ops say it without the op's name; its raw ops name themselves, the
// tensor_scatter_nd_* arithmetic ones as tensor_scatter_add...).
const TF_RAW = {
  broadcast_to: "broadcast_to",
  tile: "tile",
  constant: "constant",
  scatter_nd: "scatter_nd",
  tensor_scatter_nd_add: "tensor_scatter_add",
  tensor_scatter_nd_sub: "tensor_scatter_sub",
  tensor_scatter_nd_min: "tensor_scatter_min",
  tensor_scatter_nd_max: "tensor_scatter_max",
};
function unexpectedKeyword(fname, name, lib) {
  if (lib === "tf" && !Object.hasOwn(TF_RAW, fname))
    return `Got an unexpected keyword argument '${name}'`;
  const op = lib === "tf" ? TF_RAW[fname] : fname;
  return `${op}() got an unexpected keyword argument '${name}'`;
}
// The keywords TensorFlow's ops have that the page's specs leave out (it does not run
// them); any other keyword a TensorFlow op is given is none of its own.
const TF_UNRUN = ["name", "bad_indices_policy", "shape", "verify_shape", "layout", "conjugate"];

export function args(spec, given, kwargs, fname, lib = "torch") {
  // spec: ["a", "b=default", ...]; returns {name: value}. A keyword not in spec is one
  // the page does not run, unless it is another library's (the error table's
  // foreign_keywords: torch_scatter's dim_size= to torch, torch's dim= to TensorFlow)
  // or, to a TensorFlow op, none of TF_UNRUN: no keyword of the op at all, a TypeError
  // as the library raises it.
  const foreign = lib === "tf" ? TABLE.foreign_keywords_tf : TABLE.foreign_keywords;
  const out = {};
  const names = spec.map((s) => s.split("=")[0]);
  if (given.length > spec.length)
    throw new PyError(
      "TypeError",
      `${fname}() takes at most ${spec.length} arguments (${given.length} given)`,
    );
  given.forEach((v, k) => {
    out[names[k]] = v;
  });
  for (const [name, v] of kwargs) {
    const foreignName = Object.hasOwn(foreign, name) || (lib === "tf" && !TF_UNRUN.includes(name));
    if (!names.includes(name) && foreignName)
      throw new PyError("TypeError", unexpectedKeyword(fname, name, lib));
    if (!names.includes(name)) throw new UnsupportedError(`the argument ${name}= of ${fname}`);
    if (name in out)
      throw new PyError("TypeError", `${fname}() got multiple values for argument '${name}'`);
    out[name] = v;
  }
  spec.forEach((s, k) => {
    const [name, dflt] = s.split("=");
    if (!(name in out)) {
      if (dflt === undefined)
        throw new PyError(
          "TypeError",
          `${fname}() missing required argument '${name}' (pos ${k + 1})`,
        );
      out[name] =
        dflt === "None"
          ? NONE
          : dflt === "False"
            ? pyBool(false)
            : dflt === "True"
              ? pyBool(true)
              : pyInt(Number(dflt));
    }
  });
  return out;
}

export const optionalInt = (v) => (v.t === "none" ? null : toInt(v, "an int"));

export const fn = (name, call) => ({ t: "func", name, call });

export function truthy(value) {
  switch (value.t) {
    case "bool":
    case "int":
    case "float":
      return numberOf(value) !== 0;
    case "none":
      return false;
    case "str":
      return value.v.length > 0;
    case "list":
    case "tuple":
      return value.items.length > 0;
    case "range":
      return value.items.length > 0;
    case "tensor":
      if (value.data.length !== 1)
        throw new PyError(
          "RuntimeError",
          `Boolean value of Tensor with more than one value is ambiguous`,
        );
      return value.data[0] !== 0;
    default:
      return true;
  }
}
