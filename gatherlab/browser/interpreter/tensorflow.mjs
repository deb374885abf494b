// TensorFlow as the interpreter emulates it: tf.constant, tf.gather, tf.gather_nd, the
// scatter family and the other tf ops the chapters use, raising what TensorFlow raises.

import { isFloat, unravel } from "../explorers/core.mjs";
import { PyError, pyInt, UnsupportedError } from "./python.mjs";
import {
  args,
  cast,
  fn,
  forEachCoord,
  fromSequence,
  isNumber,
  list,
  notePythonNumbers,
  numberOf,
  optionalInt,
  prod,
  pyFloat,
  sizesFrom,
  strides,
  tensor,
  tfDtypeCheck,
  toInt,
} from "./tensor.mjs";
import {
  arange,
  dtypeArg,
  dtypeValue,
  expand,
  filled,
  joinTensors,
  meshgrid,
  meshgridMode,
  permute,
  reduce,
  repeatTensor,
  reshape,
  sequenceItems,
  takeAlong,
  unsqueeze,
  where,
} from "./torch.mjs";

function tfTensorArg(v, dtype = null) {
  if (v.t === "tensor") {
    if (dtype && v.dtype !== dtype)
      throw new PyError(
        "ValueError",
        `Tensor conversion requested dtype ${dtype} for Tensor with dtype ${v.dtype}`,
      );
    return v.lib === "tf" ? v : { ...v, lib: "tf" };
  }
  return fromSequence(v, dtype, "tf");
}

function tfConstant(v, dtype) {
  if (isNumber(v)) {
    const d = dtype ?? (v.t === "float" ? "float32" : v.t === "bool" ? "bool" : "int32");
    return tensor([], [cast(numberOf(v), d)], d, "tf");
  }
  if (v.t === "tensor")
    return tensor(
      v.shape,
      v.data.map((x) => cast(x, dtype ?? v.dtype)),
      dtype ?? v.dtype,
      "tf",
    );
  return fromSequence(v, dtype, "tf");
}

// An op's indices argument as a tensor, refused as TensorFlow refuses a dtype outside
// the op kernel's Tindices (InvalidArgumentError, its words naming the op): op is
// TensorFlow's name for it (GatherV2, ScatterNd...), its allowed dtypes TF_INDICES'.
const TF_INDICES = {
  GatherV2: ["int16", "int32", "int64"],
  GatherNd: ["int16", "int32", "int64"],
  ScatterNd: ["int16", "int32", "int64"],
  TensorScatterUpdate: ["int16", "int32", "int64", "uint16"],
};
const TF_DTYPE_NAMES = { float32: "float", float64: "double", float16: "half" };
function tfIndices(indices, op) {
  const i = tfTensorArg(indices);
  const allowed = TF_INDICES[op] ?? ["int32", "int64"];
  if (!allowed.includes(i.dtype))
    throw new PyError(
      "InvalidArgumentError",
      `Value for attr 'Tindices' of ${TF_DTYPE_NAMES[i.dtype] ?? i.dtype} is not in the list of allowed values: ${allowed.join(", ")}\n\t; NodeDef: {{node ${op}}} [Op:${op}]`,
    );
  return i;
}

// What run() returns; a PyError from the shared tensor code becomes TensorFlow's
// InvalidArgumentError with TensorFlow's message.
function inTfWords(run, message) {
  try {
    return run();
  } catch (error) {
    if (error instanceof PyError) throw new PyError("InvalidArgumentError", message());
    throw error;
  }
}

// tf.gather's axis: one integer (GatherV2 refuses a list, a tuple or a tensor with
// dims: "axis must be scalar"), or None
function gatherAxis(axis) {
  const many = axis.t === "list" || axis.t === "tuple";
  if (many || (axis.t === "tensor" && axis.shape.length > 0))
    throw new PyError("InvalidArgumentError", "axis must be scalar");
  return optionalInt(axis);
}

