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
  joinTensors,
  permute,
  reduce,
  repeatTensor,
  reshape,
  sequenceItems,
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

function tfGather(params, indices, axis, batchDims) {
  const p = tfTensorArg(params);
  const i = tfTensorArg(indices);
  if (isFloat(i.dtype) || i.dtype === "bool")
    throw new PyError(
      "TypeError",
      `Value passed to parameter 'indices' has DataType ${i.dtype} not in list of allowed values: int16, int32, int64`,
    );
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
  const i = tfTensorArg(indices);
  if (isFloat(i.dtype) || i.dtype === "bool")
    throw new PyError(
      "TypeError",
      `Value passed to parameter 'indices' has DataType ${i.dtype} not in list of allowed values: int16, int32, int64`,
    );
  if (batchDims !== 0) throw new UnsupportedError("tf.gather_nd with batch_dims");
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

export const TF = {
  constant: fn("tf.constant", (g, kw) => {
    const a = args(["value", "dtype=None"], g, kw, "constant");
    return tfConstant(a.value, dtypeArg(a.dtype, "tf"));
  }),
  convert_to_tensor: null,
  gather: fn("tf.gather", (g, kw) => {
    const a = args(
      ["params", "indices", "validate_indices=None", "axis=None", "batch_dims=0"],
      g,
      kw,
      "gather",
    );
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
    return joinTensors(
      sequenceItems(a.values, "concat").map((v) => tfTensorArg(v)),
      toInt(a.axis),
      false,
      "tf",
    );
  }),
  range: fn("tf.range", (g, kw) => {
    const a = args(["start", "limit=None", "delta=1", "dtype=None"], g, kw, "range");
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
      if (error instanceof PyError)
        throw new PyError(
          "InvalidArgumentError",
          `Input to reshape is a tensor with ${t.data.length} values, but the requested shape has ${prod(sizes)}`,
        );
      throw error;
    }
  }),
  expand_dims: fn("tf.expand_dims", (g, kw) => {
    const a = args(["input", "axis"], g, kw, "expand_dims");
    const t = tfTensorArg(a.input);
    try {
      return unsqueeze(t, toInt(a.axis));
    } catch (error) {
      if (error instanceof PyError)
        throw new PyError(
          "InvalidArgumentError",
          `Tried to expand dim index ${toInt(a.axis)} for tensor with ${t.shape.length} dimensions.`,
        );
      throw error;
    }
  }),
  broadcast_to: fn("tf.broadcast_to", (g, kw) => {
    const a = args(["input", "shape"], g, kw, "broadcast_to");
    const t = tfTensorArg(a.input);
    const sizes = sizesFrom([a.shape], "broadcast_to");
    if (sizes.includes(-1) || sizes.length < t.shape.length)
      throw new PyError(
        "InvalidArgumentError",
        `Unable to broadcast tensor of shape [${t.shape.join(",")}] to tensor of shape [${sizes.join(",")}]`,
      );
    try {
      return expand(t, sizes);
    } catch (error) {
      if (error instanceof PyError)
        throw new PyError(
          "InvalidArgumentError",
          `Incompatible shapes: [${t.shape.join(",")}] vs. [${sizes.join(",")}]`,
        );
      throw error;
    }
  }),
  tile: fn("tf.tile", (g, kw) => {
    const a = args(["input", "multiples"], g, kw, "tile");
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
    const a = args(["x", "dtype"], g, kw, "cast");
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
    const a = args(["input_tensor", "axis=None", "keepdims=False"], g, kw, "reduce_sum");
    return reduce(tfTensorArg(a.input_tensor), optionalInt(a.axis), a.keepdims.v, "sum");
  }),
  transpose: fn("tf.transpose", (g, kw) => {
    const a = args(["a", "perm=None"], g, kw, "transpose");
    const t = tfTensorArg(a.a);
    const perm =
      a.perm.t === "none"
        ? t.shape.map((_, d) => t.shape.length - 1 - d)
        : sizesFrom([a.perm], "transpose");
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
