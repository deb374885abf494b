// torch as the interpreter emulates it: the ops the chapters teach (the gather family
// through explorers/core.mjs's rules, chapter 6's writes through explorers/scatter.mjs),
// the torch, torch.nn.functional and Tensor method tables, and their argument checks, each
// raising what torch raises.

import { diagnose, isFloat } from "../explorers/core.mjs";
import {
  REDUCTIONS,
  scatterProblems,
  scatterResult,
  scatterWrites,
} from "../explorers/scatter.mjs";
import { NONE, PyError, pyInt, UnsupportedError } from "./python.mjs";
import { locateForWrite, setItem } from "./indexing.mjs";
import {
  args,
  assertNoInternalOverlap,
  assertNoPartialOverlap,
  asTensor,
  broadcastData,
  broadcastShapes,
  cast,
  category,
  fn,
  forEachCoord,
  fromSequence,
  isNumber,
  layoutOf,
  list,
  MAX_ENTRIES,
  normDim,
  FLOAT_DEFAULTS,
  TRUE_FLOORS,
  notePythonNumbers,
  numberOf,
  offsetsOf,
  optionalInt,
  prod,
  promote,
  pyBool,
  pyFloat,
  pyMod,
  roundHalfEven,
  sizesFrom,
  strides,
  tensor,
  tensorBinary,
  tfDtypeCheck,
  toInt,
  truthy,
  tuple,
  typeName,
  viewStrides,
  viewTensor,
  writeAt,
} from "./tensor.mjs";

// ------------------------------------------------------------------ torch ops

export function view(t, shape, strict = false) {
  if (!t.alias) return tensor(shape, t.data, t.dtype, t.lib);
  const found = viewStrides(t.shape, t.alias.strides, shape);
  if (found) return viewTensor(t, shape, { ...t.alias, strides: found });
  if (strict)
    throw new PyError(
      "RuntimeError",
      "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces). Use .reshape(...) instead.",
    );
  return tensor(shape, t.data.slice(), t.dtype, t.lib); // reshape: a copy
}

function inferShape(sizes, total, raw) {
  const unknown = sizes.filter((s) => s === -1).length;
  const text = `shape '[${raw.join(", ")}]' is invalid for input of size ${total}`;
  if (unknown > 1) throw new PyError("RuntimeError", "only one dimension can be inferred");
  if (sizes.some((s) => s < -1))
    throw new PyError("RuntimeError", `invalid shape dimension ${sizes.find((s) => s < -1)}`);
  const known = prod(sizes.filter((s) => s !== -1));
  if (unknown) {
    if (known === 0 || total % known !== 0) throw new PyError("RuntimeError", text);
    return sizes.map((s) => (s === -1 ? total / known : s));
  }
  if (known !== total) throw new PyError("RuntimeError", text);
  return sizes;
}

export function reshape(t, sizes, strict = false) {
  return view(t, inferShape(sizes, t.data.length, sizes), strict);
}

export function unsqueeze(t, dim) {
  const rank = t.shape.length + 1;
  if (dim < -rank || dim >= rank)
    throw new PyError(
      "IndexError",
      `Dimension out of range (expected to be in range of [${-rank}, ${rank - 1}], but got ${dim})`,
    );
  const d = dim < 0 ? dim + rank : dim;
  const shape = t.shape.slice();
  shape.splice(d, 0, 1);
  return view(t, shape);
}

function squeeze(t, dims) {
  if (dims === null)
    return view(
      t,
      t.shape.filter((s) => s !== 1),
    );
  const wrapped = dims.map((d) => normDim(d, t.shape.length));
  return view(
    t,
    t.shape.filter((s, d) => !(s === 1 && wrapped.includes(d))),
  );
}

export function expand(t, sizes) {
  if (sizes.length < t.shape.length)
    throw new PyError(
      "RuntimeError",
      `expand(torch.LongTensor{[${t.shape.join(", ")}]}, size=[${sizes.join(", ")}]): the number of sizes provided (${sizes.length}) must be greater or equal to the number of dimensions in the tensor (${t.shape.length})`,
    );
  const offset = sizes.length - t.shape.length;
  // torch checks the sizes from the last dim back: a mismatch there before a leading -1
  const shape = [...sizes]
    .map((s, k) => [s, k])
    .reverse()
    .map(([s, k]) => {
      const own = k >= offset ? t.shape[k - offset] : null;
      if (s === -1) {
        if (own === null)
          throw new PyError(
            "RuntimeError",
            `The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension ${k}`,
          );
        return own;
      }
      if (own !== null && own !== 1 && own !== s)
        throw new PyError(
          "RuntimeError",
          `The expanded size of the tensor (${s}) must match the existing size (${own}) at non-singleton dimension ${k}.  Target sizes: [${sizes.join(", ")}].  Tensor sizes: [${t.shape.join(", ")}]`,
        );
      if (s < 0)
        throw new PyError("RuntimeError", `The expanded size of the tensor (${s}) isn't allowed`);
      return s;
    })
    .reverse();
  const source = layoutOf(t);
  const steps = shape.map((s, k) =>
    k < offset || (t.shape[k - offset] === 1 && s !== 1) ? 0 : source.strides[k - offset],
  );
  return viewTensor(t, shape, { ...source, strides: steps });
}

export function repeatTensor(t, sizes) {
  if (sizes.length < t.shape.length)
    throw new PyError(
      "RuntimeError",
      "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor",
    );
  const source = view(t, [...new Array(sizes.length - t.shape.length).fill(1), ...t.shape]);
  const shape = source.shape.map((s, d) => s * sizes[d]);
  // torch names the sizes it would create (each dim's size times its repeat)
  if (sizes.some((s) => s < 0))
    throw new PyError(
      "RuntimeError",
      `Trying to create tensor with negative dimension ${shape.find((s) => s < 0)}: [${shape.join(", ")}]`,
    );
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
export function takeAlong(t, dim, positions) {
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
    if (isFloat(repeats.dtype))
      throw new PyError("RuntimeError", "repeat_interleave only supports integer repeats");
    counts =
      repeats.data.length === 1 ? new Array(size).fill(repeats.data[0]) : repeats.data.slice();
    if (repeats.shape.length > 1)
      throw new PyError("RuntimeError", "repeats must be 0-dim or 1-dim tensor");
  } else counts = new Array(size).fill(toInt(repeats));
  if (counts.length !== size)
    throw new PyError(
      "RuntimeError",
      `repeats must have the same size as input along dim, but got repeats.size(0) = ${counts.length} and input.size(${d}) = ${size}`,
    );
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
  if (s > e)
    throw new PyError(
      "RuntimeError",
      "flatten() has invalid args: start_dim cannot come after end_dim",
    );
  return view(t, [...t.shape.slice(0, s), prod(t.shape.slice(s, e + 1)), ...t.shape.slice(e + 1)]);
}