function tfGather(params, indices, axis, batchDims) {
  const p = tfTensorArg(params);
  const i = tfIndices(indices, "GatherV2");
  let b = batchDims;
  if (b < 0) b += i.shape.length;
  let ax = axis === null ? b : axis;
  if (ax < 0) ax += p.shape.length;
  if (b < 0 || b > i.shape.length)
    throw new PyError(
      "InvalidArgumentError",
      `Expected batch_dims in the range [${-i.shape.length}, ${i.shape.length}], but got ${batchDims}`,
    );
  if (ax < 0 || ax >= p.shape.length)
    throw new PyError(
      "InvalidArgumentError",
      `Expected axis in the range [${-p.shape.length}, ${p.shape.length}), but got ${axis}`,
    );
  if (b > ax)
    throw new PyError(
      "InvalidArgumentError",
      `batch_dims (${b}) must be less than or equal to axis (${ax})`,
    );
  for (let d = 0; d < b; d++)
    if (p.shape[d] !== i.shape[d])
      throw new PyError(
        "InvalidArgumentError",
        `params.shape[${d}]: ${p.shape[d]} should be equal to indices.shape[${d}]: ${i.shape[d]}`,
      );
  const size = p.shape[ax];
  i.data.forEach((v, k) => {
    if (v < 0 || v >= size) {
      const at = unravel(k, i.shape);
      throw new PyError(
        "InvalidArgumentError",
        `indices[${at.join(",")}] = ${v} is not in [0, ${size})`,
      );
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
  const i = tfIndices(indices, "GatherNd");
  if (batchDims < 0 || batchDims >= i.shape.length || batchDims > p.shape.length)
    throw new UnsupportedError(`tf.gather_nd with batch_dims=${batchDims} for these shapes`);
  if (batchDims > 0) {
    // each batch entry gathers from its own slice of params, as tf.gather_nd does
    const b = batchDims;
    for (let d = 0; d < b; d++)
      if (p.shape[d] !== i.shape[d])
        throw new UnsupportedError(
          "tf.gather_nd with batch dims of other sizes in params and indices",
        );
    const batch = p.shape.slice(0, b);
    const parts = [];
    for (let k = 0; k < prod(batch); k++) {
      const pSize = prod(p.shape.slice(b));
      const iSize = prod(i.shape.slice(b));
      parts.push(
        tfGatherNd(
          tensor(p.shape.slice(b), p.data.slice(k * pSize, (k + 1) * pSize), p.dtype, "tf"),
          tensor(i.shape.slice(b), i.data.slice(k * iSize, (k + 1) * iSize), i.dtype, "tf"),
          0,
        ),
      );
    }
    const inner = parts[0]?.shape ?? [
      ...i.shape.slice(b, -1),
      ...p.shape.slice(b + i.shape.at(-1)),
    ];
    return tensor(
      [...batch, ...inner],
      parts.flatMap((part) => part.data),
      p.dtype,
      "tf",
    );
  }
  if (i.shape.length === 0)
    throw new PyError("InvalidArgumentError", "indices must be at least a vector");
  const depth = i.shape[i.shape.length - 1];
  if (depth > p.shape.length)
    throw new PyError(
      "InvalidArgumentError",
      `index innermost dimension length must be <= params rank; saw: ${depth} vs. ${p.shape.length}`,
    );
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
        throw new PyError(
          "InvalidArgumentError",
          `indices[${at.join(",")}] = [${i.data.slice(k * depth, k * depth + depth).join(", ")}] does not index into param shape [${p.shape.join(",")}]`,
        );
      }
      src += v * pst[d];
    }
    for (let c = 0; c < chunk; c++) data.push(p.data[src + c]);
  }
  return tensor([...outer, ...inner], data, p.dtype, "tf");
}

export const TF_DTYPES = {
  int64: "int64",
  int32: "int32",
  int16: "int16",
  int8: "int8",
  uint8: "uint8",
  float32: "float32",
  float64: "float64",
  float16: "float16",
  bool: "bool",
  double: "float64",
  half: "float16",
};

// Every call given a misread argument since the checker last reset the list (argreads.py's
// MISREADS: the page runs tf.gather_nd's batch_dims=1 and tf.gather's axis other than its
// batch_dims), as { op, template, ... }, run with
// the value meant while `change` is on (exercises.mjs's misreadArgument).
export const MISREAD = { change: false, noted: [] };

