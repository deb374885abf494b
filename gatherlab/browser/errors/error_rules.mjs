// The error table: every error text of the gather and scatter families (PyTorch, its CUDA
// kernels and torch.compile, TensorFlow, NumPy, gatherlab's own guards) and of what the
// book teaches, as data. Each rule: the regular expressions that recognise its texts
// (named groups become fields), what it means and how to fix it as {field} templates
// (the first whose fields are all known is used), and the section that teaches it.
// gatherlab/error_rules.py reads this file (the object after `export default` is JSON,
// and must stay JSON) and explain.mjs beside it imports it: the "Explain my error" page and
// Python answer from the same table. Patterns use the syntax both languages share:
// named groups are written (?<name>...), Python reads them as (?P<name>...).
// Rules are tried in order: the first rule with a pattern that matches wins.
export default {
 "sections": {
  "rule": {
   "page": "notebooks/01_gather_2d",
   "title": "The rule"
  },
  "signature": {
   "page": "notebooks/01_gather_2d",
   "title": "The signature"
  },
  "negative-dim-01": {
   "page": "notebooks/01_gather_2d",
   "title": "A negative `dim`"
  },
  "index-shape": {
   "page": "notebooks/01_gather_2d",
   "title": "What shape the index may have"
  },
  "more-positions": {
   "page": "notebooks/01_gather_2d",
   "title": "More positions than the input has"
  },
  "expand": {
   "page": "notebooks/02_batched_selection",
   "title": "Why the feature axis must be expanded"
  },
  "expand-repeat": {
   "page": "notebooks/02_batched_selection",
   "title": "`expand` or `repeat`?"
  },
  "tf-ways": {
   "page": "notebooks/02_batched_selection",
   "title": "The same selection, other ways"
  },
  "index-select": {
   "page": "notebooks/03_choosing_an_op",
   "title": "One shared list of positions: `index_select`"
  },
  "take-along": {
   "page": "notebooks/03_choosing_an_op",
   "title": "`take_along_dim` vs `gather`: what it adds"
  },
  "take": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Flat positions: `take`"
  },
  "take-int64": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Flat positions need int64"
  },
  "deciding": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Choosing in one table"
  },
  "compiled": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Compiled code and translations"
  },
  "masks": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Boolean masks"
  },
  "embedding": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Embedding lookup"
  },
  "one-hot-product": {
   "page": "notebooks/03_choosing_an_op",
   "title": "Gather as a one-hot product"
  },
  "float": {
   "page": "notebooks/04_error_cases",
   "title": "A floating-point index"
  },
  "missing-axis": {
   "page": "notebooks/04_error_cases",
   "title": "A missing index axis"
  },
  "negative": {
   "page": "notebooks/04_error_cases",
   "title": "A negative position"
  },
  "past-end": {
   "page": "notebooks/04_error_cases",
   "title": "A position past the last column: index out of bounds"
  },
  "too-many-rows": {
   "page": "notebooks/04_error_cases",
   "title": "Too many index rows"
  },
  "negative-dim": {
   "page": "notebooks/04_error_cases",
   "title": "A negative dim is not a negative position"
  },
  "empty-index": {
   "page": "notebooks/04_error_cases",
   "title": "The empty index skips the checks on the index"
  },
  "value-asserts": {
   "page": "notebooks/04_error_cases",
   "title": "Value asserts: the cheapest guard"
  },
  "tf-errors": {
   "page": "notebooks/04_error_cases",
   "title": "TensorFlow: an error, a clamp or a zero"
  },
  "cuda": {
   "page": "notebooks/04_error_cases",
   "title": "CUDA: a device-side assert, reported late"
  },
  "checklist": {
   "page": "notebooks/04_error_cases",
   "title": "A checklist"
  },
  "guard": {
   "page": "notebooks/04_error_cases",
   "title": "A guard"
  },
  "sparse": {
   "page": "notebooks/05_autograd",
   "title": "Sparse gradients: `sparse_grad=True`"
  },
  "index-no-grad": {
   "page": "notebooks/05_autograd",
   "title": "The index has no gradient"
  },
  "recording": {
   "page": "notebooks/05_autograd",
   "title": "Recording gradients is a separate decision"
  },
  "by-hand": {
   "page": "notebooks/05_autograd",
   "title": "Updating parameters by hand"
  },
  "scatter-shapes": {
   "page": "notebooks/06_writing_by_index",
   "title": "How the shapes relate"
  },
  "reductions": {
   "page": "notebooks/06_writing_by_index",
   "title": "Reductions: `scatter_reduce_` and `include_self`"
  },
  "scatter-tf": {
   "page": "notebooks/06_writing_by_index",
   "title": "The family, measured"
  },
  "autograd-refuses": {
   "page": "notebooks/06_writing_by_index",
   "title": "What autograd refuses"
  },
  "loud": {
   "page": "notebooks/06_writing_by_index",
   "title": "Loud: the rules each op checks"
  },
  "one-hot": {
   "page": "notebooks/06_writing_by_index",
   "title": "One-hot targets"
  },
  "segment": {
   "page": "notebooks/06_writing_by_index",
   "title": "Segment means and counts"
  }
 },
 "tf_ops": {
  "GatherV2": "tf.gather",
  "GatherNd": "tf.gather_nd",
  "ResourceGather": "tf.gather",
  "TensorScatterUpdate": "tf.tensor_scatter_nd_update",
  "TensorScatterAdd": "tf.tensor_scatter_nd_add",
  "TensorScatterSub": "tf.tensor_scatter_nd_sub",
  "TensorScatterMin": "tf.tensor_scatter_nd_min",
  "TensorScatterMax": "tf.tensor_scatter_nd_max",
  "ScatterNd": "tf.scatter_nd",
  "UnsortedSegmentSum": "tf.math.unsorted_segment_sum",
  "UnsortedSegmentMax": "tf.math.unsorted_segment_max",
  "UnsortedSegmentMin": "tf.math.unsorted_segment_min",
  "UnsortedSegmentProd": "tf.math.unsorted_segment_prod",
  "Pack": "tf.stack",
  "SegmentSum": "tf.math.segment_sum",
  "SegmentMean": "tf.math.segment_mean",
  "SegmentMax": "tf.math.segment_max",
  "SegmentMin": "tf.math.segment_min",
  "SegmentProd": "tf.math.segment_prod"
 },
 "ops": {
  "gather": {
   "args": "dim, index"
  },
  "take_along_dim": {
   "args": "indices, dim"
  },
  "index_select": {
   "args": "dim, index"
  },
  "take": {
   "args": "index"
  },
  "scatter": {
   "args": "dim, index, src"
  },
  "scatter_add": {
   "args": "dim, index, src",
   "source": "tensor_src"
  },
  "scatter_reduce": {
   "args": "dim, index, src, reduce, include_self=True",
   "source": "tensor_src"
  },
  "index_add": {
   "args": "dim, index, source, alpha=1",
   "source": "slices"
  },
  "index_copy": {
   "args": "dim, index, source",
   "source": "slices"
  },
  "index_fill": {
   "args": "dim, index, value"
  },
  "index_put": {
   "args": "indices, values, accumulate=False",
   "source": "values"
  },
  "put": {
   "args": "index, source, accumulate=False",
   "source": "flat"
  },
  "masked_scatter": {
   "args": "mask, source"
  },
  "masked_fill": {
   "args": "mask, value"
  }
 },
 "foreign_keywords": {
  "dim_size": "torch_scatter's; torch's write keeps the shape of the tensor it is called on",
  "batch_dims": "TensorFlow's tf.gather (torch's gather pairs the index with the input row by row already)",
  "out_size": "torch_scatter's; torch's write keeps the shape of the tensor it is called on"
 },
 "foreign_keywords_tf": {
  "dim": "torch's (TensorFlow's ops call it axis)",
  "index": "torch's (TensorFlow's ops call it indices)",
  "src": "torch's (TensorFlow's scatters call it updates)"
 },
 "rules": [
  {
   "id": "cuda-device-assert",
   "checks": "index-out-of-range",
   "title": "A position outside its dim, found by a GPU kernel",
   "patterns": [
    {
     "library": "cuda",
     "re": "Assertion `(?<condition>[^`]*)` failed"
    },
    {
     "library": "cuda",
     "re": "(?<kernel>\\w+\\.cu):\\d+: [^\\n]*block: \\["
    },
    {
     "library": "cuda",
     "re": "device-side assert triggered"
    },
    {
     "library": "cuda",
     "re": "CUDA error: an illegal memory access was encountered"
    }
   ],
   "meaning": [
    "A CUDA kernel checked a position (its assertion reads {condition}) and it lay outside the valid range. The launch was asynchronous, so the Python line in the traceback may be a later one, and the CUDA context is now unusable: every later CUDA call fails the same way until the process restarts.",
    "A CUDA kernel found a position outside the valid range of its dim (a device-side assert). The launch was asynchronous, so the Python line in the traceback may be a later one, and the CUDA context is now unusable until the process restarts."
   ],
   "fix": [
    "Restart the process. Run the same call on the CPU (x.cpu(), index.cpu()) to get the readable message naming the position, or set CUDA_LAUNCH_BLOCKING=1 to raise at the guilty call; then check positions before the call (0 <= index < x.size(dim))."
   ],
   "section": [
    {
     "needs": [],
     "id": "cuda"
    }
   ],
   "keywords": [
    "cuda",
    "device",
    "assert",
    "assertion",
    "kernel",
    "triggered",
    "asynchronously",
    "launch",
    "blocking",
    "illegal",
    "memory"
   ]
  },
  {
   "id": "position-out-of-range",
   "checks": "index-out-of-range",
   "title": "Every position must lie in 0..size-1 of the dim it reads or writes",
   "patterns": [
    {
     "library": "torch",
     "re": "(?:(?<op>\\w+)\\(\\): )?index (?<value>-?\\d+) is out of bounds for dimension (?<dim>-?\\d+) with size (?<size>\\d+)"
    },
    {
     "library": "torch",
     "re": "INDICES element is out of DATA bounds, id=(?<value>-?\\d+) axis_dim=(?<size>\\d+)",
     "fields": {
      "op": "index_select"
     }
    },
    {
     "library": "numpy",
     "re": "index (?<value>-?\\d+) is out of bounds for axis (?<dim>-?\\d+) with size (?<size>\\d+)"
    },
    {
     "library": "torch",
     "re": "index out of range in self"
    },
    {
     "library": "gatherlab",
     "re": "index\\[(?<entry>[\\d, ]+)\\] = (?<value>-?\\d+) is outside 0\\.\\.(?<high>-?\\d+)"
    }
   ],
   "meaning": [
    {
     "needs": [
      "past_end",
      "stacked_pairs"
     ],
     "text": "Position {value} is past the end of dim 0 (size {size}): one index tensor, of shape {index_shape}, indexes dim 0 only, so every number in it, row and column alike, is read as a row: no tensor's last dim is split into coordinates."
    },
    {
     "needs": [
      "past_end",
      "fits_other"
     ],
     "text": "Position {value} is past the end of dim {dim} (size {size}) but fits {fits_other}: if your index tensors hold (row, column) pairs, check their order (x[i, j] reads dim 0 at i, dim 1 at j)."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "Position {value} is negative, and {op} does not wrap negative positions: along dim {dim} (size {size}) the valid positions are 0..{high}."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "Position {value} is negative, and this op does not wrap negative positions: along dim {dim} (size {size}) the valid positions are 0..{high}."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "Position {value} is negative, and this op does not wrap negative positions: the dim has size {size}, so the valid positions are 0..{high}."
    },
    {
     "needs": [
      "past_end"
     ],
     "text": "Position {value} is past the end: dim {dim} has size {size}, so the last valid position is {high} (positions count from 0)."
    },
    {
     "needs": [
      "past_end"
     ],
     "text": "Position {value} is past the end: the dim has size {size}, so the last valid position is {high} (positions count from 0)."
    },
    "Position {value} is outside 0..{high}.",
    {
     "needs": [
      "along_size",
      "op",
      "op_is_scatter"
     ],
     "text": "A position in the index is outside 0..{along_high}: {op} writes into a tensor whose dim {dim} has size {along_size}, and each position (a class or segment id) needs its own slot there."
    },
    {
     "needs": [
      "along_size",
      "op"
     ],
     "text": "A position in the index is outside 0..{along_high}: dim {dim} of the input {input_shape} has size {along_size}, and {op} does not wrap negative positions."
    },
    "A position in the index is outside the dim it selects along (this message names neither the position nor the size)."
   ],
   "fix": [
    {
     "needs": [
      "past_end",
      "stacked_pairs"
     ],
     "text": "Give each dim its own index tensor: split the coordinates, x[pairs[..., 0], pairs[..., 1]] for (row, column) pairs (x[tuple(pairs.unbind(-1))] for any number of dims)."
    },
    {
     "needs": [
      "past_end",
      "fits_other"
     ],
     "text": "Put each index tensor at the dim it counts along: swap them if {value} was meant along {fits_other}; otherwise find where {value} was made and fix it there."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "If {value} meant the last entries as in Python, write {python_fix} (size + position), or wrap all positions with index % {size}; if it is a padding or missing label, mask those entries out before the call."
    },
    "Find where {value} was made (an off-by-one, a 1-based count, a size taken from another tensor, another batch's positions) and fix it there; clamping or wrapping it would turn a loud bug into a silent one. Check before the call: (index < {size}).all().",
    {
     "needs": [
      "along_size",
      "op_is_scatter"
     ],
     "text": "Make the tensor written as large as the number of possible ids (torch.zeros(count, ...)), not the number present, or fix the ids; check ((index >= 0) & (index < {along_size})).all()."
    },
    {
     "needs": [
      "along_size"
     ],
     "text": "Check the positions before the call: ((index >= 0) & (index < {along_size})).all(); find the first bad one with torch.nonzero((index < 0) | (index >= {along_size}))."
    },
    "Check the positions before the call: (index >= 0).all() and (index < x.size(dim)).all(); find the first bad one with torch.nonzero(index >= x.size(dim))."
   ],
   "section": [
    {
     "needs": [
      "negative"
     ],
     "id": "negative"
    },
    {
     "needs": [],
     "id": "past-end"
    }
   ],
   "keywords": [
    "index",
    "out",
    "bounds",
    "dimension",
    "size",
    "range",
    "indices",
    "element",
    "data",
    "axis_dim",
    "outside",
    "self"
   ]
  },
  {
   "id": "flat-position-out-of-range",
   "checks": "index-out-of-range",
   "title": "A flat position must lie in -numel..numel-1",
   "patterns": [
    {
     "library": "torch",
     "re": "out of range: tried to access index (?<value>-?\\d+) on a tensor of (?<size>\\d+) elements"
    },
    {
     "library": "numpy",
     "re": "index (?<value>-?\\d+) is out of bounds for axis 0 with size (?<size>\\d+)",
     "fields": {
      "op": "np.take"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "op"
     ],
     "text": "Flat position {value} is outside the {size} elements of the input, read in row-major order: {op} accepts -{size}..{high}."
    },
    "Flat position {value} is outside the {size} elements of the input, read in row-major order: take and put_ accept -{size}..{high}."
   ],
   "fix": [
    {
     "needs": [
      "op_is_take"
     ],
     "text": "Turn (row, column) pairs into flat positions with row * x.size(1) + column, and check 0 <= position < {size}; for per-row positions use gather or take_along_dim instead of take."
    },
    "Turn (row, column) pairs into flat positions with row * x.size(1) + column, and check 0 <= position < {size}."
   ],
   "section": [
    {
     "needs": [],
     "id": "take"
    }
   ],
   "keywords": [
    "tried",
    "access",
    "elements",
    "range",
    "take",
    "flat"
   ]
  },
  {
   "id": "compiled-position-out-of-range",
   "checks": "index-out-of-range",
   "title": "A position outside its dim, found by compiled code",
   "patterns": [
    {
     "library": "torch",
     "re": "index out of bounds: 0 <= (?<temp>tmp\\d+) < (?<size>\\d+)L?"
    }
   ],
   "meaning": [
    "Code generated by torch.compile (inductor) checked a position against the size {size} of the dim it reads and found it outside 0..{high}. The name {temp} is the kernel's temporary, not yours; the eager call would name the position."
   ],
   "fix": [
    "Run the same call without torch.compile to see which position is bad, then keep positions within 0..{high} (compiled code can behave differently from eager code on bad positions: check them before the call)."
   ],
   "section": [
    {
     "needs": [],
     "id": "compiled"
    }
   ],
   "keywords": [
    "inductor",
    "compile",
    "tmp",
    "bounds",
    "compiled"
   ]
  },
  {
   "id": "tf-position-out-of-range",
   "checks": "index-out-of-range",
   "title": "tf.gather: every position must lie in [0, size) of the axis",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "indices\\[(?<entry>[\\d,]+)\\] = (?<value>-?\\d+) is not in \\[0, (?<size>\\d+)\\)",
     "fields": {
      "op": "tf.gather"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "flat_fits"
     ],
     "text": "tf.gather reads axis 0 of params as it is (size {size}) unless axis= names another: indices[{entry}] = {value} is past its end, but fits params {params_shape} flattened over its first two axes (row * {row_size} + position)."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "Entry indices[{entry}] = {value} is negative; TensorFlow's gather does not wrap negative positions: the axis has size {size}, so valid positions are 0..{high}."
    },
    "Entry indices[{entry}] = {value} is past the end of an axis of size {size} (valid positions 0..{high}). On a GPU TensorFlow returns 0 for it instead of raising, and under XLA it clamps it."
   ],
   "fix": [
    {
     "needs": [
      "flat_fits"
     ],
     "text": "Flat positions read only a reshaped params, tf.gather(tf.reshape(params, [-1, ...]), flat), whose first axis has {flat_size} entries; to pick positions within each row without flattening, tf.gather(params, positions, axis=1, batch_dims=1)."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "If {value} meant the last entries as in Python, add the axis size ({size}) to the negative positions; if it marks padding or a missing label, mask those entries out before the call. Clamping it would turn a loud bug into a silent one."
    },
    "Find where {value} was made and fix it there: an off-by-one, a 1-based count, a size taken from another tensor, or flat positions counted over several axes, which read a tensor reshaped to one axis there (tf.reshape(params, [-1, ...])). Clamping it would turn a loud bug into a silent one; tf.debugging.assert_less(indices, {size}) before the call raises on a GPU too."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-errors"
    }
   ],
   "keywords": [
    "indices",
    "not",
    "tensorflow",
    "gatherv2",
    "invalidargumenterror"
   ]
  },
  {
   "id": "tf-coordinates-out-of-range",
   "checks": "index-out-of-range",
   "title": "gather_nd and tensor_scatter_nd: every coordinate must lie inside the shape",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "indices\\[(?<entry>[\\d,]+)\\] = \\[(?<coordinates>[-\\d, ]+)\\] does not index into param shape \\[(?<input_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.gather_nd"
     }
    },
    {
     "library": "tensorflow",
     "re": "indices\\[(?<entry>[\\d,]+)\\] = \\[(?<coordinates>[-\\d, ]+)\\] does not index into shape \\[(?<input_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.tensor_scatter_nd_update"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "reversed"
     ],
     "text": "Row indices[{entry}] = [{coordinates}] is outside shape {input_shape}, but reversed, [{reversed}], it fits: each row of indices is one coordinate in axis order (row, column), not (x, y)."
    },
    "Row indices[{entry}] = [{coordinates}] is one coordinate per axis, and one of them is negative or not smaller than the size of its axis in shape {input_shape}. TensorFlow never wraps negative coordinates; on a GPU a bad coordinate reads 0 (gather_nd) or is skipped (scatter) instead of raising."
   ],
   "fix": [
    {
     "needs": [
      "reversed"
     ],
     "text": "Stack the coordinates in axis order, tf.stack([rows, cols], axis=-1), or reverse the last axis of indices: indices[..., ::-1]."
    },
    "Make every coordinate c along axis a satisfy 0 <= c < shape[a]; build the pairs with tf.stack([rows, cols], axis=-1) from positions you have checked."
   ],
   "section": [
    {
     "needs": [
      "op_is_scatter"
     ],
     "id": "scatter-tf"
    },
    {
     "needs": [],
     "id": "tf-errors"
    }
   ],
   "keywords": [
    "indices",
    "param",
    "shape",
    "index",
    "into",
    "does",
    "gathernd",
    "tensorscatterupdate"
   ]
  },
  {
   "id": "tf-segment-out-of-range",
   "checks": "index-out-of-range",
   "title": "unsorted_segment_*: every segment id must lie in [0, num_segments)",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "segment_ids\\[(?<entry>\\d+)\\] = (?<value>-?\\d+) is out of range \\[0, (?<size>\\d+)\\)",
     "fields": {
      "op": "tf.math.unsorted_segment_sum"
     }
    }
   ],
   "meaning": [
    "segment_ids[{entry}] = {value} is not smaller than num_segments = {size} (negative ids are dropped silently, too-large ones raise)."
   ],
   "fix": [
    "Pass num_segments as the number of segments there can be (every id must be smaller), not tf.reduce_max(segment_ids) + 1, which drops empty segments at the end; or fix the ids to lie in 0..{high}."
   ],
   "section": [
    {
     "needs": [],
     "id": "segment"
    }
   ],
   "keywords": [
    "segment_ids",
    "segment",
    "range",
    "unsortedsegmentsum"
   ]
  },
  {
   "id": "tf-axis-not-scalar",
   "checks": null,
   "title": "tf.gather: axis is one integer",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "axis must be scalar",
     "fields": {
      "op": "tf.gather"
     }
    }
   ],
   "meaning": [
    "tf.gather takes one axis, an integer: a list, tuple or tensor of axes is refused. It reads whole slices of params along that one axis; it does not read a (batch, position) pair per index entry."
   ],
   "fix": [
    "To pick positions within each row of a batch, pass the one axis and the shared batch dim: tf.gather(params, positions, axis=1, batch_dims=1). To read coordinate pairs, stack them on the last axis of the index and use tf.gather_nd(params, tf.stack([rows, positions], axis=-1))."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "axis",
    "must",
    "scalar",
    "gatherv2"
   ]
  },
  {
   "id": "tf-stack-shapes",
   "checks": null,
   "title": "tf.stack: every part has one shape",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "Shapes of all inputs must match: values\\[(?<first>\\d+)\\]\\.shape = \\[(?<first_shape>[\\d, ]*)\\] != values\\[(?<second>\\d+)\\]\\.shape = \\[(?<second_shape>[\\d, ]*)\\]",
     "fields": {
      "op": "tf.stack"
     }
    }
   ],
   "meaning": [
    "tf.stack joins tensors of one shape along a new axis, and never broadcasts: part {first} has shape {first_shape}, part {second} {second_shape}."
   ],
   "fix": [
    "Give every part the shape of the positions first: rows = tf.broadcast_to(tf.range(batch)[:, None], tf.shape(positions)), then tf.stack([rows, positions], axis=-1)."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "shapes",
    "inputs",
    "match",
    "values",
    "pack",
    "stack"
   ]
  },
  {
   "id": "tf-segment-unsorted",
   "checks": null,
   "title": "tf.math.segment_*: segment ids must be sorted",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "segment ids are not increasing"
    },
    {
     "library": "tensorflow",
     "re": "segment ids must be >= 0",
     "fields": {
      "negative": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "Segment id (?<value>-?\\d+) out of range \\[0, (?<size>\\d+)\\), possibly because 'segment_ids' input is not sorted"
    }
   ],
   "meaning": [
    {
     "needs": [
      "negative"
     ],
     "text": "{op} needs segment ids that are sorted and never negative: 0, 0, 1, 2, ...; a negative id is refused (the unsorted_segment_* ops drop it instead). It sizes its output by the largest id + 1."
    },
    {
     "needs": [
      "negative"
     ],
     "text": "A sorted segment op (tf.math.segment_sum, _mean, _max, _min, _prod) needs segment ids that are sorted and never negative: 0, 0, 1, 2, ...; a negative id is refused (the unsorted_segment_* ops drop it instead). It sizes its output by the largest id + 1."
    },
    "{op} needs its segment ids sorted, never going down (0, 0, 1, 2, ...): here an id is smaller than the one before it. It also sizes its output by the largest id + 1, not by a count you pass.",
    "A sorted segment op (tf.math.segment_sum, _mean, _max, _min, _prod) needs its segment ids sorted, never going down (0, 0, 1, 2, ...): here an id is smaller than the one before it. It also sizes its output by the largest id + 1, not by a count you pass."
   ],
   "fix": [
    {
     "needs": [
      "unsorted"
     ],
     "text": "For ids in any order and an output of a fixed number of segments, use the unsorted variant, which takes that number: {unsorted}(data, segment_ids, num_segments)."
    },
    "For ids in any order and an output of a fixed number of segments, use the unsorted variant, which takes that number: tf.math.unsorted_segment_sum(data, segment_ids, num_segments) (and _mean, _max, _min, _prod)."
   ],
   "section": [
    {
     "needs": [],
     "id": "segment"
    }
   ],
   "keywords": [
    "segment",
    "ids",
    "increasing",
    "sorted",
    "segment_ids",
    "segmentsum",
    "segmentmean"
   ]
  },
  {
   "id": "keras-segment-sorted-count",
   "checks": null,
   "title": "keras.ops.segment_*: sorted=True takes no num_segments on TensorFlow",
   "patterns": [
    {
     "library": "keras",
     "re": "Argument `num_segments` cannot be set when sorted is True when using the tensorflow backend"
    }
   ],
   "meaning": [
    "keras.ops.segment_sum and segment_max with sorted=True call TensorFlow's sorted segment op (tf.math.segment_sum, segment_max), which takes no count: its output ends at the largest id + 1, so num_segments is refused there."
   ],
   "fix": [
    "Leave sorted=False (the default) and pass num_segments: the unsorted op takes the count, an empty segment included, and ids in any order."
   ],
   "section": [
    {
     "needs": [],
     "id": "segment"
    }
   ],
   "keywords": [
    "num_segments",
    "sorted",
    "backend",
    "segment"
   ]
  },
  {
   "id": "keras-take-along-axis-flat",
   "checks": null,
   "title": "keras.ops.take_along_axis without axis reads the input flattened",
   "patterns": [
    {
     "library": "keras",
     "re": "`indices` must be 1D if axis=None"
    }
   ],
   "meaning": [
    "take_along_axis with axis=None (Keras's default) reads the input flattened, so its indices must be 1-D flat positions; per-row positions need the axis they count along."
   ],
   "fix": [
    "Pass the axis the positions count along, e.g. keras.ops.take_along_axis(x, index, axis=1), with an index of the input's rank."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "indices",
    "axis",
    "take_along_axis",
    "flattened"
   ]
  },
  {
   "id": "numpy-take-along-axis-flat",
   "checks": null,
   "title": "np.take_along_axis with axis=None reads the array flattened",
   "patterns": [
    {
     "library": "numpy",
     "re": "when axis=None, `indices` must have a single dimension"
    }
   ],
   "meaning": [
    "np.take_along_axis with axis=None reads the array flattened, so its indices must be 1-D flat positions; per-row positions need the axis they count along."
   ],
   "fix": [
    "Pass the axis the positions count along, e.g. np.take_along_axis(x, index, axis=1) (its default, axis=-1, is the last), with an index of the array's rank."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "indices",
    "axis",
    "take_along_axis",
    "flattened",
    "numpy"
   ]
  },
  {
   "id": "tf-segment-size",
   "checks": null,
   "title": "tf.math.segment_*: one segment id per row of data",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "segment_ids should be the same size as dimension 0 of input"
    }
   ],
   "meaning": [
    "{op} takes one segment id per entry along the first dim of data: segment_ids must have as many entries as data has rows.",
    "A segment op takes one segment id per entry along the first dim of data: segment_ids must have as many entries as data has rows."
   ],
   "fix": [
    "Pass one id for each row of data (segment_ids of shape (data.shape[0],)); to sum along another axis, move that axis first (tf.transpose)."
   ],
   "section": [
    {
     "needs": [],
     "id": "segment"
    }
   ],
   "keywords": [
    "segment_ids",
    "same",
    "size",
    "dimension",
    "segment"
   ]
  },
  {
   "id": "one-hot-class-range",
   "checks": "index-out-of-range",
   "title": "one_hot: every class must lie in 0..num_classes-1",
   "patterns": [
    {
     "library": "torch",
     "re": "Class values must be smaller than num_classes",
     "fields": {
      "which": "not smaller than num_classes",
      "op": "one_hot"
     }
    },
    {
     "library": "torch",
     "re": "Class values must be non-negative",
     "fields": {
      "which": "negative",
      "op": "one_hot"
     }
    }
   ],
   "meaning": [
    "one_hot found a label that is {which}: each label is a position along the new class axis, so it must lie in 0..num_classes-1."
   ],
   "fix": [
    "Pass num_classes greater than the largest label, or fix the labels (an ignore label such as -1 or -100 must be masked out first)."
   ],
   "section": [
    {
     "needs": [],
     "id": "one-hot"
    }
   ],
   "keywords": [
    "class",
    "values",
    "num_classes",
    "one_hot",
    "smaller"
   ]
  },
  {
   "id": "count-dtype",
   "checks": null,
   "title": "bincount counts integer ids; histc bins floating-point values",
   "patterns": [
    {
     "library": "torch",
     "re": "\"bincount_cpu\" not implemented for '(?<dtype>\\w+)'",
     "fields": {
      "op": "torch.bincount",
      "rule": "it counts integer ids, each value a slot number (0 or more)",
      "remedy": "Pass the ids as integers, torch.bincount(ids.long(), minlength=count), and the values to sum as weights="
     }
    },
    {
     "library": "torch",
     "re": "\"histogram_cpu\" not implemented for '(?<dtype>\\w+)'",
     "fields": {
      "op": "torch.histc",
      "rule": "it bins floating-point values only",
      "remedy": "Count integer ids with torch.bincount(ids, minlength=count); torch.histc would need float ids and min=0, max=count"
     }
    },
    {
     "library": "torch",
     "re": "bincount only supports 1-d non-negative integral inputs",
     "fields": {
      "op": "torch.bincount",
      "refused": "a negative id (an ignore label such as -1) or ids of 2 dims or more",
      "remedy": "Flatten the ids (ids.reshape(-1)) and mask out negative ones before counting, with minlength=count"
     }
    }
   ],
   "meaning": [
    "{op} has no kernel for {dtype} values: {rule}.",
    "{op} counts the ids of a 1-D tensor of integers 0 or more, each a slot number: it refuses {refused}."
   ],
   "fix": [
    "{remedy}."
   ],
   "section": [
    {
     "needs": [],
     "id": "segment"
    }
   ],
   "keywords": [
    "bincount_cpu",
    "histogram_cpu",
    "implemented",
    "bincount",
    "histc"
   ]
  },
  {
   "id": "index-dtype",
   "checks": "index-dtype",
   "title": "Positions must be integers of an accepted dtype (int64, and int32 where the op allows it)",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>[\\w.]+)\\(\\): Expected dtype (?<allowed>int32/int64|int64|int32 or int64) for index(?: but got: (?<dtype>\\w+))?"
    },
    {
     "library": "torch",
     "re": "(?<op>[\\w.]+)\\(\\): Expected a long tensor for index, but got (?<dtype>\\w+)"
    },
    {
     "library": "torch",
     "re": "(?<op>torch\\.take_along_dim)\\(\\): dtype of indices should be Long but got (?<dtype>\\w+)"
    },
    {
     "library": "torch",
     "re": "Expected tensor for argument #1 'indices' to have one of the following scalar types: (?<allowed>[\\w, ]+); but got (?<dtype>[\\w.]+) instead \\(while checking arguments for (?<op>\\w+)\\)"
    },
    {
     "library": "torch",
     "re": "tensors used as indices must be long, int, byte or bool tensors",
     "fields": {
      "op": "x[index]",
      "subscript": "yes"
     }
    },
    {
     "library": "torch",
     "re": "one_hot is only applicable to index tensor of type LongTensor",
     "fields": {
      "op": "one_hot"
     }
    },
    {
     "library": "numpy",
     "re": "`indices` must be an integer array",
     "fields": {
      "numpy": "yes"
     }
    },
    {
     "library": "numpy",
     "re": "arrays used as indices must be of integer \\(or boolean\\) type",
     "fields": {
      "numpy": "yes"
     }
    },
    {
     "library": "numpy",
     "re": "Cannot cast array data from dtype\\('(?<dtype>\\w+)'\\) to dtype\\('int64'\\)",
     "fields": {
      "numpy": "yes"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "subscript"
     ],
     "text": "A subscript takes positions as int64 or int32 tensors (a bool or uint8 tensor is read as a mask): floats and other integer dtypes, such as int16, are refused, and `//`, floor(), ceil() and round() on a float tensor keep its float dtype."
    },
    {
     "needs": [
      "dtype_is_float"
     ],
     "text": "The positions have dtype {dtype}, but {op} takes them as {allowed}: a float index is refused even when its values are whole, and `//`, floor(), ceil() and round() on a float tensor keep its float dtype."
    },
    "The positions have dtype {dtype}, but {op} takes them as {allowed}. Positions are whole numbers: a float index (from a division, a mean, or torch.tensor of floats) or a bool mask is refused, and int32 is accepted only by some ops in some releases.",
    {
     "needs": [
      "dtype_is_float"
     ],
     "text": "The positions have dtype {dtype}, but {op} wants int64 (a long tensor): a float index is refused even when its values are whole, and `//`, floor(), ceil() and round() on a float tensor keep its float dtype."
    },
    "The positions have dtype {dtype}, but {op} wants int64 (a long tensor). Positions are whole numbers: a float index or a bool mask is refused, and int32 is accepted only by some ops in some releases.",
    "The positions have the wrong dtype for {op}: it takes {allowed}. A float index (from a division or a mean) or a bool mask is refused.",
    "The positions have the wrong dtype: positions must be whole numbers (int64, and int32 where the op allows it), never floats or bools."
   ],
   "fix": [
    {
     "needs": [
      "numpy"
     ],
     "text": "Convert with index.astype(np.int64) (NumPy's int64). If the positions came from a division, use // (floor division) on integers rather than / and a cast; a bool mask selects with x[mask], not through an index op."
    },
    "Convert with index.long() (torch.int64). If the positions came from a division, use // (floor division) on integers rather than / and a cast; a bool mask selects with x[mask], not through an index op."
   ],
   "section": [
    {
     "needs": [
      "dtype_is_float"
     ],
     "id": "float"
    },
    {
     "needs": [
      "op_is_take"
     ],
     "id": "take-int64"
    },
    {
     "needs": [],
     "id": "float"
    }
   ],
   "keywords": [
    "dtype",
    "long",
    "int64",
    "int32",
    "expected",
    "float",
    "tensor",
    "scalar",
    "types",
    "integer",
    "byte",
    "bool"
   ]
  },
  {
   "id": "tf-index-dtype",
   "checks": "index-dtype",
   "title": "TensorFlow takes positions as int32 or int64 (int16 for some ops)",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "Value for attr '(?<attr>Tindices|out_type|TI)' of (?<dtype>\\w+) is not in the list of allowed values: (?<allowed>[\\w, ]+?)(?:\\s*;|\\s*$|\\s+\\[|\\n)"
    }
   ],
   "meaning": [
    {
     "needs": [
      "dtype_is_float"
     ],
     "text": "The indices have dtype {dtype}; this TensorFlow op accepts {allowed}. tf.math.floor, tf.math.ceil, tf.round and // on a float tensor keep its float dtype."
    },
    "The indices have dtype {dtype}; this TensorFlow op accepts {allowed}."
   ],
   "fix": [
    "Cast with tf.cast(indices, tf.int64) (or tf.int32); positions from a division need tf.math.floordiv on integers."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "attr",
    "tindices",
    "out_type",
    "allowed",
    "values",
    "list"
   ]
  },
  {
   "id": "tf-arithmetic-dtypes",
   "checks": null,
   "title": "TensorFlow's arithmetic converts no dtype: both sides must have one",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "`x` and `y` must have the same dtype, got tf\\.(?<x>\\w+) != tf\\.(?<y>u?int\\d+)",
     "fields": {
      "counts": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "`x` and `y` must have the same dtype, got tf\\.(?<x>\\w+) != tf\\.(?<y>\\w+)"
    },
    {
     "library": "tensorflow",
     "re": "cannot compute (?<tf_op>AddV2|Sub|Mul|RealDiv|Div|DivNoNan|FloorDiv|Maximum|Minimum|Pow) as input #(?<input>\\d+)\\(zero-based\\) was expected to be a (?<x>\\w+) tensor but is a (?<y>u?int\\d+) tensor",
     "fields": {
      "counts": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "cannot compute (?<tf_op>AddV2|Sub|Mul|RealDiv|Div|DivNoNan|FloorDiv|Maximum|Minimum|Pow) as input #(?<input>\\d+)\\(zero-based\\) was expected to be a (?<x>\\w+) tensor but is a (?<y>\\w+) tensor"
    }
   ],
   "meaning": [
    {
     "needs": [
      "counts"
     ],
     "text": "TensorFlow's arithmetic (/, +, *, tf.maximum, tf.math.divide_no_nan) converts no dtype, where NumPy and torch would promote: its two sides must have one dtype, and here one is {x}, the other {y}. Counts are ints: tf.math.bincount counts in int32 unless given a dtype, tf.size and tf.shape give int32, tf.ones_like(ids) takes the ids' dtype."
    },
    "TensorFlow's arithmetic (/, +, *, tf.maximum, tf.math.divide_no_nan) converts no dtype, where NumPy and torch would promote: its two sides must have one dtype, and here one is {x}, the other {y}."
   ],
   "fix": [
    {
     "needs": [
      "counts"
     ],
     "text": "Make the two sides one dtype before the arithmetic: cast the counts to the values' dtype (tf.cast(counts, sums.dtype)), or count in it from the start (tf.math.bincount(ids, dtype=sums.dtype), tf.ones_like(values))."
    },
    "Make the two sides one dtype before the arithmetic: tf.cast one of them to the other's dtype, the one the result should have."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "dtype",
    "same",
    "compute",
    "expected",
    "tensor",
    "realdiv",
    "addv2",
    "mul"
   ]
  },
  {
   "id": "tf-mixed-int-dtypes",
   "checks": "index-dtype",
   "title": "TensorFlow never mixes int32 and int64 in one op",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "cannot compute (?<tf_op>TensorScatter\\w+) as input #(?<input>2)\\(zero-based\\) was expected to be a (?<expected>\\w+) tensor but is a (?<dtype>\\w+) tensor",
     "fields": {
      "updates": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "cannot compute (?<tf_op>\\w+) as input #(?<input>\\d+)\\(zero-based\\) was expected to be a (?<expected>int(?:32|64)) tensor but is a (?<dtype>int(?:32|64)) tensor",
     "fields": {
      "ints": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "cannot compute (?<tf_op>\\w+) as input #(?<input>\\d+)\\(zero-based\\) was expected to be a (?<expected>\\w+) tensor but is a (?<dtype>\\w+) tensor"
    }
   ],
   "meaning": [
    {
     "needs": [
      "updates"
     ],
     "text": "{tf_op} got updates of dtype {dtype} for a tensor of dtype {expected}: TensorFlow converts nothing implicitly, so the updates must have the tensor's dtype."
    },
    {
     "needs": [
      "ints"
     ],
     "text": "{tf_op} got tensors of two dtypes: input #{input} (counted from 0) is {dtype} where {expected} was expected. TensorFlow converts nothing implicitly; stacking int32 rows (tf.range's default) with int64 positions (tf.argmax's default) to build gather_nd coordinates is the usual way to meet this."
    },
    "{tf_op} got tensors of two dtypes: input #{input} (counted from 0) is {dtype} where {expected} was expected. TensorFlow converts nothing implicitly: make both one dtype."
   ],
   "fix": [
    {
     "needs": [
      "updates"
     ],
     "text": "Make the two dtypes agree, with the one the result should have: create the tensor with it (tf.zeros(..., dtype=updates.dtype)) or cast the updates (tf.cast(updates, tensor.dtype))."
    },
    {
     "needs": [
      "ints"
     ],
     "text": "Cast one side so both have the same dtype, e.g. tf.cast(positions, tf.int32) or tf.range(n, dtype=tf.int64), before tf.stack or the scatter."
    },
    "Make both the dtype the result should have: pass dtype= to the op that made the other one (tf.one_hot, tf.zeros and tf.constant of Python floats make float32 unless told), or tf.cast it."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "compute",
    "pack",
    "zero",
    "based",
    "expected",
    "tensor",
    "int32",
    "int64",
    "input"
   ]
  },
  {
   "id": "mask-dtype",
   "checks": "index-dtype",
   "title": "A mask must be bool",
   "patterns": [
    {
     "library": "torch",
     "re": "masked_scatter_ only supports boolean masks, but got mask with dtype (?<dtype>\\w+)",
     "fields": {
      "op": "masked_scatter_"
     }
    },
    {
     "library": "torch",
     "re": "Mask must be bool or uint8",
     "fields": {
      "op": "masked_scatter_"
     }
    }
   ],
   "meaning": [
    "The mask is not a bool tensor (it has dtype {dtype}): a mask marks positions with True/False, it does not list them.",
    "The mask is not a bool tensor: a mask marks positions with True/False, it does not list them."
   ],
   "fix": [
    "Pass mask.bool() (or build it from a comparison such as x > 0)."
   ],
   "section": [
    {
     "needs": [],
     "id": "masks"
    }
   ],
   "keywords": [
    "mask",
    "boolean",
    "masks",
    "bool",
    "masked_scatter_"
   ]
  },
  {
   "id": "src-dtype",
   "checks": "src-dtype",
   "title": "The values written must have the destination's dtype",
   "patterns": [
    {
     "library": "torch",
     "re": "scatter\\(\\): Expected self\\.dtype to be equal to src\\.dtype"
    },
    {
     "library": "torch",
     "re": "(?<op>index_add_)\\(\\): self \\((?<input_dtype>\\w+)\\) and source \\((?<src_dtype>\\w+)\\) must have the same scalar type"
    },
    {
     "library": "torch",
     "re": "(?<op>index_copy_)\\(\\): self and source expected to have the same dtype, but got \\(self\\) (?<input_dtype>\\w+) and \\(source\\) (?<src_dtype>\\w+)"
    },
    {
     "library": "torch",
     "re": "Index put requires the source and destination dtypes match, got (?<input_dtype>\\w+) for the destination and (?<src_dtype>\\w+) for the source",
     "fields": {
      "op": "index_put_"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "is_index_add",
      "input_dtype"
     ],
     "text": "{op} adds source into the input without converting it: the input is {input_dtype} but source is {src_dtype}."
    },
    {
     "needs": [
      "is_index_copy",
      "input_dtype"
     ],
     "text": "{op} copies source into the input without converting it: the input is {input_dtype} but source is {src_dtype}."
    },
    {
     "needs": [
      "is_index_put",
      "input_dtype"
     ],
     "text": "{op} writes the values into the input without converting them: the input is {input_dtype} but the values are {src_dtype}."
    },
    "{op} writes src into the input without converting it: the input is {input_dtype} but the values are {src_dtype}.",
    "The op writes src into the input without converting it, and their dtypes differ (an int src into a float input is the usual case)."
   ],
   "fix": [
    {
     "needs": [
      "is_index_put"
     ],
     "text": "Make the two dtypes agree, with the one the result should have: create the buffer with it (torch.zeros(..., dtype=values.dtype)) or convert the values (values.to(x.dtype)); x[indices] = v converts a Python number for you."
    },
    {
     "needs": [
      "source_slices"
     ],
     "text": "Make the two dtypes agree, with the one the result should have: create the buffer with it (torch.zeros(..., dtype=source.dtype)) or convert source (source.to(x.dtype)); {op} takes no Python number."
    },
    {
     "needs": [
      "is_scatter"
     ],
     "text": "Make the two dtypes agree, with the one the result should have: create the buffer with it (torch.zeros(..., dtype=src.dtype)) or convert src (src.to(x.dtype)); a Python number as value= is converted for you."
    },
    "Make the two dtypes agree, with the one the result should have: create the input with the values' dtype, or convert the values (src.to(x.dtype))."
   ],
   "section": [
    {
     "needs": [],
     "id": "loud"
    }
   ],
   "keywords": [
    "src",
    "source",
    "dtype",
    "scalar",
    "type",
    "destination",
    "same",
    "self"
   ]
  },
  {
   "id": "rank-mismatch",
   "checks": "rank-mismatch",
   "title": "gather and scatter need an index with as many dims as the input",
   "patterns": [
    {
     "library": "torch",
     "re": "Index tensor must have the same number of dimensions as (?<which>input|self|src) tensor"
    },
    {
     "library": "torch",
     "re": "(?<op>torch\\.take_along_dim)\\(\\): input and indices should have the same number of dimensions, but got (?<input_rank>\\d+) dimensions for input, and (?<index_rank>\\d+) dimensions for indices"
    },
    {
     "library": "numpy",
     "re": "`indices` and `arr` must have the same number of dimensions",
     "fields": {
      "op": "np.take_along_axis"
     }
    }
   ],
   "meaning": [
    "The input has {input_rank} dims and the index {index_rank}: the op never adds or broadcasts an axis, so the index needs {input_rank} dims too.",
    "The index and the {which} tensor have different numbers of dims: gather and scatter never add or broadcast an axis, so the index needs one dim per dim of the input (a (batch,) index for a (batch, n) input needs .unsqueeze(1)).",
    "The index and the input have different numbers of dims: the op never adds or broadcasts an axis."
   ],
   "fix": [
    "Add the missing axis with index.unsqueeze(dim) (and expand it if every row needs it), or remove an extra one with squeeze; a 0-d position becomes index.view(1, ...)."
   ],
   "section": [
    {
     "needs": [
      "op_is_scatter"
     ],
     "id": "scatter-shapes"
    },
    {
     "needs": [],
     "id": "missing-axis"
    }
   ],
   "keywords": [
    "same",
    "number",
    "dimensions",
    "index",
    "tensor",
    "indices",
    "input",
    "self"
   ]
  },
  {
   "id": "index-not-vector",
   "checks": "index-not-vector",
   "title": "index_select, index_add_ and index_copy_ take one 1-D list of positions",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\): Index is supposed to be a vector(?:, but got dim: (?<index_rank>\\d+))?"
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\): Index should have dimension 1 or 0 \\(got (?<index_rank>\\d+)\\)"
    }
   ],
   "meaning": [
    "{op} uses one shared list of positions for every row, so the index must be 1-D; yours has {index_rank} dims.",
    "{op} uses one shared list of positions for every row, so the index must be 1-D (a vector)."
   ],
   "fix": [
    "Pass a 1-D index (index.flatten() if it is one list in disguise); for different positions per row use gather / scatter (or take_along_dim)."
   ],
   "section": [
    {
     "needs": [],
     "id": "index-select"
    }
   ],
   "keywords": [
    "vector",
    "supposed",
    "index",
    "dimension"
   ]
  },
  {
   "id": "too-many-indices",
   "checks": "rank-mismatch",
   "title": "x[i, j, ...] takes at most one index per dim",
   "patterns": [
    {
     "library": "torch",
     "re": "too many indices for (?:tensor|array) of dimension (?<input_rank>\\d+)",
     "fields": {
      "op": "x[index]"
     }
    }
   ],
   "meaning": [
    "The subscript (or index_put_'s tuple) has more index tensors than the tensor has dims ({input_rank}): a tuple holds one index tensor per dim (all the rows, then all the columns), not one (row, column) pair per entry."
   ],
   "fix": [
    "Give at most {input_rank} index tensors, one per dim: x[rows, cols] or x.index_put_((rows, cols), v); from an (N, 2) tensor of pairs, tuple(pairs.t()). A uint8 tensor is read as a mask: convert positions held as uint8 with .long()."
   ],
   "section": [
    {
     "needs": [],
     "id": "masks"
    }
   ],
   "keywords": [
    "too",
    "many",
    "indices",
    "dimension"
   ]
  },
  {
   "id": "index-too-large",
   "checks": "index-too-large",
   "title": "Apart from dim, the index may not be larger than the input",
   "patterns": [
    {
     "library": "torch",
     "re": "Size does not match at dimension (?<axis>\\d+) expected index \\[(?<index_shape>[\\d, ]*)\\] to be no larger than self \\[(?<input_shape>[\\d, ]*)\\] apart from dimension (?<dim>\\d+)",
     "fields": {
      "op": "gather"
     }
    },
    {
     "library": "torch",
     "re": "Expected index \\[(?<index_shape>[\\d, ]*)\\] to be no larger than self \\[(?<input_shape>[\\d, ]*)\\] apart from dimension (?<dim>\\d+) and to be no larger size than src \\[(?<src_shape>[\\d, ]*)\\]",
     "fields": {
      "op": "scatter_"
     }
    }
   ],
   "meaning": [
    "The index {index_shape} is larger than the input {input_shape} in {oversized}. Along dim {dim} any number of positions is allowed; in every other dim the index may be at most as large as the input. Input dim {empty_dims} is empty: the input has no positions there at all, so an empty batch or a sequence of length 0 reached this call.",
    "The index {index_shape} is larger than the input {input_shape} in {oversized}. Along dim {dim} any number of positions is allowed; in every other dim the index may be at most as large as the input (and, for scatter, at most as large as src {src_shape}), because out[i][j] reads input[i][index[i][j]] with the same i.",
    "The index {index_shape} is larger than the input {input_shape} in {oversized}. Along dim {dim} any number of positions is allowed; in every other dim the index may be at most as large as the input, because out[i][j] reads input[i][index[i][j]] with the same i.",
    "The index {index_shape} must be no larger than the input {input_shape} in every dim but {dim} (and, for scatter, no larger than src {src_shape} in any dim)."
   ],
   "fix": [
    "Check why dim {empty_dims} of the input is empty before the call (skip empty batches), or build the index from the input's own shape.",
    "Build the index for this input: its size in {oversized} must not exceed the input's; an index built for another batch, or unsqueezed on the wrong axis, looks like this.",
    "Build the index from the input's own shape (index.size(d) <= x.size(d) for every d != dim); for scatter, make src at least as large as the index."
   ],
   "section": [
    {
     "needs": [
      "op_is_scatter"
     ],
     "id": "scatter-shapes"
    },
    {
     "needs": [],
     "id": "too-many-rows"
    }
   ],
   "keywords": [
    "size",
    "match",
    "larger",
    "apart",
    "dimension",
    "expected",
    "index",
    "self",
    "src"
   ]
  },
  {
   "id": "broadcast-mismatch",
   "checks": "broadcast-mismatch",
   "title": "Sizes that must broadcast: equal, or one of them 1",
   "patterns": [
    {
     "library": "torch",
     "re": "The size of tensor a \\((?<size_a>\\d+)\\) must match the size of tensor b \\((?<size_b>\\d+)\\) at non-singleton dimension (?<axis>\\d+)"
    },
    {
     "library": "torch",
     "re": "shape mismatch: indexing (?:tensors|arrays) could not be broadcast together with shapes (?<shapes>[\\[(][\\d, ]*[\\])](?:,? [\\[(][\\d, ]*[\\])])*)",
     "fields": {
      "op": "x[index]"
     }
    },
    {
     "library": "tensorflow",
     "re": "Incompatible shapes: \\[(?<shape_a>[\\d,]*)\\] vs\\. \\[(?<shape_b>[\\d,]*)\\]"
    }
   ],
   "meaning": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "text": "Sizes {size_a} and {size_b} meet at dim {axis} and do not broadcast. take_along_dim broadcasts every dim except dim (gather does not), so the index's size there must equal the input's or be 1."
    },
    "The index tensors of x[...] are broadcast against each other, and shapes {shapes} do not broadcast (each pair of sizes must be equal or 1).",
    "Sizes {size_a} and {size_b} meet at dim {axis} and do not broadcast: an elementwise op (a + b, a / b) needs each pair of sizes, matched from the last dim, equal or one of them 1.",
    "Shapes [{shape_a}] and [{shape_b}] do not broadcast (each pair of sizes must be equal or 1)."
   ],
   "fix": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "text": "Make the sizes equal or one of them 1: rows as arange(n)[:, None] next to an (n, k) index, or an index built for this batch."
    },
    {
     "needs": [
      "shapes"
     ],
     "text": "Make the sizes equal or one of them 1: rows as arange(n)[:, None] next to an (n, k) index, or an index built for this batch."
    },
    {
     "needs": [
      "shape_a"
     ],
     "text": "Find the step that gave one tensor its size: a size taken from the values (tf.math.bincount without minlength, tf.reduce_max(ids) + 1) is short when the largest ids have no entries; size it from the argument that gives the count."
    },
    "Find the step that gave one tensor its size: a size taken from the values (torch.bincount without minlength, ids.max() + 1) is short when the largest ids have no entries; size it from the argument that gives the count."
   ],
   "section": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "id": "take-along"
    }
   ],
   "keywords": [
    "size",
    "match",
    "singleton",
    "broadcast",
    "shapes",
    "mismatch",
    "together",
    "incompatible"
   ]
  },
  {
   "id": "source-not-one-value",
   "checks": null,
   "title": "A write takes one value per position, or one value for all",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>index_copy_?)\\(\\): When source is scalar, index should have one element \\(got (?<count>\\d+)\\)"
    },
    {
     "library": "torch",
     "re": "(?<op>index_fill_?) only supports a 0-dimensional value tensor, but got tensor with (?<src_rank>\\d+) dimension",
     "fields": {
      "fills_slices": "yes"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>index_fill_?|masked_fill_?) only supports a 0-dimensional value tensor, but got tensor with (?<src_rank>\\d+) dimension"
    },
    {
     "library": "torch",
     "re": "source tensor shape must match self tensor shape, excluding the specified dimension\\. Got self\\.shape = \\[(?<input_shape>[\\d, ]*)\\] source\\.shape = \\[(?<src_shape>[\\d, ]*)\\]",
     "fields": {
      "op": "index_add_"
     }
    },
    {
     "library": "tensorflow",
     "re": "Updates shape must have rank at least one\\. Found:\\s?\\[\\]",
     "fields": {
      "op": "tf.tensor_scatter_nd_update"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "count"
     ],
     "text": "{op} copies one slice of source per index entry: a 0-d source fits only a one-entry index, and yours has {count} entries."
    },
    {
     "needs": [
      "src_rank",
      "fills_slices"
     ],
     "text": "{op} takes one number and fills whole slices: each index entry selects a whole slice along dim (for dim 1, that column in every row), never one entry per index entry; value must be a number or a 0-d tensor, and yours has {src_rank} dims."
    },
    {
     "needs": [
      "src_rank"
     ],
     "text": "{op} writes one value everywhere it selects (index_fill_ fills the whole slice at each index entry, not one entry per index entry): value must be a number or a 0-d tensor, and yours has {src_rank} dims."
    },
    {
     "needs": [
      "src_shape"
     ],
     "text": "{op}'s source {src_shape} must have the input's shape {input_shape} in every dim but dim, with one slice per index entry along it: {op} does not broadcast source."
    },
    {
     "needs": [
      "op_is_tf"
     ],
     "text": "A TensorFlow scatter takes one update per coordinate, never a single number: indices is a list of coordinates, shape (n, depth) ([[i, j]] for one position, not [i, j]), and updates hold n values (each with the slice its coordinate selects)."
    }
   ],
   "fix": [
    {
     "needs": [
      "count"
     ],
     "text": "Give source one slice per index entry (source.expand(len(index)) for a 1-D x), or write one number everywhere with x.index_fill_(dim, index, v)."
    },
    {
     "needs": [
      "src_rank",
      "fills_slices"
     ],
     "text": "For one value per index entry, write with scatter_ (an index with x's number of dims: x.scatter_(1, labels.unsqueeze(1), 1) gives one per row) or with index_put_ / index_add_ (a source with one slice per index entry); index_fill_ takes one number (value.item())."
    },
    {
     "needs": [
      "src_rank"
     ],
     "text": "Pass one number (value.item() for a 0-d tensor) where every selected entry gets the same value; to give each position its own value, write with scatter_ (an index with x's number of dims) or index_put_ (masked_scatter_ for a mask)."
    },
    {
     "needs": [
      "src_shape"
     ],
     "text": "Give source index.numel() slices along dim and the input's size in every other dim: source.expand(len(index)) for a 1-D x."
    },
    {
     "needs": [
      "op_is_tf"
     ],
     "text": "Write one position with indices [[i, j]] and updates [v], not [i, j] and v; for indices of shape (n, depth) that pick single entries (depth the tensor's rank), pass updates tf.fill(tf.shape(indices)[:-1], v)."
    }
   ],
   "section": [
    {
     "needs": [
      "op_is_tf"
     ],
     "id": "scatter-tf"
    },
    {
     "needs": [],
     "id": "scatter-shapes"
    }
   ],
   "keywords": [
    "scalar",
    "source",
    "element",
    "dimensional",
    "value",
    "updates",
    "rank"
   ]
  },
  {
   "id": "value-shape-mismatch",
   "checks": "index-larger-than-src",
   "title": "The values written must fit the positions written",
   "patterns": [
    {
     "library": "torch",
     "re": "shape mismatch: value tensor of shape \\[(?<src_shape>[\\d, ]*)\\] cannot be broadcast to indexing result of shape \\[(?<index_shape>[\\d, ]*)\\]",
     "fields": {
      "op": "index_put_"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>index_add_)\\(\\): Number of indices \\((?<count>\\d+)\\) should be equal to source\\.size\\(dim\\): \\((?<src_size>\\d+)\\), for dim: (?<dim>\\d+)"
    },
    {
     "library": "torch",
     "re": "(?<op>index_copy_)\\(\\): Number of indices \\((?<count>\\d+)\\) should be equal to source\\.size\\(dim\\) \\((?<src_size>\\d+)\\)"
    },
    {
     "library": "torch",
     "re": "(?<op>put_)\\(\\): Expected source and index to have the same number of elements, but got source\\.numel\\(\\) = (?<src_size>\\d+), index\\.numel\\(\\) = (?<count>\\d+)"
    },
    {
     "library": "tensorflow",
     "re": "Outer dimensions of indices and update must match\\. Indices shape: \\[(?<index_shape>[\\d,]*)\\], updates shape:\\s?\\[(?<src_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.tensor_scatter_nd_update"
     }
    },
    {
     "library": "tensorflow",
     "re": "Inner dimensions of output shape must match inner dimensions of updates shape\\. Output: \\[(?<input_shape>[\\d,]*)\\] updates: \\[(?<src_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.tensor_scatter_nd_update",
      "depth_tf": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "The outer (?<outer>\\d+) dimensions of indices\\.shape=\\[(?<index_shape>[\\d,]*)\\] must match the outer \\d+ dimensions of updates\\.shape=\\[(?<src_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.tensor_scatter_nd_update"
     }
    },
    {
     "library": "tensorflow",
     "re": "Dimensions \\[\\d+,\\d+\\) of indices\\[shape=\\[(?<index_shape>[\\d,]*)\\]\\] must match dimensions \\[\\d+,\\d+\\) of updates\\[shape=\\[(?<src_shape>[\\d,]*)\\]\\]",
     "fields": {
      "op": "tf.scatter_nd"
     }
    },
    {
     "library": "tensorflow",
     "re": "data\\.shape = \\[(?<src_shape>[\\d,]*)\\] does not start with segment_ids\\.shape = \\[(?<index_shape>[\\d,]*)\\]",
     "fields": {
      "op": "tf.math.unsorted_segment_sum"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "op_is_segment",
      "src_shape",
      "index_shape"
     ],
     "text": "{op} takes one segment id per entry of data: data {src_shape} must start with the shape of segment_ids {index_shape}."
    },
    {
     "needs": [
      "is_put"
     ],
     "text": "{op} writes one value of source per index entry and never repeats source (as numpy.put does): index has {count} entries but source {src_size}."
    },
    {
     "needs": [
      "depth_tf",
      "flat_coordinate",
      "index_shape",
      "coord_depth"
     ],
     "text": "Each coordinate lies along the last axis of indices (its length is the depth): your indices {index_shape} are one coordinate of depth {coord_depth} (a flat [i, j] is the one entry (i, j), not rows i and j), and TensorFlow's tensor_scatter_nd ops refuse 1-D indices whatever the updates' shape. Write the coordinate as [[...]], indices of shape (1, {coord_depth}), with updates of shape (1,) + output.shape[{coord_depth}:] = {updates_due}, not {src_shape}."
    },
    {
     "needs": [
      "depth_tf",
      "updates_due",
      "index_shape",
      "coord_depth"
     ],
     "text": "Each coordinate lies along the last axis of indices (its length is the depth), and the axes before it lay the coordinates out: your indices {index_shape} are coordinates of depth {coord_depth} laid out in shape {index_outer}, so updates must have shape indices.shape[:-1] + output.shape[{coord_depth}:] = {updates_due}, not {src_shape}."
    },
    {
     "needs": [
      "depth_tf",
      "src_shape",
      "input_shape"
     ],
     "text": "Each coordinate lies along the last axis of indices (its length is the depth), and the axes before it lay the coordinates out (a flat [i, j] is one coordinate of depth 2, the entry (i, j)): updates must have shape indices.shape[:-1] + output.shape[depth:], and updates {src_shape} do not have it for output {input_shape} at your indices' depth."
    },
    {
     "needs": [
      "op_is_tf",
      "index_outer",
      "src_shape"
     ],
     "text": "{op} takes one update per row of indices: indices {index_shape} hold coordinates in shape {index_outer}, so the updates must start with {index_outer}, but they have {src_shape}."
    },
    "{op} writes one slice of source per position: {count} positions but {src_size} slices of source.",
    {
     "needs": [
      "column_values"
     ],
     "text": "Values {src_shape} do not broadcast to the {index_shape} positions selected: trailing dims line up, so a column against {index_shape} makes a {grid_shape} grid."
    },
    "The values have shape {src_shape} and the positions select {index_shape}: the values must broadcast to the shape of what the positions select.",
    "The updates must have one entry (or slice) per row of indices, shaped like the rest of the output: here the shapes do not agree."
   ],
   "fix": [
    {
     "needs": [
      "op_is_segment"
     ],
     "text": "Give one id per entry of data (segment_ids.shape == data.shape[:k]): ids made for this data."
    },
    {
     "needs": [
      "op_is_tf"
     ],
     "text": "Make indices a list of coordinates, shape (..., depth) with 2 dims or more ([[i, j]] for one position, not [i, j]), and give updates the shape indices.shape[:-1] + output.shape[depth:]."
    },
    {
     "needs": [
      "source_slices",
      "dim"
     ],
     "text": "Give source one slice per index entry along dim {dim}: source.size({dim}) == index.numel(); {op} does not broadcast source."
    },
    {
     "needs": [
      "source_slices"
     ],
     "text": "Give source one slice per index entry along dim: source.size(dim) == index.numel(); {op} does not broadcast source."
    },
    {
     "needs": [
      "source_flat"
     ],
     "text": "Give source one value per index entry: source.numel() == index.numel()."
    },
    {
     "needs": [
      "column_values"
     ],
     "text": "Give one value per selected position, shape {index_shape}: drop the trailing 1 (a column, (n, 1), is scatter_'s index form, not the values of x[i] = v or index_put_)."
    },
    {
     "needs": [
      "source_values"
     ],
     "text": "Give values that broadcast to what the positions select: one per selected position, or a single value."
    },
    "Give one value (or slice) per position: source.size(dim) == index.numel() for index_add_ and index_copy_, values.numel() == index.numel() for put_, values broadcastable to the selection for x[i] = v."
   ],
   "section": [
    {
     "needs": [
      "op_is_tf"
     ],
     "id": "scatter-tf"
    },
    {
     "needs": [],
     "id": "loud"
    }
   ],
   "keywords": [
    "number",
    "indices",
    "source",
    "numel",
    "value",
    "broadcast",
    "indexing",
    "result",
    "updates",
    "outer",
    "inner",
    "elements"
   ]
  },
  {
   "id": "mask-shape",
   "checks": "index-too-large",
   "title": "A bool mask must have the shape of the dims it masks",
   "patterns": [
    {
     "library": "torch",
     "re": "The shape of the mask \\[(?<mask_shape>[\\d, ]*)\\] at index (?<at>\\d+) does not match the shape of the indexed tensor \\[(?<input_shape>[\\d, ]*)\\] at index (?<axis>\\d+)",
     "fields": {
      "op": "x[mask]"
     }
    }
   ],
   "meaning": [
    "A bool (or uint8) tensor in a subscript is a mask: its shape {mask_shape} must equal the shape of the dims it covers, and the tensor's shape there is {input_shape}. An int16 or uint8 index is read as such a mask."
   ],
   "fix": [
    "Build the mask from the tensor itself (x > 0), or, if these are positions, convert them with .long()."
   ],
   "section": [
    {
     "needs": [],
     "id": "masks"
    }
   ],
   "keywords": [
    "mask",
    "shape",
    "indexed",
    "match"
   ]
  },
  {
   "id": "tf-shapes-incompatible",
   "checks": null,
   "title": "TensorFlow: two shapes that must agree differ (tf.boolean_mask's mask)",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "Shapes (?<first_shape>\\([\\d, ]*\\)) and (?<second_shape>\\([\\d, ]*\\)) are incompatible"
    }
   ],
   "meaning": [
    "TensorFlow compared two shapes that must agree, {first_shape} and {second_shape}, before running the op. tf.boolean_mask raises this when its mask's shape (the second) is not the shape of the tensor's leading dims (the first): a mask covers those dims exactly."
   ],
   "fix": [
    "For tf.boolean_mask, build the mask over the dims it selects, from the tensor itself (tensor[..., 0] > 0), or pass axis= where it masks later dims."
   ],
   "section": [
    {
     "needs": [],
     "id": "masks"
    }
   ],
   "keywords": [
    "shapes",
    "incompatible",
    "boolean_mask",
    "mask"
   ]
  },
  {
   "id": "expand-size",
   "checks": "index-too-large",
   "title": "expand only stretches dims of size 1",
   "patterns": [
    {
     "library": "torch",
     "re": "The expanded size of the tensor \\((?<new>-?\\d+)\\) must match the existing size \\((?<old>\\d+)\\) at non-singleton dimension (?<axis>\\d+)(?:\\.\\s+Target sizes: \\[(?<target>[-\\d, ]*)\\]\\.\\s+Tensor sizes: \\[(?<current>[\\d, ]*)\\])?"
    }
   ],
   "meaning": [
    "expand can only stretch a dim of size 1 (or add new leading dims): dim {axis} has size {old}, which cannot become {new}."
   ],
   "fix": [
    "Unsqueeze the axis that should be stretched first (index.unsqueeze(-1).expand(-1, -1, features)); use -1 for dims that keep their size."
   ],
   "section": [
    {
     "needs": [],
     "id": "expand"
    }
   ],
   "keywords": [
    "expanded",
    "existing",
    "singleton",
    "target",
    "sizes",
    "expand"
   ]
  },
  {
   "id": "expand-new-dim",
   "checks": null,
   "title": "expand adds new dims only in front, each with its size",
   "patterns": [
    {
     "library": "torch",
     "re": "The expanded size of the tensor \\(-1\\) isn't allowed in a leading, non-existing dimension (?<axis>\\d+)"
    }
   ],
   "meaning": [
    "expand matches its sizes to the tensor's dims from the right and puts the extra ones in front, as new dims: -1 (keep the size) at dim {axis} falls on a new dim, which has no size to keep."
   ],
   "fix": [
    "Put the new axis where it belongs with unsqueeze first (positions.unsqueeze(-1) for a last axis), then expand it, giving -1 only for dims the tensor already has."
   ],
   "section": [
    {
     "needs": [],
     "id": "expand-repeat"
    }
   ],
   "keywords": [
    "expanded",
    "leading",
    "existing",
    "dimension",
    "expand"
   ]
  },
  {
   "id": "view-size",
   "checks": null,
   "title": "view and reshape keep the number of elements",
   "patterns": [
    {
     "library": "torch",
     "re": "shape '\\[(?<shape>[-\\d, ]*)\\]' is invalid for input of size (?<values>\\d+)"
    }
   ],
   "meaning": [
    "view and reshape only rearrange a tensor's elements: its {values} values cannot fill shape [{shape}]."
   ],
   "fix": [
    "Print the shape of the tensor you reshape: gather returns one value per index entry, but index_select and x[:, positions] return whole slices, so they hold more values."
   ],
   "section": [
    {
     "needs": [],
     "id": "index-select"
    }
   ],
   "keywords": [
    "shape",
    "invalid",
    "input",
    "size",
    "view",
    "reshape"
   ]
  },
  {
   "id": "tf-batch-dims",
   "checks": "index-too-large",
   "title": "tf.gather's batch_dims: the first dims must be equal",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "params\\.shape\\[(?<axis>\\d+)\\]: (?<input_size>\\d+) should be equal to indices\\.shape\\[\\d+\\]: (?<index_size>\\d+)",
     "fields": {
      "op": "tf.gather"
     }
    },
    {
     "library": "tensorflow",
     "re": "Expected batch_dims in the range \\[(?<low>-?\\d+), (?<high>-?\\d+)\\], but got (?<batch_dims>-?\\d+)",
     "fields": {
      "op": "tf.gather"
     }
    },
    {
     "library": "tensorflow",
     "re": "Input to reshape is a tensor with (?<values>\\d+) values, but the requested shape has (?<requested>\\d+)"
    },
    {
     "library": "tensorflow",
     "re": "batch_dims \\((?<batch_dims>-?\\d+)\\) must be less than or equal to axis \\((?<axis>-?\\d+)\\)",
     "fields": {
      "op": "tf.gather",
      "batch_axis": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "batch_dims \\((?<batch_dims>-?\\d+)\\) must be less than rank\\(params\\) \\((?<input_rank>\\d+)\\)",
     "fields": {
      "op": "tf.gather",
      "batch_axis": "yes"
     }
    }
   ],
   "meaning": [
    "With batch_dims the first dims of params and indices are batch dims and must be equal: params has {input_size} at dim {axis}, indices {index_size}. TensorFlow neither broadcasts nor lets a smaller index through (torch.gather would accept a smaller one).",
    "batch_dims = {batch_dims} is out of range: it can be at most the rank of indices (here {low}..{high}).",
    {
     "needs": [
      "batch_axis"
     ],
     "text": "batch_dims = {batch_dims} makes the first {batch_dims} axes batch axes, shared by params and indices, and tf.gather reads an axis after them: axis = {axis} is one of them (batch_dims <= axis)."
    },
    {
     "needs": [
      "batch_axis"
     ],
     "text": "batch_dims = {batch_dims} makes the first {batch_dims} axes batch axes, shared by params and indices, and tf.gather reads an axis after them: params, of rank {input_rank}, has none left (batch_dims < rank)."
    },
    "A reshape found {values} values where {requested} were asked for: gather_nd with batch_dims reshapes its inputs this way when the batch dims of params and indices differ (elsewhere, a reshape to a shape of another size)."
   ],
   "fix": [
    {
     "needs": [
      "batch_axis"
     ],
     "text": "Pass the axis the positions select along and the batch axes before it: tf.gather(params, positions, axis=1, batch_dims=1) reads positions[b] within row b."
    },
    "Build the indices for this batch (same leading sizes as params), or tile them with tf.broadcast_to; batch_dims counts the shared leading dims and is at most the indices' rank."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "params",
    "shape",
    "equal",
    "indices",
    "batch_dims",
    "should",
    "reshape"
   ]
  },
  {
   "id": "tf-index-depth",
   "checks": "rank-mismatch",
   "title": "gather_nd: each row of indices is a coordinate with at most one entry per axis",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "index innermost dimension length must be <= params rank; saw: (?<depth>\\d+) vs\\. (?<input_rank>\\d+)",
     "fields": {
      "op": "tf.gather_nd"
     }
    },
    {
     "library": "tensorflow",
     "re": "indices must be at least a vector",
     "fields": {
      "op": "tf.gather_nd"
     }
    },
    {
     "library": "tensorflow",
     "re": "Shape must be at least rank (?<need>\\d+) but is rank (?<have>\\d+)"
    },
    {
     "library": "tensorflow",
     "re": "Indices and updates specified for empty output shape"
    }
   ],
   "meaning": [
    "The last axis of indices holds coordinates: {depth} entries per coordinate, but params has only {input_rank} axes.",
    "A tensor has rank {have} where at least {need} is needed: with axis or batch_dims, the axis must exist in params (an axis past the last one asks for more dims).",
    "gather_nd reads the last axis of indices as coordinates, so indices must have at least one dim ([[row, col], ...])."
   ],
   "fix": [
    {
     "needs": [
      "depth_past_rank"
     ],
     "text": "Stack the coordinates along the last axis, tf.stack([rows, cols], axis=-1): with axis=0 (tf.stack's default) each coordinate runs across the picks. A coordinate has at most {input_rank} entries, one per axis it indexes."
    },
    "Give each coordinate one entry per axis you index (at most the rank of params), and check that axis is within range."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "innermost",
    "rank",
    "vector",
    "least",
    "params",
    "length"
   ]
  },
  {
   "id": "tf-scatter-depth",
   "checks": null,
   "title": "scatter_nd: each row of indices is a coordinate into the output, each update the slice it selects",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "Dimensions \\[(?<depth>\\d+),(?<input_rank>\\d+)\\) of input\\[shape=\\[(?<input_shape>[\\d,]*)\\]\\] must match dimensions \\[(?<outer>\\d+),(?<src_rank>\\d+)\\) of updates\\[shape=\\[(?<src_shape>[\\d,]*)\\]\\]"
    }
   ],
   "meaning": [
    {
     "needs": [
      "depth_past_rank"
     ],
     "text": "A scatter_nd reads each coordinate along the last axis of indices: {depth} entries per coordinate, but the output {input_shape} has only {input_rank} axes."
    },
    "Past the {depth} axes a coordinate indexes, each update must be shaped like the rest of the output {input_shape}: the updates {src_shape} are not."
   ],
   "fix": [
    {
     "needs": [
      "depth_past_rank"
     ],
     "text": "Stack the coordinates along the last axis, tf.stack([rows, cols], axis=-1): with axis=0 (tf.stack's default) each coordinate runs across the rows. A coordinate has at most {input_rank} entries, one per axis it indexes."
    },
    "Give the updates the shape indices.shape[:-1] + output.shape[indices.shape[-1]:]."
   ],
   "section": [
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "dimensions",
    "updates",
    "match",
    "input",
    "shape"
   ]
  },
  {
   "id": "dim-out-of-range",
   "checks": "dim-range",
   "title": "dim must be a dim of the input: -rank..rank-1",
   "patterns": [
    {
     "library": "torch",
     "re": "Dimension out of range \\(expected to be in range of \\[(?<low>-?\\d+), (?<high>-?\\d+)\\], but got (?<dim>-?\\d+)\\)"
    },
    {
     "library": "torch",
     "re": "[Dd]imension specified as (?<dim>-?\\d+) but tensor has no dimensions",
     "fields": {
      "no_dims": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "Expected axis in the range \\[(?<low>-?\\d+), (?<high>-?\\d+)\\), but got (?<dim>-?\\d+)"
    },
    {
     "library": "numpy",
     "re": "axis (?<dim>-?\\d+) is out of bounds for array of dimension (?<input_rank>\\d+)"
    }
   ],
   "meaning": [
    {
     "needs": [
      "no_dims",
      "src_scalar",
      "source_slices"
     ],
     "text": "{op}'s source is 0-d, so it has no dim {dim}: {op} takes one slice of source per index entry along dim {dim} (source.size(dim) == index.numel()) and does not broadcast a 0-d source."
    },
    {
     "needs": [
      "no_dims",
      "src_scalar"
     ],
     "text": "The values given to {op} are 0-d, so they have no dim {dim}: {op} reads one value per index entry."
    },
    {
     "needs": [
      "no_dims",
      "input_scalar"
     ],
     "text": "The input is 0-d, so it has no dim {dim} to select along."
    },
    {
     "needs": [
      "no_dims"
     ],
     "text": "dim {dim} was asked of a 0-d tensor, which has no dims: a 0-d input, or a 0-d source where one entry per index entry along dim {dim} is needed."
    },
    {
     "needs": [
      "one_past"
     ],
     "text": "dims count from 0, so dim {dim} is one past the last, dim {last_dim} (R counts from 1)."
    },
    "dim {dim} does not exist: the valid dims here are {low}..{high} (negative dims count from the end, -1 is the last). A negative dim names an axis; it never wraps positions.",
    "dim {dim} does not exist on this input."
   ],
   "fix": [
    {
     "needs": [
      "no_dims",
      "src_scalar",
      "source_slices"
     ],
     "text": "Give source one entry per index entry: source.expand(len(index)) or torch.full((len(index),), v, dtype=x.dtype) for a 1-D x."
    },
    {
     "needs": [
      "no_dims",
      "src_scalar"
     ],
     "text": "Give the values the index's shape: src.expand(index.shape), or torch.full(index.shape, v, dtype=x.dtype)."
    },
    {
     "needs": [
      "no_dims"
     ],
     "text": "Find the 0-d tensor (print each argument's .shape): a source needs one entry per index entry (source.expand(len(index))), and an input needs at least one dim."
    },
    {
     "needs": [
      "one_past"
     ],
     "text": "Count dims from 0: the last dim here is dim {last_dim}, or dim=-1."
    },
    "Pass a dim of the input (dim=-1 for the last axis); the positions are what the index holds, not the dim."
   ],
   "section": [
    {
     "needs": [],
     "id": "negative-dim"
    }
   ],
   "keywords": [
    "dimension",
    "range",
    "expected",
    "dim",
    "axis",
    "specified"
   ]
  },
  {
   "id": "tf-immutable",
   "checks": null,
   "title": "A TensorFlow tensor cannot be written in place",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "'(?:[\\w.]*\\.)?ResourceVariable' object does not support item assignment",
     "fields": {
      "op_is_tf": "yes",
      "variable": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "'(?:[\\w.]*\\.)?(?<kind>EagerTensor|Tensor|ResourceVariable)' object does not support item assignment",
     "fields": {
      "op_is_tf": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "'(?:[\\w.]*\\.)?EagerTensor' object has no attribute '_lazy_read'",
     "fields": {
      "op_is_tf": "yes",
      "variable_op": "yes"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "variable"
     ],
     "text": "A tf.Variable takes no item assignment either: v[i] = v2 (or v[i] += v2) is refused; a variable is written with its own methods."
    },
    {
     "needs": [
      "variable_op"
     ],
     "text": "This scatter (tf.compat.v1.scatter_nd_update and its kin) writes into a tf.Variable, and it got a tensor: TensorFlow tensors are immutable."
    },
    "TensorFlow tensors are immutable: x[i] = v (or x[i] += v) is refused; TensorFlow ops return new tensors instead of writing into one."
   ],
   "fix": [
    {
     "needs": [
      "variable"
     ],
     "text": "Write with v.scatter_nd_update(indices, updates) or v.scatter_nd_add(indices, updates), or build a new tensor with tf.tensor_scatter_nd_add(v, indices, updates)."
    },
    {
     "needs": [
      "variable_op"
     ],
     "text": "Use tf.tensor_scatter_nd_update(tensor, indices, updates), which returns the written copy (or tf.scatter_nd into zeros)."
    },
    "Build the result whole: tf.stack the pieces (tf.stack([rows, positions], axis=-1)), gather every row at once (tf.gather(..., batch_dims=1)), or write with tf.tensor_scatter_nd_update, which returns a new tensor."
   ],
   "section": [
    {
     "needs": [],
     "id": "scatter-tf"
    }
   ],
   "keywords": [
    "support",
    "item",
    "assignment",
    "eagertensor",
    "object"
   ]
  },
  {
   "id": "api-not-in-library",
   "checks": null,
   "title": "An op that is not (or no longer) in this library",
   "patterns": [
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>batch_gather)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.gather(params, indices, batch_dims=1) (axis defaults to batch_dims)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>scatter_(?:update|add|sub|mul|div|max|min)|scatter_nd_(?:update|add|sub)|batch_scatter_update)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.tensor_scatter_nd_update (or _add, _sub, _max, _min), which returns a written copy (a row position i as the coordinate [i]); a tf.Variable has v.scatter_nd_update"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute 'tensor_scatter_(?<kind>update|add|sub)'",
     "fields": {
      "renamed": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>segment_(?:sum|mean|max|min|prod)|unsorted_segment_(?:sum|mean|max|min|prod|sqrt_n))'",
     "fields": {
      "math": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute 'to_(?<dtype>int32|int64)'",
     "fields": {
      "cast": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute 'to_(?<dtype>float|double)'",
     "fields": {
      "cast": "yes",
      "target_float": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>Session|InteractiveSession|placeholder|get_variable|global_variables_initializer|variable_scope)'",
     "fields": {
      "tf1": "yes",
      "graph": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>Print)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.print(x)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>random_uniform)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.random.uniform(shape)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>log)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.math.log(x)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>arg_min)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.math.argmin(x, axis)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>arg_max)'",
     "fields": {
      "tf1": "yes",
      "now": "tf.math.argmax(x, axis)"
     }
    },
    {
     "library": "tensorflow",
     "re": "module 'tensorflow' has no attribute '(?<name>index_select|take_along_dim)'",
     "fields": {
      "torch_op": "yes",
      "now": "tf.gather(params, indices, axis=dim) for index_select's shared positions; tf.gather(params, indices, axis=dim, batch_dims=dim) for take_along_dim's per-row ones"
     }
    },
    {
     "library": "torch",
     "re": "module 'torch' has no attribute '(?<name>gather_nd|batch_gather)'",
     "fields": {
      "tf_op": "yes",
      "now": "index with one tensor per dim, x[rows, positions] (rows broadcast against positions), or torch.gather(x, dim, index) for per-row positions"
     }
    },
    {
     "library": "torch",
     "re": "module 'torch' has no attribute '(?<name>tensor_scatter_nd_(?:update|add)|scatter_nd)'",
     "fields": {
      "tf_op": "yes",
      "now": "write with x.index_put((rows, positions), values) (accumulate=True adds), into x.clone() where x must stay as it is"
     }
    },
    {
     "library": "torch",
     "re": "module 'torch' has no attribute '(?<name>unsorted_segment_(?:sum|mean|max|min|prod))'",
     "fields": {
      "tf_op": "yes",
      "now": "torch.zeros(count, ...).index_add_(0, segment_ids, data) for a sum, or scatter_reduce_ for the other reductions"
     }
    },
    {
     "library": "torch",
     "re": "module 'torch' has no attribute '(?<name>take_along_axis)'",
     "fields": {
      "numpy_op": "yes",
      "now": "torch.take_along_dim(x, index, dim) (or torch.gather(x, dim, index))"
     }
    },
    {
     "library": "tensorflow",
     "re": "'(?:[\\w.]*\\.)?(?:EagerTensor|SymbolicTensor|Tensor)' object has no attribute '(?<name>scatter_|scatter_add_|scatter_reduce_|index_add_|index_copy_|index_fill_|index_put_|masked_fill_|masked_scatter_|put_)'",
     "fields": {
      "torch_method": "yes",
      "writes": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "'(?:[\\w.]*\\.)?(?:EagerTensor|SymbolicTensor|Tensor)' object has no attribute '(?<name>gather|index_select|take_along_dim|take|scatter|scatter_add|index_put|index_add|masked_fill|masked_select)'",
     "fields": {
      "torch_method": "yes"
     }
    },
    {
     "library": "numpy",
     "re": "module 'numpy' has no attribute '(?<name>scatter|scatter_add|scatter_reduce|index_add|index_put|index_copy)'",
     "fields": {
      "numpy_torch": "yes",
      "now": "np.put_along_axis(out, index, values, axis=dim) writes in place as scatter_ does, one value per place; np.add.at(out, positions, values) adds each value, a repeated position included"
     }
    },
    {
     "library": "numpy",
     "re": "module 'numpy' has no attribute '(?<name>gather|index_select|take_along_dim)'",
     "fields": {
      "numpy_torch": "yes",
      "now": "np.take_along_axis(x, index, axis=dim) for positions per row, np.take(x, positions, axis=dim) for positions shared by the rows"
     }
    },
    {
     "library": "numpy",
     "re": "module 'numpy' has no attribute '(?<name>one_hot)'",
     "fields": {
      "numpy_one_hot": "yes",
      "now": "np.eye(classes, dtype=np.int64)[labels], one row per label"
     }
    },
    {
     "library": "numpy",
     "re": "'numpy.ndarray' object has no attribute '(?<name>scatter_|scatter_add_|scatter_reduce_|index_add_|index_copy_|index_fill_|index_put_|masked_fill_|put_)'",
     "fields": {
      "numpy_method": "yes",
      "now": "np.put_along_axis(out, index, values, axis=dim) writes in place as scatter_ does, one value per place; np.add.at(out, positions, values) adds each value, a repeated position included"
     }
    },
    {
     "library": "numpy",
     "re": "'numpy.ndarray' object has no attribute '(?<name>gather|index_select|take_along_dim|scatter|scatter_add|index_add|masked_select)'",
     "fields": {
      "numpy_method": "yes",
      "now": "np.take_along_axis(x, index, axis=dim) for positions per row, np.take(x, positions, axis=dim) for positions shared by the rows"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "numpy_one_hot"
     ],
     "text": "NumPy has no np.one_hot: that is TensorFlow's (tf.one_hot) and torch's (F.one_hot)."
    },
    {
     "needs": [
      "numpy_torch"
     ],
     "text": "NumPy has no np.{name}: that is torch's op."
    },
    {
     "needs": [
      "numpy_method"
     ],
     "text": "A NumPy array has no {name} method: that is a torch.Tensor method."
    },
    {
     "needs": [
      "tf1"
     ],
     "text": "tf.{name} is TensorFlow 1 API, gone from TensorFlow 2 (only tf.compat.v1.{name} remains)."
    },
    {
     "needs": [
      "renamed"
     ],
     "text": "tf.tensor_scatter_{kind} is TensorFlow 1 API, renamed tf.tensor_scatter_nd_{kind} in TensorFlow 2 (the old name is only in tf.compat.v1)."
    },
    {
     "needs": [
      "math"
     ],
     "text": "In TensorFlow 2 the segment ops live in tf.math: tf.{name} is gone from the top level (only tf.compat.v1.{name} remains)."
    },
    {
     "needs": [
      "cast"
     ],
     "text": "tf.to_{dtype} is TensorFlow 1 API, gone from TensorFlow 2 (only tf.compat.v1.to_{dtype} remains)."
    },
    {
     "needs": [
      "torch_op"
     ],
     "text": "TensorFlow has no tf.{name}: that is torch's op."
    },
    {
     "needs": [
      "tf_op"
     ],
     "text": "torch has no torch.{name}: that is TensorFlow's op."
    },
    {
     "needs": [
      "numpy_op"
     ],
     "text": "torch has no torch.{name}: that is NumPy's name (torch's op is take_along_dim)."
    },
    {
     "needs": [
      "writes"
     ],
     "text": "{name} is a torch.Tensor method: a TensorFlow tensor has none of torch's methods, and no in-place writes at all (TensorFlow tensors are immutable)."
    },
    {
     "needs": [
      "torch_method"
     ],
     "text": "{name} is a torch.Tensor method: a TensorFlow tensor has none of torch's methods (TensorFlow's ops are functions, tf.gather(x, ...), not methods)."
    }
   ],
   "fix": [
    {
     "needs": [
      "renamed"
     ],
     "text": "Call tf.tensor_scatter_nd_{kind}(tensor, indices, updates)."
    },
    {
     "needs": [
      "math"
     ],
     "text": "Call tf.math.{name}."
    },
    {
     "needs": [
      "target_float"
     ],
     "text": "Use tf.cast(x, tf.float32) for to_float, tf.cast(x, tf.float64) for to_double."
    },
    {
     "needs": [
      "cast"
     ],
     "text": "Use tf.cast(x, tf.{dtype})."
    },
    {
     "needs": [
      "writes"
     ],
     "text": "Build a written copy with tf.tensor_scatter_nd_update(x, indices, updates) (or tf.tensor_scatter_nd_add), indices holding one coordinate per write."
    },
    {
     "needs": [
      "torch_method"
     ],
     "text": "Call TensorFlow's function: tf.gather(x, indices, axis=dim) for shared positions, with batch_dims=dim for per-row ones; tf.gather_nd for coordinate tuples."
    },
    {
     "needs": [
      "graph"
     ],
     "text": "In TensorFlow 2 ops run eagerly on tensors: no tf.Session or tf.placeholder, pass the tensors in; a variable is tf.Variable(value)."
    },
    {
     "needs": [
      "tf1"
     ],
     "text": "In TensorFlow 2: {now}."
    },
    {
     "needs": [
      "torch_op"
     ],
     "text": "In TensorFlow: {now}."
    },
    {
     "needs": [
      "numpy_torch"
     ],
     "text": "In NumPy: {now}."
    },
    {
     "needs": [
      "numpy_method"
     ],
     "text": "In NumPy: {now}."
    },
    {
     "needs": [
      "numpy_one_hot"
     ],
     "text": "In NumPy: {now}."
    },
    "In torch: {now}."
   ],
   "section": [
    {
     "needs": [
      "writes"
     ],
     "id": "scatter-tf"
    },
    {
     "needs": [
      "renamed"
     ],
     "id": "scatter-tf"
    },
    {
     "needs": [
      "math"
     ],
     "id": "segment"
    },
    {
     "needs": [],
     "id": "tf-ways"
    }
   ],
   "keywords": [
    "attribute",
    "module",
    "batch_gather",
    "scatter_update",
    "gather_nd",
    "eagertensor",
    "compat",
    "numpy"
   ]
  },
  {
   "id": "argument-type",
   "checks": "not-a-tensor",
   "title": "The arguments must be what the op's signature takes",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>scatter_reduce_?)\\(\\): argument 'src' \\(position (?<position>\\d+)\\) must be Tensor, not str",
     "fields": {
      "builds_output": "yes",
      "argument": "src"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\): argument '(?<argument>\\w+)' \\(position (?<position>\\d+)\\) must be (?<expected>[\\w. ]+?), (?:not|but got) (?<got>[\\w.]+)"
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\) received an invalid combination of arguments",
     "fields": {
      "combination": "yes"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\) takes (?<expected>\\d+) positional arguments? but (?<got>\\d+) (?:were|was) given",
     "fields": {
      "counted": "yes"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\) got an unexpected keyword argument '(?<argument>\\w+)'",
     "fields": {
      "keyword": "yes"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>scatter_reduce_?)\\(\\) missing (?<count>\\d+) required positional arguments?: \"src\"",
     "fields": {
      "missing": "yes",
      "builds_output": "yes",
      "argument": "src"
     }
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\) missing (?<count>\\d+) required positional arguments?(?:: \"(?<argument>\\w+)\")?",
     "fields": {
      "missing": "yes"
     }
    },
    {
     "library": "torch",
     "re": "expected Tensor as element (?<entry>\\d+) in argument (?<position>\\d+), but got (?<got>\\w+)",
     "fields": {
      "element": "yes"
     }
    },
    {
     "library": "tensorflow",
     "re": "Got an unexpected keyword argument '(?<argument>\\w+)'",
     "fields": {
      "keyword": "yes",
      "tf_keyword": "yes"
     }
    }
   ],
   "meaning": [
    {
     "needs": [
      "builds_output"
     ],
     "text": "{op} writes src into input (x in x.scatter_reduce) and keeps input's shape: it builds no output of its own, as torch 1.11's prototype with output_size or torch_scatter's scatter(src, index) did. It is called as {signature}."
    },
    {
     "needs": [
      "number_arg",
      "source_tensor_src"
     ],
     "text": "{op} takes no number as {argument}: it reads one value of a tensor {argument} per index entry, so {argument} needs (at least) the index's shape. scatter and scatter_ take a plain number; {op} does not."
    },
    {
     "needs": [
      "number_arg",
      "source_slices"
     ],
     "text": "{op} takes no number as {argument}: it needs one slice of a tensor {argument} per index entry along dim (source.size(dim) == index.numel()). index_fill_ (or index_fill) takes a number."
    },
    {
     "needs": [
      "number_arg",
      "source_flat"
     ],
     "text": "{op} takes no number as {argument}: it needs a tensor with one value per index entry (source.numel() == index.numel())."
    },
    {
     "needs": [
      "number_arg",
      "source_values"
     ],
     "text": "{op} takes its values as a tensor, not a Python number (x[indices] = v is the form that takes a number)."
    },
    {
     "needs": [
      "dim_tensor"
     ],
     "text": "{op} got a tensor where its dim goes (position {position}): dim is a plain int and comes before the positions, as in {signature}."
    },
    {
     "needs": [
      "tuple_expected",
      "is_index_put",
      "got_tensor"
     ],
     "text": "index_put_ takes its positions as a tuple of tensors, one per indexed dim, not one tensor ((index) is just index in parentheses; (index,) is a tuple): {signature}."
    },
    {
     "needs": [
      "tuple_expected",
      "is_index_put"
     ],
     "text": "index_put_ takes its positions as a tuple of tensors, one per indexed dim: {signature}."
    },
    {
     "needs": [
      "list_arg"
     ],
     "text": "Argument {argument} of {op} (position {position}) must be {expected}, but it is {a_got}: torch ops take tensors, not Python lists or NumPy arrays."
    },
    {
     "needs": [
      "number_arg"
     ],
     "text": "Argument {argument} of {op} (position {position}) must be {expected}, but it is a Python {got}: {op} takes a tensor there."
    },
    {
     "needs": [
      "missing"
     ],
     "text": "{op} is missing its argument {argument}: it is called as {signature}."
    },
    {
     "needs": [
      "missing"
     ],
     "text": "{op} is missing {count} required argument(s): it is called as {signature}."
    },
    {
     "needs": [
      "missing"
     ],
     "text": "{op} is missing {count} required argument(s)."
    },
    {
     "needs": [
      "counted",
      "is_gather"
     ],
     "text": "{op} got {got} positional arguments and takes {expected}: torch.gather(input, dim, index) and x.gather(dim, index) (the method counts x as the first)."
    },
    {
     "needs": [
      "counted"
     ],
     "text": "{op} got {got} positional arguments and takes {expected} (a method counts x as the first): it is called as {signature}."
    },
    {
     "needs": [
      "counted"
     ],
     "text": "{op} got {got} positional arguments and takes {expected} (a method counts x as the first)."
    },
    {
     "needs": [
      "keyword"
     ],
     "text": "{op} has no keyword {argument}: that is {foreign}. It is called as {signature}."
    },
    {
     "needs": [
      "keyword",
      "tf_keyword"
     ],
     "text": "This TensorFlow op has no keyword argument {argument}: that is {foreign}."
    },
    {
     "needs": [
      "keyword",
      "tf_keyword"
     ],
     "text": "This TensorFlow op has no keyword argument {argument}."
    },
    {
     "needs": [
      "keyword"
     ],
     "text": "{op} has no keyword argument {argument}: it is called as {signature}."
    },
    {
     "needs": [
      "keyword"
     ],
     "text": "{op} has no keyword argument {argument}."
    },
    {
     "needs": [
      "combination",
      "is_gather"
     ],
     "text": "The arguments do not match any of {op}'s signatures: torch.gather(input, dim, index, *, sparse_grad=False)."
    },
    {
     "needs": [
      "combination"
     ],
     "text": "The arguments do not match {op}'s signature: {signature}."
    },
    {
     "needs": [
      "combination"
     ],
     "text": "The arguments do not match any of {op}'s signatures."
    },
    {
     "needs": [
      "element"
     ],
     "text": "Element {entry} of argument {position} must be a Tensor, but it is {a_got}: a list or tuple of tensors holds tensors only."
    },
    "Argument {argument} of {op} (position {position}) must be {expected}, but it is {a_got}.",
    "The arguments do not match the op's signature."
   ],
   "fix": [
    {
     "needs": [
      "builds_output"
     ],
     "text": "Make the output yourself and write into it: torch.zeros(n, dtype=values.dtype).scatter_reduce(0, index, values, \"mean\", include_self=False), n the number of slots."
    },
    {
     "needs": [
      "tf_keyword"
     ],
     "text": "Call it with TensorFlow's own names: tf.gather(params, indices, axis=..., batch_dims=...), tf.tensor_scatter_nd_update(tensor, indices, updates)."
    },
    {
     "needs": [
      "number_arg",
      "source_tensor_src"
     ],
     "text": "Pass a tensor shaped like the index: torch.ones_like(index, dtype=x.dtype) (times your number), or torch.full(index.shape, v, dtype=x.dtype); scatter_ (or scatter) sets positions to one number."
    },
    {
     "needs": [
      "number_arg",
      "source_slices"
     ],
     "text": "Pass one entry per index entry: torch.full((len(index),), v, dtype=x.dtype) for a 1-D x (torch.ones for counts); to set positions to one number use x.index_fill_(dim, index, v)."
    },
    {
     "needs": [
      "number_arg",
      "source_flat"
     ],
     "text": "Pass torch.full_like(index, v, dtype=x.dtype) as source."
    },
    {
     "needs": [
      "number_arg",
      "source_values"
     ],
     "text": "Pass torch.tensor(v, dtype=x.dtype) (it broadcasts to every position), or write x[indices] = v."
    },
    {
     "needs": [
      "tuple_expected",
      "is_index_put"
     ],
     "text": "Wrap them in a tuple: x.index_put_((index,), values) for one dim, x.index_put_((rows, cols), values) for two."
    },
    {
     "needs": [
      "list_arg"
     ],
     "text": "Convert it first: torch.tensor(a_list) or torch.from_numpy(array) (positions as int64)."
    },
    "Call it as its signature says: {signature}, with tensors where it takes tensors and dim a plain int.",
    "Call it as the op's signature says, with tensors where it takes tensors (torch.tensor(list), torch.from_numpy(array)) and dim a plain int."
   ],
   "section": [
    {
     "needs": [],
     "id": "signature"
    }
   ],
   "keywords": [
    "argument",
    "arguments",
    "position",
    "positional",
    "keyword",
    "must",
    "given",
    "unexpected",
    "invalid",
    "combination"
   ]
  },
  {
   "id": "device-mismatch",
   "checks": "device-mismatch",
   "title": "The input and the index must be on the same device",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\): self, index and source expected to be in the same device, but got \\(self\\) (?<input_device>[\\w:]+), \\(index\\) (?<index_device>[\\w:]+), and \\(source\\) (?<src_device>[\\w:]+)"
    },
    {
     "library": "torch",
     "re": "Expected all tensors to be on the same device(?:, but (?:found at least two devices, (?<devices>[\\w:, ]+?)!|got (?<argument>\\w+) is on (?<index_device>[\\w:]+), different from other tensors on (?<input_device>[\\w:]+)))?"
    },
    {
     "library": "torch",
     "re": "(?<op>\\w+)\\(\\): Expected (?:self and index|all tensors) to be on the same device"
    },
    {
     "library": "torch",
     "re": "Expected (?:self|index) to be on the same device"
    }
   ],
   "meaning": [
    {
     "needs": [
      "src_device"
     ],
     "text": "The call's tensors are on different devices (input {input_device}, index {index_device}, source {src_device}): torch checks devices before any kernel runs and never moves a tensor for you."
    },
    "{argument} is on {index_device} but the other tensors are on {input_device}: an op never moves tensors between devices.",
    "The tensors of the call are on different devices ({devices}): an op never moves tensors between devices.",
    "The tensors of the call are on different devices: an op never moves tensors between devices."
   ],
   "fix": [
    {
     "needs": [
      "src_device"
     ],
     "text": "Move them to the input's device: index.to(x.device) and source.to(x.device). The check runs before any kernel, so nothing was written."
    },
    "Move the index (and src) to the input's device: index.to(x.device). This error is raised before any kernel runs, so the CUDA context is still usable."
   ],
   "section": [
    {
     "needs": [],
     "id": "cuda"
    }
   ],
   "keywords": [
    "device",
    "devices",
    "same",
    "cuda",
    "cpu",
    "tensors"
   ]
  },
  {
   "id": "reduce-argument",
   "checks": "unknown-op",
   "title": "scatter's reduce takes a fixed set of names",
   "patterns": [
    {
     "library": "torch",
     "re": "reduce argument must be either (?<allowed>[\\w, ]+?(?: or \\w+))(?:, got (?<got>\\w+))?\\.?",
     "fields": {
      "op": "scatter_reduce_"
     }
    },
    {
     "library": "torch",
     "re": "Expected reduce argument to be either (?<allowed>[\\w, ]+? or \\w+)",
     "fields": {
      "op": "scatter_"
     }
    }
   ],
   "meaning": [
    "reduce must be one of {allowed}: scatter_ takes add or multiply (deprecated), scatter_reduce_ takes sum, prod, mean, amax or amin."
   ],
   "fix": [
    "Use x.scatter_reduce_(dim, index, src, reduce, include_self=False) on zeros with the combination you meant: 'mean' for a mean, 'amax' for a maximum, 'sum' for a sum."
   ],
   "section": [
    {
     "needs": [],
     "id": "reductions"
    }
   ],
   "keywords": [
    "reduce",
    "argument",
    "either",
    "sum",
    "prod",
    "mean",
    "amax",
    "amin",
    "add",
    "multiply"
   ]
  },
  {
   "id": "empty-input",
   "checks": "empty-input",
   "title": "An empty input has no position to read",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<op>index_select)\\(\\): self indexing axis dim should be positive"
    },
    {
     "library": "torch",
     "re": "(?<op>take)\\(\\): tried to take from an empty tensor"
    },
    {
     "library": "torch",
     "re": "(?<op>index_select)\\(\\): Index to scalar can have only 1 value, got (?<count>\\d+) value"
    },
    {
     "library": "torch",
     "re": "(?:^|RuntimeError: )ZeroDivisionError(?!:)",
     "fields": {
      "op": "take_along_dim"
     }
    }
   ],
   "meaning": [
    "The input has no entries along the dim the op reads, so no position is valid (index_select on a 0-d input takes exactly one position, 0; here {count}).",
    "The input has no entries along the dim the op reads, so no position is valid."
   ],
   "fix": [
    "Check the input's shape before the call: skip an empty batch, or return an empty result for it."
   ],
   "section": [
    {
     "needs": [],
     "id": "empty-index"
    }
   ],
   "keywords": [
    "empty",
    "positive",
    "scalar",
    "indexing",
    "axis",
    "division",
    "zero"
   ]
  },
  {
   "id": "not-flattenable",
   "checks": "not-flattenable",
   "title": "take_along_dim without dim flattens its arguments with view",
   "patterns": [
    {
     "library": "torch",
     "re": "view size is not compatible with input tensor's size and stride"
    }
   ],
   "meaning": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "text": "A tensor here (a transposed or sliced one) has no flat view, and the call flattens it with view(-1): take_along_dim(x, index) with no dim does this."
    },
    "A tensor here (a transposed or sliced one) has no flat view: view() never copies, so it cannot reshape a tensor whose entries are not laid out in that order."
   ],
   "fix": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "text": "Pass x.contiguous() (or index.contiguous()), or give a dim."
    },
    "Use .reshape(...) (it copies where it must), or call .contiguous() before .view(...)."
   ],
   "section": [
    {
     "needs": [
      "is_take_along_dim"
     ],
     "id": "take-along"
    }
   ],
   "keywords": [
    "view",
    "compatible",
    "stride",
    "contiguous",
    "reshape"
   ]
  },
  {
   "id": "in-place-leaf",
   "checks": null,
   "title": "A leaf that requires grad cannot be written in place",
   "patterns": [
    {
     "library": "torch",
     "re": "a leaf Variable that requires grad is being used in an in-place operation"
    }
   ],
   "meaning": [
    "A write such as scatter_ or index_add_ was made on a parameter (a leaf with requires_grad=True) while autograd records: autograd cannot record a change to its own leaf."
   ],
   "fix": [
    "Update parameters inside torch.no_grad(), or write into a copy (x.clone()) or use the out-of-place op (x.scatter(...))."
   ],
   "section": [
    {
     "needs": [],
     "id": "autograd-refuses"
    }
   ],
   "keywords": [
    "leaf",
    "variable",
    "grad",
    "place",
    "operation"
   ]
  },
  {
   "id": "modified-by-inplace",
   "checks": null,
   "title": "A tensor autograd saved was changed in place",
   "patterns": [
    {
     "library": "torch",
     "re": "one of the variables needed for gradient computation has been modified by an inplace operation"
    }
   ],
   "meaning": [
    "backward() needs a tensor saved during the forward pass, and an in-place write (scatter_, index_fill_, x[i] = v...) changed it afterwards: its version counter moved on."
   ],
   "fix": [
    "Write into a copy (x = x.clone() before the write) or use the out-of-place op (scatter instead of scatter_)."
   ],
   "section": [
    {
     "needs": [],
     "id": "autograd-refuses"
    }
   ],
   "keywords": [
    "variables",
    "needed",
    "gradient",
    "computation",
    "modified",
    "inplace",
    "version"
   ]
  },
  {
   "id": "in-place-view",
   "checks": null,
   "title": "Autograd refuses some in-place writes into views",
   "patterns": [
    {
     "library": "torch",
     "re": "A view was created in no_grad mode and is being modified inplace with grad mode enabled"
    },
    {
     "library": "torch",
     "re": "Output (?<output>\\d+) of (?<function>\\w+) is a view and is being modified inplace"
    }
   ],
   "meaning": [
    "The tensor written in place (by scatter_, index_add_, x[i] = v...) is a view autograd cannot follow: made under no_grad, or one of several views a function such as {function} returns.",
    "The tensor written in place is a view autograd cannot follow (made under no_grad, or one of several views one function returns)."
   ],
   "fix": [
    "Write into a copy (.clone()) or build the result out of place (scatter instead of scatter_, torch.stack instead of writing into unbind's views)."
   ],
   "section": [
    {
     "needs": [],
     "id": "autograd-refuses"
    }
   ],
   "keywords": [
    "view",
    "inplace",
    "modified",
    "no_grad",
    "grad",
    "mode",
    "unbind"
   ]
  },
  {
   "id": "backward-gradient-shape",
   "checks": null,
   "title": "A backward function returned a gradient of the wrong shape",
   "patterns": [
    {
     "library": "torch",
     "re": "Function (?<function>\\w+) returned an invalid gradient at index (?<position>\\d+) - got \\[(?<src_shape>[\\d, ]*)\\] but expected shape compatible with \\[(?<input_shape>[\\d, ]*)\\]"
    }
   ],
   "meaning": [
    "{function} produced a gradient of shape {src_shape} for its input number {position}, which has shape {input_shape}: the gradient flowing back into a write's src must have src's shape, so src (or the upstream gradient) was made with the wrong shape."
   ],
   "fix": [
    "Give src exactly the shape the write reads from it (as large as the index in every dim), and check any custom backward or hook that shapes the gradient."
   ],
   "section": [
    {
     "needs": [],
     "id": "autograd-refuses"
    }
   ],
   "keywords": [
    "backward",
    "gradient",
    "invalid",
    "compatible",
    "function",
    "returned"
   ]
  },
  {
   "id": "overlapping-write",
   "checks": null,
   "title": "An in-place write into an expanded tensor",
   "patterns": [
    {
     "library": "torch",
     "re": "unsupported operation: more than one element of the written-to tensor refers to a single memory location"
    }
   ],
   "meaning": [
    "The tensor written to shares memory between its elements (an expand() view), so one write would land in several places."
   ],
   "fix": [
    "Write into a real copy: .clone() or .contiguous() after expand, or use repeat instead of expand for a tensor you will write to."
   ],
   "section": [
    {
     "needs": [],
     "id": "expand-repeat"
    }
   ],
   "keywords": [
    "written",
    "memory",
    "location",
    "single",
    "element",
    "clone"
   ]
  },
  {
   "id": "grad-dtype",
   "checks": null,
   "title": "Only floating-point tensors can require gradients",
   "patterns": [
    {
     "library": "torch",
     "re": "only Tensors of floating point(?: and complex)? dtype can require gradients"
    }
   ],
   "meaning": [
    "requires_grad was asked of an integer tensor; positions (an index) have no gradient: a gradient flows to the values read, never to the positions."
   ],
   "fix": [
    "Leave the index without requires_grad; put requires_grad on the float tensor you gather from."
   ],
   "section": [
    {
     "needs": [],
     "id": "index-no-grad"
    }
   ],
   "keywords": [
    "floating",
    "point",
    "require",
    "gradients",
    "dtype"
   ]
  },
  {
   "id": "inference-tensor",
   "checks": null,
   "title": "Tensors made under inference_mode cannot join autograd",
   "patterns": [
    {
     "library": "torch",
     "re": "Inference tensors cannot be saved for backward"
    },
    {
     "library": "torch",
     "re": "Inplace update to inference tensor outside InferenceMode"
    }
   ],
   "meaning": [
    "A tensor created under torch.inference_mode() was used where autograd records (saved for backward, or written in place outside that mode)."
   ],
   "fix": [
    "Use torch.no_grad() where the tensor must be reused later, or .clone() it outside inference_mode."
   ],
   "section": [
    {
     "needs": [],
     "id": "recording"
    }
   ],
   "keywords": [
    "inference",
    "tensors",
    "saved",
    "backward",
    "inferencemode",
    "inplace"
   ]
  },
  {
   "id": "sparse-gradient-optimizer",
   "checks": null,
   "title": "Many optimizers refuse sparse gradients",
   "patterns": [
    {
     "library": "torch",
     "re": "(?<optimizer>\\w+) does not support sparse gradients"
    },
    {
     "library": "torch",
     "re": "add\\(sparse, dense\\) is not supported"
    },
    {
     "library": "torch",
     "re": "weight_decay option is not compatible with sparse gradients"
    }
   ],
   "meaning": [
    "gather(..., sparse_grad=True) (or a sparse embedding) makes a sparse gradient, and this optimizer or option refuses it (Adam, AdamW, RMSprop, weight decay)."
   ],
   "fix": [
    "Use an optimizer that accepts sparse gradients (SGD without weight decay, SparseAdam, Adagrad without weight decay), or drop sparse_grad=True."
   ],
   "section": [
    {
     "needs": [],
     "id": "sparse"
    }
   ],
   "keywords": [
    "sparse",
    "gradients",
    "support",
    "dense",
    "weight_decay",
    "optimizer"
   ]
  },
  {
   "id": "async-assert",
   "checks": null,
   "title": "torch._assert_async checks one bool, without waiting for the GPU",
   "patterns": [
    {
     "library": "torch",
     "re": "Expected Tensor with single nonzero value, but got zero",
     "fields": {
      "failed": "yes"
     }
    },
    {
     "library": "torch",
     "re": "Expected Tensor with single component(?: but got (?<count>\\d+))?"
    },
    {
     "library": "torch",
     "re": "Boolean value of Tensor with more than one (?:value|element) is ambiguous"
    }
   ],
   "meaning": [
    {
     "needs": [
      "failed"
     ],
     "text": "The condition checked by torch._assert_async is False: a position failed the check (on a GPU this surfaces as a device-side assert at a later synchronising call)."
    },
    "The check was given a tensor of many values where one bool is needed."
   ],
   "fix": [
    {
     "needs": [
      "failed"
     ],
     "text": "Find the bad positions on the CPU: torch.nonzero((index < 0) | (index >= size)), and fix where they were made."
    },
    "Reduce the condition to one value first: torch._assert_async(((index >= 0) & (index < size)).all())."
   ],
   "section": [
    {
     "needs": [],
     "id": "guard"
    }
   ],
   "keywords": [
    "single",
    "component",
    "ambiguous",
    "boolean",
    "value"
   ]
  },
  {
   "id": "guard-assert",
   "checks": "index-too-large",
   "title": "The guard next to the call found an index that does not fit",
   "patterns": [
    {
     "library": "gatherlab",
     "re": "dim (?<axis>\\d+): index size (?<index_size>\\d+), input size (?<input_size>\\d+)"
    },
    {
     "library": "gatherlab",
     "re": "positions (?<low>-?\\d+)\\.\\.(?<high_found>-?\\d+), valid 0\\.\\.(?<high>-?\\d+)"
    },
    {
     "library": "gatherlab",
     "re": "index has (?<index_rank>\\d+) dims, input (?<input_rank>\\d+)"
    }
   ],
   "meaning": [
    "dim {axis} of the index has size {index_size} but the input's has {input_size}: the index was built for another batch or on the wrong axis.",
    "The positions span {low}..{high_found}, and only 0..{high} are valid.",
    "The index has {index_rank} dims and the input {input_rank}."
   ],
   "fix": [
    "Fix the index where it is built; the assert stopped the call before a silent wrong result."
   ],
   "section": [
    {
     "needs": [],
     "id": "value-asserts"
    }
   ],
   "keywords": [
    "index",
    "size",
    "input",
    "positions",
    "valid",
    "dims"
   ]
  },
  {
   "id": "compile-wrapper",
   "checks": "unexpected",
   "title": "torch.compile reports the eager error inside its own",
   "patterns": [
    {
     "library": "torch",
     "re": "Dynamo failed to run FX node with fake tensors"
    },
    {
     "library": "torch",
     "re": "RuntimeError when making fake tensor call"
    }
   ],
   "meaning": [
    "torch.compile traced the call with fake tensors, and the op raised there; the error it got is quoted inside this message (got RuntimeError('...')): paste that inner message for its own explanation."
   ],
   "fix": [
    "Run the call without torch.compile to see the eager error, fix that, then compile again."
   ],
   "section": [
    {
     "needs": [],
     "id": "compiled"
    }
   ],
   "keywords": [
    "dynamo",
    "fake",
    "tensors",
    "node",
    "compile"
   ]
  }
 ]
};
