// Python indexing of tensors, read and written, by torch's rules: x[index] (basic
// indexing a view, advanced indexing a copy) and x[index] = value.

import { isFloat } from "../explorers/core.mjs";
import { PyError, pyInt, UnsupportedError } from "./python.mjs";
import {
  assertNoInternalOverlap,
  assertNoPartialOverlap,
  asTensor,
  broadcastData,
  broadcastShapes,
  forEachCoord,
  fromSequence,
  layoutOf,
  list,
  offsetsOf,
  prod,
  strides,
  tensor,
  toInt,
  typeName,
  viewTensor,
  writeAt,
} from "./tensor.mjs";
import { expand, torchDtypeName, view } from "./torch.mjs";

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
export function locate(x, indexValue) {
  const items = indexValue.t === "tuple" ? indexValue.items.slice() : [indexValue];
  const parts = [];
  for (const item of items) {
    if (item.t === "ellipsis" || item.t === "none" || item.t === "slice") parts.push(item);
    else if (item.t === "int") parts.push(item);
    else if (item.t === "bool") throw new UnsupportedError("indexing with True or False");
    else if (item.t === "tensor") {
      if (isFloat(item.dtype))
        throw new PyError(
          "IndexError",
          "tensors used as indices must be long, int, byte or bool tensors",
        );
      // torch reads a 0-d integer tensor as an integer
      parts.push(item.shape.length === 0 && item.dtype !== "bool" ? pyInt(item.data[0]) : item);
    } else if (item.t === "list" || item.t === "tuple" || item.t === "range") {
      // torch reads a range index as the list of its ints
      const t = fromSequence(item.t === "range" ? list(item.items) : item, null, "torch");
      if (isFloat(t.dtype))
        throw new PyError(
          "IndexError",
          "tensors used as indices must be long, int, byte or bool tensors",
        );
      parts.push(t);
    } else
      throw new PyError(
        "IndexError",
        `only integers, slices (\`:\`), ellipsis (\`...\`), None and long or byte Variables are valid indices (got ${typeName(item)})`,
      );
  }
  const consumes = (p) =>
    p.t === "tensor"
      ? p.dtype === "bool"
        ? Math.max(p.shape.length, 0)
        : 1
      : p.t === "int" || p.t === "slice"
        ? 1
        : 0;
  const used = parts.reduce((n, p) => n + consumes(p), 0);
  const ellipses = parts.filter((p) => p.t === "ellipsis").length;
  let expanded = false; // a second ... is taken as an empty one
  if (used > x.shape.length)
    throw new PyError("IndexError", `too many indices for tensor of dimension ${x.shape.length}`);
  const full = [];
  for (const p of parts) {
    if (p.t === "ellipsis") {
      if (!expanded)
        for (let k = 0; k < x.shape.length - used; k++)
          full.push({ t: "slice", start: null, stop: null, step: null });
      expanded = true;
    } else if (p.t === "tensor" && p.dtype === "bool") {
      // a mask: its true coordinates, one int tensor per dim it covers
      if (p.shape.length === 0) {
        full.push({ t: "newmask", value: p.data[0] });
        continue;
      }
      const coordsList = p.shape.map(() => []);
      forEachCoord(p.shape, (at, flat) => {
        if (p.data[flat]) at.forEach((c, d) => coordsList[d].push(c));
      });
      p.shape.forEach((s, d) =>
        full.push({
          ...tensor([coordsList[d].length], coordsList[d], "int64"),
          mask: { size: s, first: d === 0, shape: p.shape },
        }),
      );
    } else full.push(p);
  }
  if (!ellipses)
    while (full.filter((p) => consumes(p) || p.mask).length < x.shape.length)
      full.push({ t: "slice", start: null, stop: null, step: null });
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
      if (p.v < -size || p.v >= size)
        throw new PyError(
          "IndexError",
          `index ${p.v} is out of bounds for dimension ${dim} with size ${size}`,
        );
      outDims.push({ kind: "fixed", position: p.v < 0 ? p.v + size : p.v, srcDim: dim });
      dim++;
    } else {
      const size = x.shape[dim];
      if (p.mask && p.mask.size !== size)
        // checked after the basic indices
        maskProblems.push(
          `The shape of the mask [${p.mask.shape.join(", ")}] at index ${dim} does not match the shape of the indexed tensor [${x.shape.join(", ")}] at index ${dim}`,
        );
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
      throw new PyError(
        "IndexError",
        `shape mismatch: indexing tensors could not be broadcast together with shapes ${advanced.map((b) => `[${b.t.shape.join(", ")}]`).join(", ")}`,
      );
    }
  }
  const advData = advanced.map((a) =>
    broadcastData(a.t, advShape).map((v) => (v < 0 ? v + x.shape[a.srcDim] : v)),
  );
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
  if (prod(shape) > 0)
    // otherwise torch checks positions only when it reads something
    for (const a of advanced) {
      const size = x.shape[a.srcDim];
      const bad = a.t.data.find((v) => v < -size || v >= size);
      if (bad !== undefined)
        throw new PyError(
          "IndexError",
          `index ${bad} is out of bounds for dimension ${a.srcDim} with size ${size}`,
        );
    }
  const st = strides(x.shape);
  const fixedBase = outDims
    .filter((o) => o.kind === "fixed")
    .reduce((n, o) => n + o.position * st[o.srcDim], 0);
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
export function basicLayout(x, index) {
  const items = index.t === "tuple" ? index.items : [index];
  const whole = (v) =>
    v.t === "int" ||
    (v.t === "tensor" && !v.shape.length && !isFloat(v.dtype) && v.dtype !== "bool");
  if (!items.every((v) => ["slice", "none", "ellipsis"].includes(v.t) || whole(v))) return null;
  const source = layoutOf(x);
  const used = items.filter((v) => v.t === "slice" || whole(v)).length;
  const steps = [];
  let offset = source.offset;
  let dim = 0;
  let expanded = false;
  for (const v of items) {
    if (v.t === "ellipsis") {
      if (!expanded)
        for (let k = 0; k < x.shape.length - used; k++) steps.push(source.strides[dim++]);
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

export function getItem(value, index) {
  if (value.t === "tensor") {
    if (value.lib === "tf" && holdsPositions(index)) {
      // TensorFlow's [] does no NumPy-style advanced indexing (implement.py's
      // noting_tf_subscripts): TensorFlow raises, in words that vary with the subscript
      const error = new PyError(
        "TypeError",
        "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar " +
          "tf.int32/tf.int64 tensors are valid indices",
      );
      error.tfSubscript = true;
      throw error;
    }
    if (value.lib === "tf" && containsTensor(index))
      throw new UnsupportedError("indexing a TensorFlow tensor with a tensor (use tf.gather)");
    const { shape, positions } = locate(value, index); // its checks, and the shape
    const layout = value.lib === "torch" ? basicLayout(value, index) : null;
    if (layout) return viewTensor(value, shape, layout);
    return tensor(
      shape,
      positions.map((p) => value.data[p]),
      value.dtype,
      value.lib,
    );
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

// a tensor of integer positions with at least one dim in the subscript
const holdsPositions = (index) =>
  index.t === "tuple"
    ? index.items.some(holdsPositions)
    : index.t === "tensor" &&
      index.shape.length > 0 &&
      !isFloat(index.dtype) &&
      index.dtype !== "bool";

const containsTensor = (index) =>
  index.t === "tuple"
    ? index.items.some(containsTensor)
    : index.t === "tensor" || index.t === "list";

// locate() for a write: an index of tensors only (and slices) that reaches past the
// end is found by index_put_'s kernel, after its checks of the values' dtype and shape,
// so its error (bounds) waits while the shape it selects is found with every position
// at 0; a basic index (an int) is checked first, as torch's select does.
export function locateForWrite(target, index) {
  try {
    return { ...locate(target, index), bounds: null };
  } catch (error) {
    const items = index.t === "tuple" ? index.items : [index];
    const tensors = items.filter((item) => item.t === "tensor" && item.shape.length);
    const advanced =
      tensors.length &&
      items.every((item) => ["tensor", "slice", "ellipsis", "none"].includes(item.t)) &&
      tensors.every((item) => !isFloat(item.dtype) && item.dtype !== "bool");
    if (!(error instanceof PyError) || error.type !== "IndexError" || !advanced) throw error;
    if (!/out of bounds/.test(error.message)) throw error;
    const zeros = (item) =>
      item.t === "tensor" && item.shape.length ? { ...item, data: item.data.map(() => 0) } : item;
    const atZero = index.t === "tuple" ? { ...index, items: index.items.map(zeros) } : zeros(index);
    return { ...locate(target, atZero), bounds: error };
  }
}

export function setItem(target, index, value) {
  if (target.t === "list") {
    const k = toInt(index, "list indices to be integers");
    const n = target.items.length;
    if (k < -n || k >= n) throw new PyError("IndexError", "list assignment index out of range");
    target.items[k < 0 ? k + n : k] = value;
    return;
  }
  if (target.t !== "tensor")
    throw new PyError("TypeError", `'${typeName(target)}' object does not support item assignment`);
  if (target.lib === "tf")
    throw new PyError(
      "TypeError",
      "'tensorflow.python.framework.ops.EagerTensor' object does not support item assignment",
    );
  const { shape, positions, bounds } = locateForWrite(target, index);
  // torch writes a basic index through its view (copy_, which checks the view), an
  // advanced one with index_put_ (which checks only the whole tensor against the value)
  const layout = layoutOf(target);
  const basic = basicLayout(target, index);
  let dtypeError = null;
  if (basic) {
    assertNoInternalOverlap(shape, basic);
    assertNoPartialOverlap(shape, basic, value);
  } else {
    assertNoPartialOverlap(target.shape, layout, value);
    // index_put_ takes a tensor of the target's own dtype only, except where one bool
    // mask picks the entries and one value fills them (torch's masked_fill_)
    const items = index.t === "tuple" ? index.items : [index];
    const advanced = items.filter(
      (item) =>
        item.t === "list" || (item.t === "tensor" && (item.shape.length || item.dtype === "bool")),
    );
    const mask =
      advanced.length === 1 &&
      advanced[0].t === "tensor" &&
      advanced[0].dtype === "bool" &&
      advanced[0].shape.length;
    // checked after the values' shape (below), as index_put_ checks them
    if (value.t === "tensor" && value.dtype !== target.dtype && !(mask && value.data.length === 1))
      dtypeError = new PyError(
        "RuntimeError",
        `Index put requires the source and destination dtypes match, got ${torchDtypeName(target.dtype)} for the destination and ${torchDtypeName(value.dtype)} for the source.`,
      );
  }
  const v = asTensor(value);
  if (v.shape.length > shape.length) {
    const extra = v.shape.slice(0, v.shape.length - shape.length);
    if (extra.some((s) => s !== 1))
      throw new PyError(
        "RuntimeError",
        `expand(torch.LongTensor{[${v.shape.join(", ")}]}, size=[${shape.join(", ")}]): the number of sizes provided (${shape.length}) must be greater or equal to the number of dimensions in the tensor (${v.shape.length})`,
      );
  }
  const trimmed =
    v.shape.length > shape.length ? view(v, v.shape.slice(v.shape.length - shape.length)) : v;
  let data;
  try {
    data = expand(trimmed, shape).data;
  } catch (error) {
    if (error instanceof PyError)
      throw new PyError(
        "RuntimeError",
        `shape mismatch: value tensor of shape [${v.shape.join(", ")}] cannot be broadcast to indexing result of shape [${shape.join(", ")}]`,
      );
    throw error;
  }
  if (dtypeError) throw dtypeError;
  if (bounds) throw bounds; // found by index_put_'s kernel, after the checks above
  const offsets = target.alias ? offsetsOf(target.shape, layout) : null;
  writeAt(
    layout.storage,
    offsets ? positions.map((p) => offsets[p]) : positions,
    data,
    target.dtype,
  );
}