export const TF = {
  constant: fn("tf.constant", (g, kw) => {
    const a = args(["value", "dtype=None"], g, kw, "constant", "tf");
    const dtype = dtypeArg(a.dtype, "tf");
    return notePythonNumbers("tf.constant", a.value, dtype, tfConstant(a.value, dtype));
  }),
  convert_to_tensor: null,
  gather: fn("tf.gather", (g, kw) => {
    const a = args(
      ["params", "indices", "validate_indices=None", "axis=None", "batch_dims=0"],
      g,
      kw,
      "gather",
      "tf",
    );
    let axis = gatherAxis(a.axis);
    const batchDims = toInt(a.batch_dims);
    if (axis !== null && batchDims > 0 && axis !== batchDims) {
      const shape = a.params.t === "tensor" ? a.params.shape : null;
      if (shape) {
        MISREAD.noted.push({
          op: "tf.gather",
          template: "argread.read_axis",
          given: String(axis),
          shape,
          right: String(batchDims),
        });
        if (MISREAD.change) axis = batchDims;
      }
    }
    return tfGather(a.params, a.indices, axis, batchDims);
  }),
  gather_nd: fn("tf.gather_nd", (g, kw) => {
    const a = args(["params", "indices", "batch_dims=0"], g, kw, "gather_nd", "tf");
    let batchDims = toInt(a.batch_dims);
    if (batchDims === 1) {
      MISREAD.noted.push({ op: "tf.gather_nd", template: "argread.gather_nd_batch_dims" });
      if (MISREAD.change) batchDims = 0;
    }
    return tfGatherNd(a.params, a.indices, batchDims);
  }),
  stack: fn("tf.stack", (g, kw) => {
    const a = args(["values", "axis=0"], g, kw, "stack", "tf");
    const items = sequenceItems(a.values, "stack").map((v) => tfTensorArg(v));
    items.forEach((t) => tfDtypeCheck(items[0], t, "Pack"));
    return joinTensors(items, toInt(a.axis), true, "tf");
  }),
  concat: fn("tf.concat", (g, kw) => {
    const a = args(["values", "axis"], g, kw, "concat", "tf");
    return joinTensors(
      sequenceItems(a.values, "concat").map((v) => tfTensorArg(v)),
      toInt(a.axis),
      false,
      "tf",
    );
  }),
  range: fn("tf.range", (g, kw) => {
    const a = args(["start", "limit=None", "delta=1", "dtype=None"], g, kw, "range", "tf");
    const unwrap = (v) =>
      v.t === "tensor" && v.shape.length === 0
        ? isFloat(v.dtype)
          ? pyFloat(v.data[0])
          : pyInt(v.data[0])
        : v;
    const firstTensor = [a.start, a.limit].find((v) => v.t === "tensor");
    const out = arange(
      { start: unwrap(a.start), end: unwrap(a.limit), step: unwrap(a.delta), dtype: a.dtype },
      "tf",
    );
    if (firstTensor && a.dtype.t === "none")
      return tensor(out.shape, out.data, firstTensor.dtype, "tf");
    return out;
  }),
  shape: fn("tf.shape", (g, kw) => {
    const a = args(["input", "out_type=None"], g, kw, "shape", "tf");
    const t = tfTensorArg(a.input);
    const d = dtypeArg(a.out_type, "tf") ?? "int32";
    return tensor([t.shape.length], t.shape.slice(), d, "tf");
  }),
  reshape: fn("tf.reshape", (g, kw) => {
    const a = args(["tensor", "shape"], g, kw, "reshape", "tf");
    const t = tfTensorArg(a.tensor);
    const sizes = sizesFrom([a.shape], "reshape");
    return inTfWords(
      () => reshape(t, sizes),
      () =>
        `Input to reshape is a tensor with ${t.data.length} values, but the requested shape has ${prod(sizes)}`,
    );
  }),
  expand_dims: fn("tf.expand_dims", (g, kw) => {
    const a = args(["input", "axis"], g, kw, "expand_dims", "tf");
    const t = tfTensorArg(a.input);
    return inTfWords(
      () => unsqueeze(t, toInt(a.axis)),
      () =>
        `Tried to expand dim index ${toInt(a.axis)} for tensor with ${t.shape.length} dimensions.`,
    );
  }),
  broadcast_to: fn("tf.broadcast_to", (g, kw) => {
    const a = args(["input", "shape"], g, kw, "broadcast_to", "tf");
    const t = tfTensorArg(a.input);
    const sizes = sizesFrom([a.shape], "broadcast_to");
    if (sizes.includes(-1) || sizes.length < t.shape.length)
      throw new PyError(
        "InvalidArgumentError",
        `Unable to broadcast tensor of shape [${t.shape.join(",")}] to tensor of shape [${sizes.join(",")}]`,
      );
    return inTfWords(
      () => expand(t, sizes),
      () => `Incompatible shapes: [${t.shape.join(",")}] vs. [${sizes.join(",")}]`,
    );
  }),
  tile: fn("tf.tile", (g, kw) => {
    const a = args(["input", "multiples"], g, kw, "tile", "tf");
    const t = tfTensorArg(a.input);
    const m = sizesFrom([a.multiples], "tile");
    if (m.length !== t.shape.length)
      throw new PyError(
        "InvalidArgumentError",
        `Expected multiples argument to be a vector of length ${t.shape.length} but got length ${m.length}`,
      );
    return repeatTensor(t, m);
  }),
  cast: fn("tf.cast", (g, kw) => {
    const a = args(["x", "dtype"], g, kw, "cast", "tf");
    const t = tfTensorArg(a.x);
    const d = dtypeArg(a.dtype, "tf");
    return tensor(
      t.shape,
      t.data.map((v) => cast(v, d)),
      d,
      "tf",
    );
  }),
  reduce_sum: fn("tf.reduce_sum", (g, kw) => {
    const a = args(["input_tensor", "axis=None", "keepdims=False"], g, kw, "reduce_sum", "tf");
    return reduce(tfTensorArg(a.input_tensor), optionalInt(a.axis), a.keepdims.v, "sum");
  }),
  transpose: fn("tf.transpose", (g, kw) => {
    const a = args(["a", "perm=None"], g, kw, "transpose", "tf");
    const t = tfTensorArg(a.a);
    const perm =
      a.perm.t === "none"
        ? t.shape.map((_, d) => t.shape.length - 1 - d)
        : sizesFrom([a.perm], "transpose");
    return permute(t, perm);
  }),
  where: fn("tf.where", (g, kw) => {
    const a = args(["condition", "x=None", "y=None"], g, kw, "where", "tf");
    if (a.x.t === "none") throw new UnsupportedError("tf.where with one argument");
    const out = where(tfTensorArg(a.condition), tfTensorArg(a.x), tfTensorArg(a.y));
    return { ...out, lib: "tf" };
  }),
};
// tf.tensor_scatter_nd_update (add, sub, min, max): a copy of tensor with each slice
// that indices names (its last axis a coordinate of tensor's first axes) updated.
function tensorScatterNd(name, base, indices, updates, combine) {
  const t = tfTensorArg(base);
  const i = tfIndices(indices, name);
  const u = updates.t === "tensor" ? tfTensorArg(updates) : tfTensorArg(updates, t.dtype);
  if (u.dtype !== t.dtype)
    throw new PyError(
      "InvalidArgumentError",
      `cannot compute ${name} as input #2(zero-based) was expected to be a ${t.dtype} tensor but is a ${u.dtype} tensor`,
    );
  if (!i.shape.length) throw new UnsupportedError(`${name} with 0-d indices`);
  const depth = i.shape.at(-1);
  const outer = i.shape.slice(0, -1);
  const inner = t.shape.slice(depth);
  const expected = [...outer, ...inner];
  if (
    depth > t.shape.length ||
    u.shape.length !== expected.length ||
    u.shape.some((n, d) => n !== expected[d])
  )
    throw new PyError(
      "InvalidArgumentError",
      `Dimensions [${depth},${t.shape.length}) of input[shape=[${t.shape.join(",")}]] = [${inner.join(",")}] must match dimensions [${outer.length},${u.shape.length}) of updates[shape=[${u.shape.join(",")}]]`,
    );
  const data = t.data.slice();
  const st = strides(t.shape);
  const chunk = prod(inner);
  for (let k = 0; k < prod(outer); k++) {
    let at = 0;
    for (let d = 0; d < depth; d++) {
      const v = i.data[k * depth + d];
      if (v < 0 || v >= t.shape[d])
        throw new PyError(
          "InvalidArgumentError",
          `indices[${unravel(k, outer).join(",")}] = [${i.data.slice(k * depth, (k + 1) * depth).join(", ")}] does not index into shape [${t.shape.join(",")}]`,
        );
      at += v * st[d];
    }
    for (let c = 0; c < chunk; c++)
      data[at + c] = cast(combine(data[at + c], u.data[k * chunk + c]), t.dtype);
  }
  return tensor(t.shape.slice(), data, t.dtype, "tf");
}