export function permute(t, dims) {
  if (dims.length !== t.shape.length)
    throw new PyError(
      "RuntimeError",
      `permute(sparse_coo): number of dimensions in the tensor input does not match the length of the desired ordering of dimensions i.e. input.dim() = ${t.shape.length} is not equal to len(dims) = ${dims.length}`,
    );
  const wrapped = dims.map((d) => normDim(d, t.shape.length));
  if (new Set(wrapped).size !== wrapped.length)
    throw new PyError("RuntimeError", "permute(): duplicate dims are not allowed.");
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

export function joinTensors(tensors, dim, stack, lib) {
  const name = lib === "tf" ? (stack ? "stack" : "concat") : stack ? "stack" : "cat";
  if (!tensors.length)
    throw new PyError(
      lib === "tf" ? "ValueError" : "RuntimeError",
      `${name} expects a non-empty TensorList`,
    );
  const ts = tensors.map((v) => asTensor(v, lib));
  if (stack) {
    const first = ts[0].shape;
    ts.forEach((t, k) => {
      if (t.shape.join(",") !== first.join(","))
        throw new PyError(
          lib === "tf" ? "InvalidArgumentError" : "RuntimeError",
          `stack expects each tensor to be equal size, but got [${first.join(", ")}] at entry 0 and [${t.shape.join(", ")}] at entry ${k}`,
        );
    });
    const rank = first.length + 1;
    if (dim < -rank || dim >= rank)
      throw new PyError(
        lib === "tf" ? "InvalidArgumentError" : "IndexError",
        `Dimension out of range (expected to be in range of [${-rank}, ${rank - 1}], but got ${dim})`,
      );
    const d = dim < 0 ? dim + rank : dim;
    return joinTensors(
      ts.map((t) => unsqueeze(t, d)),
      d,
      false,
      lib,
    );
  }
  const rank = ts[0].shape.length;
  if (ts.some((t) => t.shape.length === 0))
    throw new PyError(
      lib === "tf" ? "InvalidArgumentError" : "RuntimeError",
      `zero-dimensional tensor (at position ${ts.findIndex((t) => t.shape.length === 0)}) cannot be concatenated`,
    );
  ts.forEach((t) => {
    if (t.shape.length !== rank)
      throw new PyError(
        lib === "tf" ? "InvalidArgumentError" : "RuntimeError",
        `Tensors must have same number of dimensions: got ${rank} and ${t.shape.length}`,
      );
  });
  const d = lib === "tf" ? tfAxis(dim, rank) : normDim(dim, rank);
  ts.forEach((t, k) => {
    t.shape.forEach((s, e) => {
      if (e !== d && s !== ts[0].shape[e])
        throw new PyError(
          lib === "tf" ? "InvalidArgumentError" : "RuntimeError",
          `Sizes of tensors must match except in dimension ${d}. Expected size ${ts[0].shape[e]} but got size ${s} for tensor number ${k} in the list.`,
        );
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
    throw new PyError(
      "InvalidArgumentError",
      `ConcatOp : Expected concatenating dimensions in the range [${-rank}, ${rank}), but got ${axis}`,
    );
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
  if (rank > 1 && (x.data.length === 0 || ((dim % rank) + rank) % rank === 1))
    return "RuntimeError";
  return "IndexError";
}

// torch's parsing of an op's arguments, in its signature's order: the first of the
// wrong type is a TypeError naming it and its position (a method counts from after self,
// the function torch.op(input, ...) from input: offset 1). spec: [name, kind, value],
// kind "int" (a Python int or a 0-d integer tensor), "Tensor", or "int?" (None too).
const ARG_KINDS = {
  int: (v) =>
    v.t === "int" ||
    (v.t === "tensor" && !v.shape.length && !isFloat(v.dtype) && v.dtype !== "bool"),
  Tensor: (v) => v.t === "tensor" && v.lib !== "tf",
};
function parsed(name, spec, offset = 0) {
  spec.forEach(([arg, kind, value], k) => {
    if (value === undefined || (kind === "int?" && value.t === "none")) return;
    const type = kind.replace("?", "");
    if (!ARG_KINDS[type](value))
      throw new PyError(
        "TypeError",
        `${name}(): argument '${arg}' (position ${k + 1 + offset}) must be ${type}, not ${typeName(value)}`,
      );
  });
}

// An overloaded op's arguments (scatter's: a tensor src, or a number as value, each with
// reduce=; masked_fill's: a tensor or a number as value) that match none of its
// signatures: an invalid combination, as torch words it (with its signatures).
// overloads: [[name, kind]...] each, and what the signature adds after them.
// A keyword none of the signatures has (kwargs: [name, value]) matches none of them too.
function overloaded(name, values, overloads, offset = 0, kwargs = []) {
  const fits = (kind, value) => (kind === "Number" ? isNumber(value) : ARG_KINDS[kind](value));
  const named = new Set(overloads.flatMap(([spec]) => spec.map(([arg]) => arg)));
  const stranger = kwargs.some(([key]) => !named.has(key) && key !== "reduce");
  if (kwargs.length && !stranger) return; // the arguments are matched once bound
  if (!stranger && overloads.some(([spec]) => spec.every(([, kind], k) => fits(kind, values[k]))))
    return;
  const input = offset ? "Tensor input, " : "";
  const given = [
    ...(offset ? ["Tensor"] : []),
    ...values.map(typeName),
    ...kwargs.map(([key, value]) => `${key}=${typeName(value)}`),
  ];
  const signatures = overloads
    .map(
      ([spec, more]) =>
        ` * (${input}${spec.map(([arg, kind]) => `${kind} ${arg}`).join(", ")}${more})`,
    )
    .join("\n");
  throw new PyError(
    "TypeError",
    `${name}() received an invalid combination of arguments - got (${given.join(", ")}), but expected one of:\n${signatures}`,
  );
}
const SCATTER_OVERLOADS = [
  [
    [
      ["dim", "int"],
      ["index", "Tensor"],
      ["src", "Tensor"],
    ],
    "",
  ],
  [
    [
      ["dim", "int"],
      ["index", "Tensor"],
      ["src", "Tensor"],
    ],
    ", *, str reduce",
  ],
  [
    [
      ["dim", "int"],
      ["index", "Tensor"],
      ["value", "Number"],
    ],
    "",
  ],
  [
    [
      ["dim", "int"],
      ["index", "Tensor"],
      ["value", "Number"],
    ],
    ", *, str reduce",
  ],
];
const MASKED_FILL_OVERLOADS = [
  [
    [
      ["mask", "Tensor"],
      ["value", "Tensor"],
    ],
    "",
  ],
  [
    [
      ["mask", "Tensor"],
      ["value", "Number"],
    ],
    "",
  ],
];

// A gather-family call through core.mjs's diagnose: the rule a bad call breaks.
export function family(op, input, dim, index) {
  const x = asTensor(input);
  if (index.t !== "tensor")
    throw new PyError(
      "TypeError",
      `${op}(): argument 'index' (position ${op === "take" || op === "take_along_dim" ? 2 : 3}) must be Tensor, not ${typeName(index)}`,
    );
  if (dim !== null && dim.t !== undefined) dim = toInt(dim, "dim to be an int");
  const problems = diagnose(x, dim, index, op);
  if (problems.length) {
    const [first] = problems;
    const error = new PyError(
      ruleType(op, first.rule, x, dim),
      first.message,
      first.rule,
      first.hint,
    );
    error.call = `torch.${op}`;
    throw error;
  }
  return familyResult(op, x, dim, index);
}

function familyResult(op, x, dim, index) {
  if (op === "take") {
    const n = x.data.length;
    return tensor(
      index.shape.slice(),
      index.data.map((p) => x.data[p < 0 ? p + n : p]),
      x.dtype,
    );
  }
  if (op === "take_along_dim" && dim === null) {
    return tensor(
      [index.data.length],
      index.data.map((p) => x.data[p]),
      x.dtype,
    );
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
      for (let k = 0; k < at.length; k++)
        src += (k === d ? p : xs.shape[k] === 1 ? 0 : at[k]) * st[k];
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
    throw new PyError(
      "TypeError",
      `${name}(): argument 'src' (position 3) must be Tensor, not ${typeName(src)}`,
    );
  const d = normDim(toInt(dim), Math.max(x.shape.length, 1));
  if (index.t !== "tensor")
    throw new PyError(
      "TypeError",
      `${name}(): argument 'index' (position 2) must be Tensor, not ${typeName(index)}`,
    );
  // torch's checks decide whether the write raises (a 0-d index or src is one entry);
  // an error is worded by the rule it breaks, as implement.py's _problem words it, with
  // torch's class, or (scatter_reduce's, and one no rule names) in torch's own words,
  // which the error table explains (patching.FAILING)
  const torchs = torchScatterError(x, d, index, src);
  const one = (t) => (t.shape.length ? t : view(t, [1]));
  let values = src;
  if (src.t !== "tensor") {
    values = filled(
      index.shape.length ? index.shape.slice() : [1],
      numberOf(src),
      x.dtype,
      "torch",
    );
  }
  if (torchs) {
    const problems = scatterProblems(x, d, index, values, src.t !== "tensor");
    if (!problems.length || name.startsWith("scatter_reduce"))
      throw new PyError(torchs.type, torchs.message);
    const error = new PyError(torchs.type, problems[0].message);
    error.call = name.endsWith("_") ? `torch.Tensor.${name}` : `torch.${name}`;
    throw error;
  }
  const [xs, is, vs] = [one(x), one(index), one(values)];
  const { output } = scatterResult(xs, scatterWrites(xs, d, is, vs), reduce, includeSelf);
  return tensor(
    x.shape.slice(),
    output.data.map((v) => cast(v, x.dtype)),
    x.dtype,
  );
}

// torch's own error for a write that breaks a rule, in its order of checks
// (scatter_gather_dtype_check, scatter_shape_check, the kernel's bounds): its class and
// words, or null where torch finds none. The class is RuntimeError but where index has
// input's number of dims and the check of its sizes against src's asks src for a dim it
// lacks (a 1-D src for a 2-D index: IndexError, "Dimension out of range").
function torchScatterError(x, d, index, src) {
  const dims = (t) => Math.max(t.shape.length, 1);
  const size = (t, k) => (t.shape.length ? t.shape[k] : 1);
  const fail = (message, type = "RuntimeError") => ({ type, message });
  const tensorSrc = src.t === "tensor";
  if (index.data.length && index.dtype !== "int64" && index.dtype !== "int32")
    return fail("scatter(): Expected dtype int32/int64 for index");
  if (tensorSrc && src.dtype !== x.dtype)
    return fail("scatter(): Expected self.dtype to be equal to src.dtype");
  if (!index.data.length) return null;
  if (dims(index) !== dims(x))
    return fail("Index tensor must have the same number of dimensions as self tensor");
  let wrong = false;
  for (let k = 0; k < dims(x) && !wrong; k++)
    if (k !== d && size(index, k) > size(x, k)) wrong = true;
  for (let k = 0; k < dims(x) && !wrong && tensorSrc; k++) {
    if (src.shape.length && k >= src.shape.length) {
      const r = src.shape.length;
      return fail(
        `Dimension out of range (expected to be in range of [${-r}, ${r - 1}], but got ${k})`,
        "IndexError",
      );
    }
    if (size(index, k) > size(src, k)) wrong = true;
  }
  if (tensorSrc && dims(src) !== dims(index))
    return fail("Index tensor must have the same number of dimensions as src tensor");
  if (wrong) {
    const list = (t) => `[${t.shape.join(", ")}]`;
    const than = tensorSrc ? ` and to be no larger size than src ${list(src)}` : "";
    return fail(
      `Expected index ${list(index)} to be no larger than self ${list(x)} apart from dimension ${d}${than}`,
    );
  }
  const along = size(x, d);
  const bad = index.data.find((p) => p < 0 || p >= along);
  if (bad !== undefined)
    return fail(`index ${bad} is out of bounds for dimension ${d} with size ${along}`);
  return null;
}

// x.index_add_(dim, index, source): x[..., index[k], ...] += source[..., k, ...], in
// torch's order of checks and its words (which name index_add_ for either form; a 0-d
// source has no size along dim, which torch's count check asks it for).
function indexAdd(name, x, dim, index, source) {
  const rank = Math.max(x.shape.length, 1);
  const d = normDim(toInt(dim), rank);
  const i = asTensor(index);
  const s = asTensor(source);
  const op = "index_add_";
  if (i.shape.length > 1)
    throw new PyError(
      "IndexError",
      `${op}(): Index is supposed to be a vector, but got dim: ${i.shape.length} with type: ${torchDtypeName(i.dtype)} and size: [${i.shape.join(", ")}]`,
    );
  if (i.dtype !== "int64" && i.dtype !== "int32")
    throw new PyError(
      "RuntimeError",
      `${op}(): Expected dtype int32/int64 for index but got: ${torchDtypeName(i.dtype)}`,
    );
  if (s.dtype !== x.dtype)
    throw new PyError(
      "RuntimeError",
      `${op}(): self (${torchDtypeName(x.dtype)}) and source (${torchDtypeName(s.dtype)}) must have the same scalar type`,
    );
  if (d !== 0 && d >= s.shape.length)
    throw new PyError(
      "RuntimeError",
      `${op}(): Indexing dim ${d} is out of bounds of the source tensor with dim ${s.shape.length}`,
    );
  const target = x.shape.length ? x.shape : [1];
  const from = s.shape.length ? s.shape : [1];
  if (i.data.length !== (s.shape.length ? s.shape[d] : 1)) {
    if (!s.shape.length)
      throw new PyError("IndexError", `Dimension specified as ${d} but tensor has no dimensions`);
    throw new PyError(
      "RuntimeError",
      `${op}(): Number of indices (${i.data.length}) should be equal to source.size(dim): (${from[d]}), for dim: ${d}`,
    );
  }
  if (s.shape.length !== x.shape.length || from.some((size, k) => k !== d && size !== target[k]))
    throw new PyError(
      "RuntimeError",
      `source tensor shape must match self tensor shape, excluding the specified dimension. Got self.shape = [${x.shape.join(", ")}] source.shape = [${s.shape.join(", ")}]`,
    );
  const bad = i.data.find((p) => p < 0 || p >= target[d]);
  if (bad !== undefined) {
    if (x.shape.length <= 1) throw new PyError("IndexError", "index out of range in self");
    throw new PyError(
      "RuntimeError",
      `index ${bad} is out of bounds for dimension ${d} with size ${target[d]}`,
    );
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

// x.put_(index, source, accumulate=False): x.flatten()[index[k]] = source.flatten()[k]
// (added with accumulate), in torch's order of checks and its words; source is never
// repeated (as numpy.put would), so it needs one value per index entry.
function put(x, index, source, accumulate) {
  if (index.dtype !== "int64")
    throw new PyError(
      "RuntimeError",
      `put_(): Expected a long tensor for index, but got ${torchDtypeName(index.dtype)}`,
    );
  if (source.dtype !== x.dtype)
    throw new PyError(
      "RuntimeError",
      `put_(): self and source expected to have the same dtype, but got self.dtype = ${torchDtypeName(x.dtype)} and source.dtype = ${torchDtypeName(source.dtype)}`,
    );
  if (index.data.length !== source.data.length)
    throw new PyError(
      "IndexError",
      `put_(): Expected source and index to have the same number of elements, but got source.numel() = ${source.data.length}, index.numel() = ${index.data.length}`,
    );
  const n = x.data.length;
  const data = x.data.slice();
  index.data.forEach((p, k) => {
    if (p < -n || p >= n)
      throw new PyError(
        "IndexError",
        `out of range: tried to access index ${p} on a tensor of ${n} elements.`,
      );
    const at = p < 0 ? p + n : p;
    data[at] = cast(accumulate ? data[at] + source.data[k] : source.data[k], x.dtype);
  });
  return tensor(x.shape.slice(), data, x.dtype);
}

// x.unique(): its distinct values, sorted, as one 1-D tensor (torch sorts them on the CPU
// whether sorted= is given or not).
// torch.unique(x) lists the ids present, sorted. While UNIQUE.size is a number (the
// checker's count of slots for the case it runs), integer ids in 0..size-1 are listed
// as every id 0..size-1 instead, each run's present ids noted in UNIQUE.present
// (implement.py's counting_slots; exercises.mjs's uniqueSlots): an answer that then
// passes took the ids present for every id.
export const UNIQUE = { on: false, size: null, present: [] };
function unique(x, sorted = true) {
  const values = [...new Set(x.data.map(Number))].sort((a, b) => a - b);
  const size = sorted ? UNIQUE.size : null;
  const ids = !isFloat(x.dtype) && x.dtype !== "bool";
  if (size !== null && ids && values.every((v) => v >= 0 && v < size)) {
    UNIQUE.present.push(values);
    return tensor([size], [...Array(size).keys()], x.dtype);
  }
  return tensor([values.length], values, x.dtype);
}

// x.index_put_(indices, values, accumulate=False): x[indices] = values on a copy, or
// with accumulate every value added where it goes (a repeated position adds up).
function indexPut(name, x, indices, values, accumulate, offset = 0) {
  if (indices.t !== "tuple" && indices.t !== "list")
    throw new PyError(
      "TypeError",
      `${name}(): argument 'indices' (position ${1 + offset}) must be tuple of Tensors, not ${typeName(indices)}`,
    );
  parsed(
    name,
    [
      ["indices", "Tensor", undefined],
      ["values", "Tensor", values],
    ],
    offset,
  );
  const v = asTensor(values);
  // checked after the values' shape, as index_put_ checks them
  const dtypeError =
    v.dtype !== x.dtype
      ? new PyError(
          "RuntimeError",
          `Index put requires the source and destination dtypes match, got ${torchDtypeName(x.dtype)} for the destination and ${torchDtypeName(v.dtype)} for the source.`,
        )
      : null;
  const out = tensor(x.shape.slice(), x.data.slice(), x.dtype);
  const where = { t: "tuple", items: indices.items };
  // the values broadcast to what the positions select, with no more dims than it
  // (unlike x[i] = v, index_put_ takes no leading size-1 dims: (1, n) into (n,) raises)
  const mismatch = (shape) =>
    new PyError(
      "RuntimeError",
      `shape mismatch: value tensor of shape [${v.shape.join(", ")}] cannot be broadcast to indexing result of shape [${shape.join(", ")}]`,
    );
  if (!accumulate) {
    setItem(out, where, v);
    const { shape } = locateForWrite(out, where);
    if (v.shape.length > shape.length) throw mismatch(shape);
    if (dtypeError) throw dtypeError;
    return out;
  }
  const { shape, positions, bounds } = locateForWrite(out, where);
  if (v.shape.length > shape.length) throw mismatch(shape);
  let added;
  try {
    added = expand(v, shape).data;
  } catch (error) {
    if (!(error instanceof PyError)) throw error;
    throw mismatch(shape);
  }
  if (dtypeError) throw dtypeError;
  if (bounds) throw bounds; // the kernel's, after the values' shape is checked
  positions.forEach((p, k) => {
    out.data[p] = cast(out.data[p] + added[k], x.dtype);
  });
  return out;
}

// torch's x op= y: in place, into x's memory, after torch's checks (no two entries of
// x share memory, y does not partly overlap x), where y broadcasts to x's shape and
// the result's dtype casts to x's (no float into an integer tensor, only bool into bool).
export function augmented(op, current, other) {
  const layout = layoutOf(current);
  assertNoInternalOverlap(current.shape, layout);
  assertNoPartialOverlap(current.shape, layout, other);
  const refuseCast = (dtype) => {
    if (category(dtype) > category(current.dtype))
      throw new PyError(
        "RuntimeError",
        `result type ${torchDtypeName(dtype)} can't be cast to the desired output type ${torchDtypeName(current.dtype)}`,
      );
  };
  refuseCast(promote(current, asTensor(other, current.lib, current))); // torch checks before it computes
  const value = tensorBinary(op, current, other);
  refuseCast(value.dtype); // integer / integer is a float
  if (
    value.shape.length !== current.shape.length ||
    value.shape.some((s, d) => s !== current.shape[d])
  )
    throw new PyError(
      "RuntimeError",
      `output with shape [${current.shape.join(", ")}] doesn't match the broadcast shape [${value.shape.join(", ")}]`,
    );
  writeAt(layout.storage, offsetsOf(current.shape, layout), value.data, current.dtype);
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
  if (!out.length) return tensor(t.shape.slice(), out, t.dtype); // torch checks no dtype
  if (!isFloat(t.dtype))
    throw new PyError(
      "NotImplementedError",
      `"${op}_lastdim_kernel_impl" not implemented for '${torchDtypeName(t.dtype)}'`,
    );
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
  if (d1 === d2)
    throw new PyError("RuntimeError", `diagonal dimensions cannot be identical ${dim1}, ${dim2}`);
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
    t.data.forEach((x, k) => {
      data[k * n + k] = x;
    });
    return tensor([n, n], data, t.dtype);
  }
  if (rank !== 2)
    throw new PyError("RuntimeError", `diag(): Supports 1D or 2D tensors. Got ${rank}D`);
  const n = Math.min(...t.shape);
  return tensor(
    [n],
    Array.from({ length: n }, (_, k) => t.data[k * t.shape[1] + k]),
    t.dtype,
  );
}

// a floor division made by a call, its words noted as that call's (TRUE_FLOORS)
function floorDivided(form, run) {
  TRUE_FLOORS.form = form;
  try {
    return run();
  } finally {
    TRUE_FLOORS.form = null;
  }
}

// patching.noting_sizing_ops, for the sizing ops the page runs: each call of
// torch.nn.functional.one_hot or torch.bincount, its size argument (null at its default,
// where the op infers the size from the ids), the size it made along its output's
// axis, or that it raised (exercises.mjs's sizedByOp reads them)
export const SIZED = { calls: [] };
function sizing(op, param, given, axis, make) {
  const note = { op, param, given, size: null, raised: false };
  SIZED.calls.push(note);
  try {
    const out = make();
    if (out.shape.length) note.size = out.shape.at(axis);
    return out;
  } catch (error) {
    note.raised = true;
    throw error;
  }
}

// torch.nn.functional.one_hot(labels, num_classes=-1): int64 labels only.
function oneHot(t, classes) {
  if (t.dtype !== "int64")
    throw new PyError(
      "RuntimeError",
      "one_hot is only applicable to index tensor of type LongTensor.",
    );
  if (classes <= 0 && !t.data.length)
    throw new PyError("RuntimeError", "Can not infer total number of classes from empty tensor.");
  if (t.data.some((x) => x < 0))
    throw new PyError("RuntimeError", "Class values must be non-negative.");
  const n = classes === -1 ? Math.max(...t.data) + 1 : classes;
  if (t.data.some((x) => x >= n))
    throw new PyError("RuntimeError", "Class values must be smaller than num_classes.");
  const data = new Array(t.data.length * n).fill(0);
  t.data.forEach((x, k) => {
    data[k * n + x] = 1;
  });
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
        if (Number.isNaN(x) !== Number.isNaN(y))
          return (Number.isNaN(x) ? 1 : -1) * (descending ? -1 : 1);
        return (descending ? key(y) - key(x) : key(x) - key(y)) || a - b;
      });
      order.forEach((k, n) => {
        out.data[at(n)] = k;
      });
    }
  return out;
}

export function clamp(t, lo, hi) {
  if (lo.t === "none" && hi.t === "none")
    throw new PyError(
      "RuntimeError",
      "torch.clamp: At least one of 'min' or 'max' must not be None",
    );
  let dtype = t.dtype;
  for (const bound of [lo, hi])
    if (bound.t !== "none")
      dtype = promote({ ...t, dtype }, bound.t === "tensor" ? bound : { scalar: bound.t });
  const low = lo.t === "none" ? -Infinity : cast(numberOf(lo), dtype);
  const high = hi.t === "none" ? Infinity : cast(numberOf(hi), dtype);
  const bounded = (v) => (Number.isNaN(v) ? v : Math.min(Math.max(v, low), high));
  return tensor(
    t.shape.slice(),
    t.data.map((v) => cast(bounded(cast(v, dtype)), dtype)),
    dtype,
  );
}

// torch.bincount(t, weights=None, minlength=0): how often each value occurs, or the
// sum of the weights at each value (float32 weights sum as float32, any other dtype as
// float64; an empty input counts nothing, as int64).
function bincount(t, minlength, weights = NONE) {
  if (isFloat(t.dtype))
    throw new PyError(
      "NotImplementedError",
      `"bincount_cpu" not implemented for '${torchDtypeName(t.dtype)}'`,
    );
  if (t.shape.length !== 1 || t.data.some((v) => v < 0))
    throw new PyError("RuntimeError", "bincount only supports 1-d non-negative integral inputs.");
  const w = weights.t === "none" ? null : asTensor(weights);
  if (w && (w.shape.length !== 1 || w.data.length !== t.data.length))
    throw new PyError("RuntimeError", "weights should be 1-d and have the same length as input");
  const counts = new Array(Math.max(minlength, ...t.data.map((v) => v + 1), 0)).fill(0);
  t.data.forEach((v, k) => {
    counts[v] += w ? Number(w.data[k]) : 1;
  });
  const dtype = !w || !t.data.length ? "int64" : w.dtype === "float32" ? "float32" : "float64";
  return tensor(
    [counts.length],
    counts.map((c) => cast(c, dtype)),
    dtype,
  );
}

export function where(cond, a, b) {
  const c = asTensor(cond);
  if (c.dtype !== "bool")
    throw new PyError(
      "RuntimeError",
      `where expected condition to be a boolean tensor, but got a tensor with dtype ${torchDtypeName(c.dtype)}`,
    );
  const x = asTensor(a);
  const y = asTensor(b);
  const dtype = promote(x, y);
  const shape = broadcastShapes(broadcastShapes(c.shape, x.shape), y.shape);
  const cs = broadcastData(c, shape);
  const xs = broadcastData(x, shape);
  const ys = broadcastData(y, shape);
  return tensor(
    shape,
    cs.map((v, k) => cast(v ? xs[k] : ys[k], dtype)),
    dtype,
  );
}

export function reduce(t, dim, keepdim, kind) {
  const fns = {
    sum: [0, (a, b) => a + b],
    any: [0, (a, b) => (a || b ? 1 : 0)],
    all: [1, (a, b) => (a && b ? 1 : 0)],
    prod: [1, (a, b) => a * b],
    max: [-Infinity, Math.max],
    min: [Infinity, Math.min],
  };
  const [start, f] = fns[kind];
  let dtype =
    kind === "any" || kind === "all"
      ? "bool"
      : kind === "sum" || kind === "prod"
        ? isFloat(t.dtype)
          ? t.dtype
          : "int64"
        : t.dtype;
  if (t.lib === "tf" && kind === "sum") dtype = t.dtype;
  if (dim === null) {
    if ((kind === "max" || kind === "min") && t.data.length === 0)
      throw new PyError(
        "RuntimeError",
        `${kind}(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with the 'dim' argument.`,
      );
    // f takes two values: Array.reduce would hand Math.max its index and array too
    return tensor(
      keepdim ? t.shape.map(() => 1) : [],
      [
        cast(
          t.data.reduce((a, b) => f(a, b), start),
          dtype,
        ),
      ],
      dtype,
      t.lib,
    );
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
  return keepdim
    ? out
    : view(
        out,
        shape.filter((_, k) => k !== d),
      );
}

// ------------------------------------------------------------------ the library tables

export const TORCH_DTYPES = {
  int64: "int64",
  long: "int64",
  int32: "int32",
  int: "int32",
  int16: "int16",
  int8: "int8",
  uint8: "uint8",
  float32: "float32",
  float: "float32",
  float64: "float64",
  double: "float64",
  bool: "bool",
  float16: "float16",
  half: "float16",
};
// The C++ type torch names a dtype by in some of its words (a TypeMeta's name).
const C_TYPES = {
  float32: "float",
  float64: "double",
  int64: "long int",
  int32: "int",
  int16: "short int",
  int8: "signed char",
  uint8: "unsigned char",
};
export const torchDtypeName = (d) =>
  ({
    int64: "Long",
    int32: "Int",
    float32: "Float",
    float64: "Double",
    bool: "Bool",
    int16: "Short",
    int8: "Char",
    uint8: "Byte",
    float16: "Half",
  })[d] ?? d;
export const dtypeValue = (name, lib) => ({ t: "dtype", name, lib });

export function dtypeArg(v, lib) {
  if (v.t === "none") return null;
  if (v.t === "dtype" && lib === "tf" && v.lib === "torch")
    throw new PyError(
      "TypeError",
      `Cannot convert the argument \`type_value\`: torch.${v.name} to a TensorFlow DType.`,
    );
  if (v.t === "dtype") return v.name;
  if (v.t === "str" && lib === "tf" && TORCH_DTYPES[v.v]) return TORCH_DTYPES[v.v];
  throw new PyError(
    "TypeError",
    `dtype must be a ${lib === "tf" ? "tf" : "torch"}.dtype, not ${typeName(v)}`,
  );
}

export function arange(a, lib) {
  const { start, end, step, dtype } = a;
  let lo = 0;
  let hi;
  if (end.t === "none") hi = numberOf(start);
  else {
    lo = numberOf(start);
    hi = numberOf(end);
  }
  const s = numberOf(step);
  if (s === 0)
    throw new PyError(
      lib === "tf" ? "InvalidArgumentError" : "RuntimeError",
      "step must be nonzero",
    );
  const floats = [start, end, step].some((v) => v.t === "float");
  const out = [];
  const n = Math.max(0, Math.ceil((hi - lo) / s));
  if (n > MAX_ENTRIES) throw new UnsupportedError(`tensors of more than ${MAX_ENTRIES} entries`);
  for (let k = 0; k < n; k++) out.push(lo + k * s);
  const d = dtypeArg(dtype, lib) ?? (floats ? "float32" : lib === "tf" ? "int32" : "int64");
  return tensor(
    [out.length],
    out.map((v) => cast(v, d)),
    d,
    lib,
  );
}

export function filled(shape, value, dtype, lib) {
  return tensor(shape, new Array(prod(shape)).fill(cast(value, dtype)), dtype, lib);
}

// torch.gather(input, dim, index) and torch.index_select alike: a float index repaired
// where the answer is re-run, then torch's argument checks in its order
function readAlongDim(name) {
  return fn(`torch.${name}`, (g, kw) => {
    const a = args(
      ["input", "dim", "index"],
      g.length ? [g[0], ...repairedArgs(name, g[0], g.slice(1))] : g,
      kw,
      name,
    );
    parsed(
      name,
      [
        ["dim", "int", a.dim],
        ["index", "Tensor", a.index],
      ],
      1,
    );
    return family(name, a.input, a.dim, a.index);
  });
}

export const TORCH = {
  tensor: fn("torch.tensor", (g, kw) => {
    const a = args(["data", "dtype=None", "requires_grad=False"], g, kw, "tensor");
    if (a.requires_grad.t === "bool" && a.requires_grad.v)
      throw new UnsupportedError("requires_grad (gradients need the notebook)");
    const d = dtypeArg(a.dtype, "torch");
    if (a.data.t === "tensor")
      return tensor(
        a.data.shape,
        a.data.data.map((v) => cast(v, d ?? a.data.dtype)),
        d ?? a.data.dtype,
      );
    return notePythonNumbers("torch.tensor", a.data, d, fromSequence(a.data, d, "torch"));
  }),
  as_tensor: null,
  arange: fn("torch.arange", (g, kw) =>
    arange(args(["start", "end=None", "step=1", "dtype=None"], g, kw, "arange"), "torch"),
  ),
  gather: readAlongDim("gather"),
  index_select: readAlongDim("index_select"),
  take: fn("torch.take", (g, kw) => {
    const a = args(["input", "index"], g, kw, "take");
    parsed("take", [["index", "Tensor", a.index]], 1);
    return family("take", a.input, null, a.index);
  }),
  take_along_dim: fn("torch.take_along_dim", (g, kw) => {
    const a = args(
      ["input", "indices", "dim=None"],
      g.length ? [g[0], ...repairedArgs("take_along_dim", g[0], g.slice(1))] : g,
      kw,
      "take_along_dim",
    );
    parsed(
      "take_along_dim",
      [
        ["indices", "Tensor", a.indices],
        ["dim", "int?", a.dim],
      ],
      1,
    );
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
    const d =
      dtypeArg(a.dtype, "torch") ??
      (fill.t === "float" ? "float32" : fill.t === "bool" ? "bool" : "int64");
    return filled(sizesFrom([a.size], "full"), numberOf(fill), d, "torch");
  }),
  zeros_like: null,
  ones_like: null,
  eye: fn("torch.eye", (g, kw) => {
    const a = args(["n", "m=None", "dtype=None"], g, kw, "eye");
    const n = toInt(a.n, "an int");
    const m = optionalInt(a.m) ?? n;
    if (n < 0 || m < 0)
      throw new PyError("RuntimeError", `n must be greater or equal to 0, got ${n < 0 ? n : m}`);
    const out = filled([n, m], 0, dtypeArg(a.dtype, "torch") ?? "float32", "torch");
    if (a.dtype.t === "none") FLOAT_DEFAULTS.defaults.push("torch.eye");
    for (let k = 0; k < Math.min(n, m); k++) out.data[k * m + k] = cast(1, out.dtype);
    return out;
  }),
  floor_divide: fn("torch.floor_divide", (g, kw) => {
    const a = args(["input", "other"], g, kw, "floor_divide");
    return floorDivided("torch.floor_divide", () =>
      tensorBinary("//", a.input.t === "tensor" ? a.input : asTensor(a.input), a.other),
    );
  }),
  broadcast_to: fn("torch.broadcast_to", (g, kw) => {
    const a = args(["input", "size"], g, kw, "broadcast_to");
    return expand(asTensor(a.input), sizesFrom([a.size], "broadcast_to"));
  }),
  meshgrid: null,
};
// torch's empty memory holds whatever was there; the page's holds EMPTY_FILL.value (0,
// or 1 when the checker runs a passing answer again: patching.filling_empty)
export const EMPTY_FILL = { value: 0 };
for (const [name, value] of [
  ["empty", null],
  ["zeros", 0],
  ["ones", 1],
])
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    const dtype = kw.find(([k]) => k === "dtype");
    const rest = kw.filter(([k]) => k !== "dtype");
    if (rest.length) throw new UnsupportedError(`the argument ${rest[0][0]}= of torch.${name}`);
    const d = dtype ? dtypeArg(dtype[1], "torch") : "float32";
    if (name === "zeros" && !dtype) FLOAT_DEFAULTS.zeros += 1;
    if (!dtype) FLOAT_DEFAULTS.defaults.push(`torch.${name}`);
    const out = filled(sizesFrom(g, name), value ?? EMPTY_FILL.value, d, "torch");
    // implement.py's noting_given_dtypes: a maker given a dtype, and what it made
    if (dtype && dtype[1].t !== "none") FLOAT_DEFAULTS.given.push({ call: `torch.${name}`, out });
    return out;
  });
for (const [name, value] of [
  ["zeros_like", 0],
  ["ones_like", 1],
])
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    const a = args(["input", "dtype=None"], g, kw, name);
    const t = asTensor(a.input);
    return filled(t.shape.slice(), value, dtypeArg(a.dtype, "torch") ?? t.dtype, "torch");
  });
TORCH.empty_like = fn("torch.empty_like", (g, kw) => {
  const a = args(["input", "dtype=None"], g, kw, "empty_like");
  const t = asTensor(a.input);
  return filled(t.shape.slice(), EMPTY_FILL.value, dtypeArg(a.dtype, "torch") ?? t.dtype, "torch");
});
TORCH.full_like = fn("torch.full_like", (g, kw) => {
  const a = args(["input", "fill_value", "dtype=None"], g, kw, "full_like");
  const t = asTensor(a.input);
  return filled(
    t.shape.slice(),
    numberOf(a.fill_value),
    dtypeArg(a.dtype, "torch") ?? t.dtype,
    "torch",
  );
});
// torch.meshgrid(*tensors, indexing="ij"): each 0-d or 1-D tensor along its own dim of
// the grid ("xy" swaps the first two), as a tuple of tensors.
// Every meshgrid in "xy" mode since the checker last reset the list, as { call, how },
// run in "ij" mode while `ij` is on (implement.py's meshgrids_as_ij; exercises.mjs's
// meshgridXY): an answer that then passes built its grid transposed.
export const MESHGRID = { ij: false, xy: [] };
export function meshgridMode(call, indexing, count, fallback) {
  const mode = indexing && indexing.t !== "none" ? indexing.v : fallback;
  if (mode !== "xy" || count < 2) return mode;
  MESHGRID.xy.push({ call, how: indexing && indexing.t !== "none" ? "was given" : "defaults to" });
  return MESHGRID.ij ? "ij" : "xy";
}
TORCH.meshgrid = fn("torch.meshgrid", (g, kw) => {
  const indexing = kw.find(([k]) => k === "indexing")?.[1];
  const rest = kw.filter(([k]) => k !== "indexing");
  if (rest.length) throw new UnsupportedError(`the argument ${rest[0][0]}= of torch.meshgrid`);
  const items = g.length === 1 && (g[0].t === "list" || g[0].t === "tuple") ? g[0].items : g;
  if (!items.length)
    throw new PyError("RuntimeError", "torch.meshgrid expects a non-empty TensorList");
  const tensors = items.map((v) => {
    if (v.t !== "tensor") throw new PyError("TypeError", "meshgrid() expects tensors");
    if (v.shape.length > 1)
      throw new PyError(
        "RuntimeError",
        `torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: ${v.shape.length}D`,
      );
    return v;
  });
  if (tensors.some((t) => t.dtype !== tensors[0].dtype))
    throw new PyError("RuntimeError", "torch.meshgrid: expects all tensors to have the same dtype");
  const mode = meshgridMode("torch.meshgrid", indexing, tensors.length, "ij");
  if (mode !== "ij" && mode !== "xy")
    throw new PyError(
      "RuntimeError",
      `torch.meshgrid: indexing must be one of "xy" or "ij", but received: ${mode}`,
    );
  return tuple(meshgrid(tensors, mode === "xy"));
});

// The grids of meshgrid: tensor k holds its entry c[dim k] at every coordinate c.
export function meshgrid(tensors, xy) {
  const dimOf = (k) => (xy && tensors.length > 1 && k < 2 ? 1 - k : k);
  const shape = tensors.map((_, d) => tensors[dimOf(d)].data.length);
  return tensors.map((t, k) => {
    const data = new Array(prod(shape));
    forEachCoord(shape, (at, flat) => {
      data[flat] = t.data[at[dimOf(k)]];
    });
    return tensor(shape.slice(), data, t.dtype, t.lib);
  });
}

// x.flip(dims): the entries in reverse order along each of dims (a copy, as torch's).
export function flip(t, dims) {
  const rank = t.shape.length;
  const along = dims.map((d) => normDim(d, Math.max(rank, 1), "flip"));
  if (new Set(along).size !== along.length)
    throw new PyError(
      "RuntimeError",
      `dim ${along.find((d, k) => along.indexOf(d) !== k)} appears multiple times in the list of dims`,
    );
  const st = strides(t.shape);
  const data = new Array(t.data.length);
  forEachCoord(t.shape, (at, flat) => {
    let src = 0;
    for (let d = 0; d < rank; d++)
      src += (along.includes(d) ? t.shape[d] - 1 - at[d] : at[d]) * st[d];
    data[flat] = t.data[src];
  });
  return tensor(t.shape.slice(), data, t.dtype, t.lib);
}

// x.argmax(dim=None, keepdim=False), argmin: the first position of the extreme.
function argExtreme(t, dim, keepdim, max) {
  if (!t.data.length)
    throw new PyError(
      "RuntimeError",
      `${max ? "argmax" : "argmin"}(): Expected reduction dim to be specified for input.numel() == 0.`,
    );
  const better = (a, b) => (Number.isNaN(a) && !Number.isNaN(b)) || (max ? a > b : a < b);
  if (dim === null) {
    let best = 0;
    t.data.forEach((v, k) => better(v, t.data[best]) && (best = k));
    return tensor(keepdim ? t.shape.map(() => 1) : [], [best], "int64", t.lib);
  }
  const d = normDim(dim, Math.max(t.shape.length, 1), max ? "argmax" : "argmin");
  if (!t.shape.length) return tensor([], [0], "int64", t.lib);
  const shape = t.shape.slice();
  shape[d] = 1;
  const st = strides(t.shape);
  const data = [];
  forEachCoord(shape, (at) => {
    let base = 0;
    for (let e = 0; e < at.length; e++) base += at[e] * st[e];
    let best = 0;
    for (let k = 1; k < t.shape[d]; k++)
      if (better(t.data[base + k * st[d]], t.data[base + best * st[d]])) best = k;
    data.push(best);
  });
  if (!keepdim) shape.splice(d, 1);
  return tensor(shape, data, "int64", t.lib);
}

TORCH.as_tensor = TORCH.tensor;
TORCH.nn = { t: "module", name: "torch.nn" };
export const NN = { functional: { t: "module", name: "torch.nn.functional" } };
export const FUNCTIONAL = {
  one_hot: fn("torch.nn.functional.one_hot", (g, kw) => {
    const a = args(["input", "num_classes=-1"], g, kw, "one_hot");
    const classes = toInt(a.num_classes);
    const given = classes === -1 ? null : classes;
    const op = "torch.nn.functional.one_hot";
    return sizing(op, "num_classes", given, -1, () => oneHot(asTensor(a.input), classes));
  }),
  log_softmax: fn("torch.nn.functional.log_softmax", (g, kw) =>
    callMethod(asTensor(g[0]), "log_softmax", g.slice(1), kw),
  ),
  softmax: fn("torch.nn.functional.softmax", (g, kw) =>
    callMethod(asTensor(g[0]), "softmax", g.slice(1), kw),
  ),
};
for (const [alias, dtype] of Object.entries(TORCH_DTYPES))
  TORCH[alias] = dtypeValue(dtype, "torch");
// the methods that are also functions: torch.unsqueeze(x, 0), torch.flatten(x), ...
const FUNCTION_METHODS = [
  "unsqueeze",
  "squeeze",
  "reshape",
  "flatten",
  "repeat_interleave",
  "round",
  "transpose",
  "permute",
  "sum",
  "any",
  "all",
  "numel",
  "abs",
  "floor",
  "ceil",
  "max",
  "min",
  "clone",
  "scatter",
  "scatter_add",
  "scatter_reduce",
  "index_add",
  "put",
  "unique",
  "argsort",
  "clamp",
  "bincount",
  "log_softmax",
  "softmax",
  "diag",
  "diagonal",
  "flip",
  "argmax",
  "argmin",
  "add",
  "sub",
  "mul",
  "div",
  "eq",
  "ne",
  "lt",
  "le",
  "gt",
  "ge",
  "remainder",
  "maximum",
  "minimum",
  "masked_fill",
];
for (const name of FUNCTION_METHODS)
  TORCH[name] = fn(`torch.${name}`, (g, kw) => {
    if (!g.length) throw new PyError("TypeError", `${name}() missing required argument 'input'`);
    const method = () => callMethod(asTensor(g[0]), name, g.slice(1), kw, 1); // positions count input
    if (name !== "bincount") return method();
    // torch.bincount(input, weights, minlength): noted as the notebook notes it (SIZED)
    const minlength = kw.find(([k]) => k === "minlength")?.[1] ?? g[2];
    let given = null;
    try {
      given = minlength === undefined ? null : toInt(minlength) || null;
    } catch {
      return method(); // a size argument bincount itself refuses, in its own words
    }
    return sizing("torch.bincount", "minlength", given, 0, method);
  });

export function sequenceItems(value, name) {
  if (value.t === "list" || value.t === "tuple") return value.items;
  if (value.t === "tensor")
    throw new PyError(
      "TypeError",
      `${name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor`,
    );
  throw new PyError("TypeError", `${name}() expects a sequence of tensors`);
}

// patching.repairing: while on, a float index given to a gather-family op or a write is
// made int64 (.long(), which truncates) and a tensor of values written gets the
// input's dtype, so an answer's later steps run past those two slips (implement's
// repaired verdict). The positions of index and src in the arguments after self.
export const REPAIRING = { on: false };
const REPAIRED = {
  gather: [1, null],
  take_along_dim: [0, null],
  index_select: [1, null],
  scatter: [1, 2],
  scatter_add: [1, 2],
  scatter_reduce: [1, 2],
  index_add: [1, 2],
};
function repairedArgs(name, self, g) {
  const at = REPAIRED[name.replace(/_$/, "")];
  if (!REPAIRING.on || !at) return g;
  const given = g.slice();
  const [index, src] = at;
  const value = given[index];
  if (value && value.t === "tensor" && isFloat(value.dtype))
    given[index] = tensor(value.shape.slice(), value.data.map(Math.trunc), "int64");
  const values = src === null ? undefined : given[src];
  if (values && values.t === "tensor" && self && self.t === "tensor")
    given[src] = tensor(
      values.shape.slice(),
      values.data.map((v) => cast(v, self.dtype)),
      self.dtype,
    );
  return given;
}

// ---- tensor methods and attributes

// The writing ops and the subscript whose error the error table explains with the
// call's op, dim and shapes (which name the argument that broke the rule: a 0-d source,
// a (row, column) pair the wrong way round), as patching.FAILING records them: where
// each argument sits after self, and torch's keywords for them.
const FAILING = {
  index_add: ["dim", "index", "src"],
  index_copy: ["dim", "index", "src"],
  index_fill: ["dim", "index", "src"],
  index_put: ["index", "src"],
  put: ["index", "src"],
  scatter_reduce: ["dim", "index", "src"],
  masked_scatter: ["index", "src"],
  masked_fill: ["index", "src"],
  __getitem__: ["index"],
  __setitem__: ["index", "src"],
};
const FAILING_KEYWORDS = { source: "src", values: "src", value: "src", indices: "index" };

/** implement.explained_error's known: op (none for the subscript), dim (an int) and
 * the shapes of the call's torch tensors; null for an op not in FAILING. */
export function failedCall(op, self, given, kwargs = []) {
  const names = FAILING[op] ?? FAILING[op.replace(/_$/, "")];
  if (!names || self.t !== "tensor" || self.lib === "tf") return null;
  const values = {};
  names.forEach((name, k) => {
    if (k < given.length) values[name] = given[k];
  });
  for (const [key, value] of kwargs) {
    const name = FAILING_KEYWORDS[key] ?? key;
    if (!(name in values)) values[name] = value;
  }
  let index = values.index;
  if (op.startsWith("index_put") && index && ["tuple", "list"].includes(index.t))
    if (index.items.length === 1) index = index.items[0];
  const shapes = {};
  for (const [name, value] of [
    ["input", self],
    ["index", index],
    ["src", values.src],
  ])
    if (value && value.t === "tensor" && value.lib !== "tf") shapes[name] = value.shape.slice();
  const dim = values.dim && values.dim.t === "int" ? values.dim.v : null;
  return { op: op.startsWith("__") ? null : op, dim, shapes };
}

// patching.separating_in_place: while SEPARATE.on, an in-place write into a tensor that
// an earlier in-place write of the run wrote into writes into a copy of it as it was
// before (its op noted in SEPARATE.ops); `written` is reset per run (exercises.mjs)
export const SEPARATE = { on: false, written: new Map(), ops: [] };
const IN_PLACE_WRITES = new Set([
  "index_add_",
  "scatter_",
  "scatter_add_",
  "scatter_reduce_",
  "index_put_",
  "index_copy_",
  "index_fill_",
  "masked_fill_",
  "put_",
  "index_reduce_",
]);

export function callMethod(t, name, g, kw, offset = 0) {
  if (SEPARATE.on && IN_PLACE_WRITES.has(name) && t.t === "tensor" && t.lib === "torch") {
    const before = SEPARATE.written.get(t);
    if (before) {
      SEPARATE.ops.push(name);
      t = tensor(before.shape.slice(), before.data.slice(), before.dtype);
    } else SEPARATE.written.set(t, tensor(t.shape.slice(), t.data.slice(), t.dtype));
  }
  g = repairedArgs(name, t, g);
  const noKw = () => {
    if (kw.length) throw new UnsupportedError(`the argument ${kw[0][0]}= of .${name}()`);
  };
  const dimKw = (spec) => args(spec, g, kw, name);
  if (t.lib === "tf" && !["numpy", "__tf_shape__"].includes(name))
    throw new UnsupportedError(
      `the method .${name}() of a TensorFlow tensor (use the tf.* function)`,
    );
  switch (name) {
    case "gather":
    case "index_select": {
      const a = dimKw(["dim", "index"]);
      parsed(
        name,
        [
          ["dim", "int", a.dim],
          ["index", "Tensor", a.index],
        ],
        offset,
      );
      return family(name, t, a.dim, a.index);
    }
    case "take": {
      const a = dimKw(["index"]);
      parsed(name, [["index", "Tensor", a.index]], offset);
      return family("take", t, null, a.index);
    }
    case "take_along_dim": {
      const a = dimKw(["indices", "dim=None"]);
      parsed(
        name,
        [
          ["indices", "Tensor", a.indices],
          ["dim", "int?", a.dim],
        ],
        offset,
      );
      return family("take_along_dim", t, optionalInt(a.dim), a.indices);
    }
    case "flip": {
      noKw();
      const dims = g.length === 1 && (g[0].t === "list" || g[0].t === "tuple") ? g[0].items : g;
      return flip(
        t,
        dims.map((d) => toInt(d)),
      );
    }
    case "argmax":
    case "argmin": {
      const a = dimKw(["dim=None", "keepdim=False"]);
      return argExtreme(t, optionalInt(a.dim), truthy(a.keepdim), name === "argmax");
    }
    case "add":
    case "sub": {
      const a = dimKw(["other", "alpha=1"]);
      const other =
        numberOf(a.alpha) === 1
          ? a.other
          : tensorBinary("*", asTensor(a.other, "torch", t), a.alpha);
      return tensorBinary(name === "add" ? "+" : "-", t, other);
    }
    case "mul":
    case "eq":
    case "ne":
    case "lt":
    case "le":
    case "gt":
    case "ge":
    case "remainder":
      return tensorBinary(BINARY_METHODS[name], t, dimKw(["other"]).other);
    case "div": {
      const a = dimKw(["other", "rounding_mode=None"]);
      if (a.rounding_mode.t === "none") return tensorBinary("/", t, a.other);
      if (a.rounding_mode.v === "floor")
        return floorDivided("rounding_mode='floor'", () => tensorBinary("//", t, a.other));
      throw new UnsupportedError(`div with rounding_mode=${JSON.stringify(a.rounding_mode.v)}`);
    }
    case "maximum":
    case "minimum": {
      const other = asTensor(dimKw(["other"]).other, "torch", t);
      if (other.t !== "tensor")
        throw new PyError("TypeError", `${name}(): argument 'other' must be Tensor`);
      const big = tensorBinary(">", t, other);
      const pick = name === "maximum" ? big : { ...big, data: big.data.map((v) => 1 - v) };
      return where(pick, t, other);
    }
    case "new_zeros":
    case "new_ones":
    case "new_empty": {
      const dtype = kw.find(([k]) => k === "dtype");
      const rest = kw.filter(([k]) => k !== "dtype");
      if (rest.length) throw new UnsupportedError(`the argument ${rest[0][0]}= of .${name}()`);
      const d = dtype ? dtypeArg(dtype[1], "torch") : t.dtype;
      const value = { new_ones: 1, new_zeros: 0 }[name] ?? EMPTY_FILL.value;
      return filled(sizesFrom(g, name), value, d, "torch");
    }
    case "new_full": {
      const a = dimKw(["size", "fill_value", "dtype=None"]);
      const d = dtypeArg(a.dtype, "torch") ?? t.dtype;
      return filled(sizesFrom([a.size], name), numberOf(a.fill_value), d, "torch");
    }
    case "new_tensor": {
      const a = dimKw(["data", "dtype=None"]);
      return fromSequence(a.data, dtypeArg(a.dtype, "torch") ?? t.dtype, "torch");
    }
    case "add_":
    case "sub_":
    case "mul_":
    case "div_": {
      // torch's x.add_(y): x += y, with add_'s alpha
      const a = dimKw(name === "add_" || name === "sub_" ? ["other", "alpha=1"] : ["other"]);
      const other =
        a.alpha === undefined || numberOf(a.alpha) === 1
          ? a.other
          : tensorBinary("*", asTensor(a.other, "torch", t), a.alpha);
      augmented({ add_: "+", sub_: "-", mul_: "*", div_: "/" }[name], t, other);
      return t;
    }
    case "copy_": {
      // any dtype is cast into t's; src broadcasts to t's shape
      const src = asTensor(dimKw(["src"]).src, "torch", t);
      return inPlace(t, expand(src, t.shape.slice()), src);
    }
    case "fill_":
    case "zero_": {
      const value = name === "zero_" ? pyInt(0) : dimKw(["value"]).value;
      if (value.t === "tensor" && value.shape.length)
        throw new PyError(
          "RuntimeError",
          `fill_ only supports 0-dimension value tensor but got tensor with ${value.shape.length} dimensions.`,
        );
      const v = value.t === "tensor" ? value.data[0] : numberOf(value);
      return inPlace(t, filled(t.shape.slice(), v, t.dtype, "torch"));
    }
    case "masked_fill":
    case "masked_fill_": {
      overloaded(name, g, MASKED_FILL_OVERLOADS, offset, kw); // a keyword none of them has
      const a = dimKw(["mask", "value"]);
      overloaded(name, [a.mask, a.value], MASKED_FILL_OVERLOADS, offset);
      const mask = asTensor(a.mask);
      // the copy's mask broadcasts with the tensor before any other check (torch's order)
      if (name === "masked_fill") broadcastShapes(mask.shape, t.shape);
      if (mask.dtype !== "bool")
        throw new PyError(
          "RuntimeError",
          `masked_fill_ only supports boolean masks, but got mask with dtype ${C_TYPES[mask.dtype] ?? mask.dtype}`,
        );
      if (a.value.t === "tensor" && a.value.shape.length)
        throw new PyError(
          "RuntimeError",
          `masked_fill_ only supports a 0-dimensional value tensor, but got tensor with ${a.value.shape.length} dimension(s).`,
        );
      const v = a.value.t === "tensor" ? a.value.data[0] : numberOf(a.value);
      const shape = broadcastShapes(t.shape, mask.shape);
      if (
        name === "masked_fill_" &&
        (shape.length !== t.shape.length || shape.some((n, d) => n !== t.shape[d]))
      )
        throw new PyError(
          "RuntimeError",
          `the mask of shape [${mask.shape.join(", ")}] does not broadcast to the tensor's shape [${t.shape.join(", ")}]`,
        );
      const xs = broadcastData(t, shape);
      const ms = broadcastData(mask, shape);
      const out = tensor(
        shape,
        xs.map((x, k) => (ms[k] ? cast(v, t.dtype) : x)),
        t.dtype,
        "torch",
      );
      return name === "masked_fill_" ? inPlace(t, out, mask) : out;
    }
    case "unsqueeze":
      return unsqueeze(t, toInt(dimKw(["dim"]).dim));
    case "squeeze": {
      const a = dimKw(["dim=None"]);
      if (a.dim.t === "none") return squeeze(t, null);
      return squeeze(
        t,
        a.dim.t === "tuple" || a.dim.t === "list"
          ? a.dim.items.map((v) => toInt(v))
          : [toInt(a.dim)],
      );
    }
    case "expand":
      noKw();
      return expand(t, sizesFrom(needArgs(g, name), "expand"));
    case "expand_as":
      return expand(t, asTensor(dimKw(["other"]).other).shape.slice());
    case "reshape":
      noKw();
      return reshape(t, sizesFrom(g, "reshape"));
    case "view": {
      noKw();
      if (g.length === 1 && g[0].t === "dtype") throw new UnsupportedError(".view(dtype)");
      return reshape(t, sizesFrom(g, "view"), true);
    }
    case "view_as":
    case "reshape_as":
      return reshape(t, asTensor(dimKw(["other"]).other).shape.slice(), name === "view_as");
    case "repeat":
      noKw();
      return repeatTensor(t, sizesFrom(g, "repeat"));
    case "repeat_interleave": {
      const a = dimKw(["repeats", "dim=None"]);
      return repeatInterleave(t, a.repeats, optionalInt(a.dim));
    }
    case "flatten": {
      const a = dimKw(["start_dim=0", "end_dim=-1"]);
      return flatten(t, toInt(a.start_dim), toInt(a.end_dim));
    }
    case "long":
    case "int":
    case "float":
    case "double":
    case "bool":
    case "short": {
      noKw();
      if (g.length) throw new PyError("TypeError", `${name}() takes no arguments`);
      const d = TORCH_DTYPES[name];
      if (d === t.dtype) return t; // torch returns the tensor itself
      const out = tensor(
        t.shape,
        t.data.map((v) => cast(v, d)),
        d,
      );
      FLOAT_DEFAULTS.casts.push({ call: `.${name}()`, out });
      return out;
    }
    case "to":
    case "type": {
      const a = dimKw(["dtype"]);
      if (a.dtype.t !== "dtype") throw new UnsupportedError(`.${name}() with anything but a dtype`);
      if (a.dtype.name === t.dtype) return t; // torch returns the tensor itself
      const out = tensor(
        t.shape,
        t.data.map((v) => cast(v, a.dtype.name)),
        a.dtype.name,
      );
      FLOAT_DEFAULTS.casts.push({ call: `.${name}(torch.${a.dtype.name})`, out });
      return out;
    }
    case "round": {
      const a = dimKw(["decimals=0"]);
      if (t.dtype === "bool")
        throw new PyError("NotImplementedError", "\"round_cpu\" not implemented for 'Bool'");
      if (toInt(a.decimals) !== 0) throw new UnsupportedError(".round(decimals=...)");
      return tensor(
        t.shape,
        t.data.map((v) => (isFloat(t.dtype) ? cast(roundHalfEven(v), t.dtype) : v)),
        t.dtype,
      );
    }
    case "floor":
    case "ceil":
    case "abs":
    case "neg": {
      noKw();
      const f = { floor: Math.floor, ceil: Math.ceil, abs: Math.abs, neg: (v) => -v }[name];
      if (t.dtype === "bool" && name !== "abs")
        throw new PyError("RuntimeError", `${name} is not supported for bool tensors`);
      return tensor(
        t.shape,
        t.data.map((v) => cast(f(v) + 0, t.dtype)),
        t.dtype,
      );
    }
    case "size": {
      const a = dimKw(["dim=None"]);
      if (a.dim.t === "none") return { ...tuple(t.shape.map(pyInt)), size: true };
      if (!t.shape.length)
        throw new PyError(
          "IndexError",
          `Dimension specified as ${toInt(a.dim)} but tensor has no dimensions`,
        );
      return pyInt(t.shape[normDim(toInt(a.dim), t.shape.length)]);
    }
    case "dim":
    case "ndimension":
      noKw();
      return pyInt(t.shape.length);
    case "numel":
    case "nelement":
      noKw();
      return pyInt(t.data.length);
    case "item": {
      noKw();
      if (t.data.length !== 1)
        throw new PyError(
          "RuntimeError",
          `a Tensor with ${t.data.length} elements cannot be converted to Scalar`,
        );
      return scalarOf(t, 0);
    }
    case "tolist":
      noKw();
      return toList(t);
    case "clone":
      noKw();
      return tensor(t.shape, t.data.slice(), t.dtype);
    case "contiguous": {
      // the tensor itself where it is row-major in memory, as torch's
      noKw();
      const rowMajor = strides(t.shape);
      if (!t.alias || t.shape.every((s, d) => s <= 1 || t.alias.strides[d] === rowMajor[d]))
        return t;
      return tensor(t.shape, t.data.slice(), t.dtype);
    }
    case "detach":
      noKw();
      return viewTensor(t, t.shape.slice(), layoutOf(t)); // the same memory
    case "t": {
      noKw();
      if (t.shape.length > 2)
        throw new PyError(
          "RuntimeError",
          `t() expects a tensor with <= 2 dimensions, but self is ${t.shape.length}D`,
        );
      return t.shape.length < 2 ? t : transpose(t, 0, 1);
    }
    case "transpose": {
      const a = dimKw(["dim0", "dim1"]);
      return transpose(t, toInt(a.dim0), toInt(a.dim1));
    }
    case "permute":
      noKw();
      return permute(t, sizesFrom(needArgs(g, name), "permute"));
    case "sum":
    case "any":
    case "all":
    case "max":
    case "min":
    case "prod": {
      const a = dimKw(["dim=None", "keepdim=False"]);
      if ((name === "max" || name === "min") && a.dim.t !== "none")
        throw new UnsupportedError(`.${name}(dim) (it returns values and indices)`);
      return reduce(t, optionalInt(a.dim), a.keepdim.v, name);
    }
    case "scatter":
    case "scatter_":
    case "scatter_add":
    case "scatter_add_": {
      if (!name.startsWith("scatter_add")) overloaded(name, g, SCATTER_OVERLOADS, offset, kw); // a keyword none of them has
      const a = dimKw(["dim", "index", "src"]);
      if (name.startsWith("scatter_add"))
        parsed(
          name,
          [
            ["dim", "int", a.dim],
            ["index", "Tensor", a.index],
            ["src", "Tensor", a.src],
          ],
          offset,
        );
      else overloaded(name, [a.dim, a.index, a.src], SCATTER_OVERLOADS, offset);
      const out = scatterOp(
        name,
        t,
        a.dim,
        a.index,
        a.src,
        name.startsWith("scatter_add") ? "sum" : "none",
      );
      return name.endsWith("_") ? inPlace(t, out, a.src, a.index) : out;
    }
    case "log_softmax":
    case "softmax": {
      const a = dimKw(["dim"]);
      return softmax(t, toInt(a.dim), name === "log_softmax");
    }
    case "diag":
      noKw();
      return diag(t);
    case "diagonal": {
      const a = dimKw(["offset=0", "dim1=0", "dim2=1"]);
      return diagonal(t, toInt(a.offset), toInt(a.dim1), toInt(a.dim2));
    }
    case "scatter_reduce":
    case "scatter_reduce_": {
      const a = dimKw(["dim", "index", "src", "reduce", "include_self=True"]);
      parsed(
        name,
        [
          ["dim", "int", a.dim],
          ["index", "Tensor", a.index],
          ["src", "Tensor", a.src],
        ],
        offset,
      );
      if (a.reduce.t !== "str")
        throw new PyError(
          "TypeError",
          `${name}(): argument 'reduce' (position ${4 + offset}) must be str, not ${typeName(a.reduce)}`,
        );
      const reduce = a.reduce.t === "str" ? a.reduce.v : null;
      if (!REDUCTIONS.includes(reduce))
        throw new PyError(
          "RuntimeError",
          `reduce argument must be either sum, prod, mean, amax or amin, got ${a.reduce.t === "str" ? a.reduce.v : typeName(a.reduce)}`,
        );
      const out = scatterOp(name, t, a.dim, a.index, a.src, reduce, Boolean(a.include_self.v));
      return name.endsWith("_") ? inPlace(t, out, a.src, a.index) : out;
    }
    case "index_add":
    case "index_add_": {
      const a = dimKw(["dim", "index", "source"]);
      parsed(
        name,
        [
          ["dim", "int", a.dim],
          ["index", "Tensor", a.index],
          ["source", "Tensor", a.source],
        ],
        offset,
      );
      const out = indexAdd(name, t, a.dim, a.index, a.source);
      return name.endsWith("_") ? inPlace(t, out, a.source, a.index) : out;
    }
    case "index_put":
    case "index_put_": {
      const a = dimKw(["indices", "values", "accumulate=False"]);
      const out = indexPut(name, t, a.indices, a.values, truthy(a.accumulate), offset);
      return name.endsWith("_") ? inPlace(t, out) : out;
    }
    case "put":
    case "put_": {
      const a = dimKw(["index", "source", "accumulate=False"]);
      parsed(
        name,
        [
          ["index", "Tensor", a.index],
          ["source", "Tensor", a.source],
        ],
        offset,
      );
      const out = put(t, a.index, a.source, truthy(a.accumulate));
      return name.endsWith("_") ? inPlace(t, out, a.source, a.index) : out;
    }
    case "unique": {
      const a = dimKw(["sorted=True", "return_inverse=False", "return_counts=False", "dim=None"]);
      if (truthy(a.return_inverse) || truthy(a.return_counts) || a.dim.t !== "none")
        throw new UnsupportedError(".unique() with return_inverse, return_counts or dim");
      return unique(t, truthy(a.sorted));
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

const BINARY_METHODS = {
  mul: "*",
  eq: "==",
  ne: "!=",
  lt: "<",
  le: "<=",
  gt: ">",
  ge: ">=",
  remainder: "%",
};

// The methods the page runs: those that are also functions (above), and these.
export const METHODS = new Set([
  ...FUNCTION_METHODS,
  "new_zeros",
  "new_ones",
  "new_empty",
  "new_full",
  "new_tensor",
  "fill_",
  "zero_",
  "add_",
  "sub_",
  "mul_",
  "div_",
  "copy_",
  "masked_fill_",
  "gather",
  "index_select",
  "take",
  "take_along_dim",
  "expand",
  "expand_as",
  "view",
  "view_as",
  "reshape_as",
  "repeat",
  "long",
  "int",
  "float",
  "double",
  "bool",
  "short",
  "to",
  "type",
  "neg",
  "size",
  "dim",
  "ndimension",
  "nelement",
  "item",
  "tolist",
  "contiguous",
  "detach",
  "t",
  "prod",
  "scatter_",
  "scatter_add_",
  "scatter_reduce_",
  "index_add_",
  "index_put",
  "index_put_",
  "put_",
]);

function needArgs(g, name) {
  if (!g.length)
    throw new PyError("TypeError", `${name}() missing 1 required positional arguments: "size"`);
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