const SCATTER_COMBINE = {
  update: (_, v) => v,
  add: (a, v) => a + v,
  sub: (a, v) => a - v,
  min: Math.min,
  max: Math.max,
};
for (const [kind, combine] of Object.entries(SCATTER_COMBINE)) {
  const name = `tensor_scatter_nd_${kind}`;
  const op = `TensorScatter${kind === "update" ? "Update" : kind[0].toUpperCase() + kind.slice(1)}`;
  TF[name] = fn(`tf.${name}`, (g, kw) => {
    const a = args(["tensor", "indices", "updates"], g, kw, name, "tf");
    return tensorScatterNd(op, a.tensor, a.indices, a.updates, combine);
  });
}
// tf.scatter_nd(indices, updates, shape): zeros of shape with the updates added in.
TF.scatter_nd = fn("tf.scatter_nd", (g, kw) => {
  const a = args(["indices", "updates", "shape"], g, kw, "scatter_nd", "tf");
  const u = tfTensorArg(a.updates);
  const zeros = filled(sizesFrom([a.shape], "scatter_nd"), 0, u.dtype, "tf");
  return tensorScatterNd("ScatterNd", zeros, a.indices, u, SCATTER_COMBINE.add);
});

// tf.zeros, tf.ones (float32 unless a dtype is given), tf.fill, and the _like forms.
for (const [name, value] of [
  ["zeros", 0],
  ["ones", 1],
])
  TF[name] = fn(`tf.${name}`, (g, kw) => {
    const a = args(["shape", "dtype=None"], g, kw, name, "tf");
    return filled(sizesFrom([a.shape], name), value, dtypeArg(a.dtype, "tf") ?? "float32", "tf");
  });
for (const [name, value] of [
  ["zeros_like", 0],
  ["ones_like", 1],
])
  TF[name] = fn(`tf.${name}`, (g, kw) => {
    const a = args(["input", "dtype=None"], g, kw, name, "tf");
    const t = tfTensorArg(a.input);
    return filled(t.shape.slice(), value, dtypeArg(a.dtype, "tf") ?? t.dtype, "tf");
  });
TF.fill = fn("tf.fill", (g, kw) => {
  const a = args(["dims", "value"], g, kw, "fill", "tf");
  const v = tfConstant(a.value, null);
  if (v.shape.length) throw new PyError("InvalidArgumentError", "value must be a scalar");
  return filled(sizesFrom([a.dims], "fill"), v.data[0], v.dtype, "tf");
});
// tf.repeat(input, repeats, axis=None): each entry repeats times along axis (the input
// flattened first without one); repeats one number or one per entry.
TF.repeat = fn("tf.repeat", (g, kw) => {
  const a = args(["input", "repeats", "axis=None"], g, kw, "repeat", "tf");
  let t = tfTensorArg(a.input);
  let axis = optionalInt(a.axis);
  if (axis === null) {
    t = reshape(t, [t.data.length]);
    axis = 0;
  }
  if (axis < -t.shape.length || axis >= t.shape.length)
    throw new UnsupportedError("tf.repeat with an axis out of range");
  if (axis < 0) axis += t.shape.length;
  const size = t.shape[axis];
  const r = tfConstant(a.repeats, null);
  if (r.shape.length > 1 || (r.shape.length === 1 && r.data.length !== size && r.data.length !== 1))
    throw new UnsupportedError("tf.repeat with repeats of another length than the axis");
  if (isFloat(r.dtype)) throw new UnsupportedError("tf.repeat with float repeats");
  const counts = Array.from({ length: size }, (_, k) => r.data[r.data.length === 1 ? 0 : k]);
  if (counts.some((c) => c < 0)) throw new UnsupportedError("tf.repeat with negative repeats");
  const positions = counts.flatMap((c, k) => Array(c).fill(k));
  return takeAlong(t, axis, positions);
});
// tf.meshgrid(*args, indexing="xy"): as torch.meshgrid, "xy" by default.
TF.meshgrid = fn("tf.meshgrid", (g, kw) => {
  const indexing = kw.find(([k]) => k === "indexing")?.[1];
  const tensors = g.map((v) => tfTensorArg(v));
  const mode = meshgridMode("tf.meshgrid", indexing, tensors.length, "xy");
  if (mode !== "ij" && mode !== "xy")
    throw new PyError("ValueError", "indexing parameter must be either 'xy' or 'ij'");
  if (tensors.some((t) => t.shape.length > 1))
    throw new UnsupportedError("tf.meshgrid of tensors of more than one axis");
  return list(meshgrid(tensors, mode === "xy"));
});
// as tf.constant, its conversions of Python numbers noted under its own name
TF.convert_to_tensor = fn("tf.convert_to_tensor", (g, kw) => {
  const a = args(["value", "dtype=None"], g, kw, "convert_to_tensor", "tf");
  const dtype = dtypeArg(a.dtype, "tf");
  return notePythonNumbers("tf.convert_to_tensor", a.value, dtype, tfConstant(a.value, dtype));
});
for (const [alias, dtype] of Object.entries(TF_DTYPES)) TF[alias] = dtypeValue(dtype, "tf");
