// Every rule gatherlab.diagnose (with gl.guard, the op comparison and gl.reference's
// scatter) can name: its id, its messages and its hints, as templates whose {field}s the caller fills with strings,
// and the phrases several rules share. gatherlab/diagnose.py reads this file (the object
// after `export default` is JSON, and must stay JSON) and core.mjs imports it, so Python
// and the browser word every rule from here; no other file spells a rule's words
// (tests/test_diagnose.py checks). A module, not a .json file: every loader of the
// explorers' modules (the book's _static, lab.mjs's blob URLs, the zip's import maps,
// Node) imports .mjs files as they are, and no browser needs import attributes.
export default {
 "phrases": {
  "valid-range": "{low}..{high}",
  "no-valid-position": "none (it is empty)",
  "dim-of-input": "dim {dim} of input",
  "scalar-input": "the 0-d input",
  "flattened-input": "the flattened input",
  "or": " or "
 },
 "rules": {
  "unknown-op": {
   "messages": {
    "unknown-op": "op must be one of {ops}; got {op}"
   },
   "hints": {}
  },
  "not-a-tensor": {
   "messages": {
    "not-a-tensor": "torch.{op} needs torch tensors, but {name} is {got}"
   },
   "hints": {
    "numpy": "convert it with torch.from_numpy({name})",
    "tensorflow": "convert it with torch.as_tensor({name}.numpy())",
    "sequence": "wrap it with torch.tensor({name})",
    "other": "pass a torch.Tensor"
   }
  },
  "dim-type": {
   "messages": {
    "int": "dim must be an int, but got {value} ({type})",
    "int-or-none": "dim must be an int or None, but got {value} ({type})"
   },
   "hints": {
    "dim-type": "pass the axis number, e.g. dim=1 (True and 1.0 are refused)"
   }
  },
  "device-mismatch": {
   "messages": {
    "device-mismatch": "input is on {input_device} but index is on {index_device}: torch.{op} needs both on the same device"
   },
   "hints": {
    "device-mismatch": "move the index with index.to({device})"
   }
  },
  "dim-range": {
   "messages": {
    "no-dims": "dim {dim} does not exist: the input is 0-d (one value) and has no dims",
    "out-of-range": "dim {dim} does not exist on a {ndim}-D input: valid dims are {low}..{high}",
    "one-past": "dim {dim} does not exist on a {ndim}-D input: dims count from 0, so its last is dim {high}"
   },
   "hints": {
    "no-dims": "pass dim=None to work on the flattened input, or reshape it to 1-D",
    "out-of-range": "negative dims count from the end: -1 is the last axis",
    "one-past": "counting from 1, as R's torch does, names one past the last; -1 is the last too"
   }
  },
  "index-dtype": {
   "messages": {
    "index-dtype": "index has dtype {dtype}, but torch.{op} takes positions as {allowed}",
    "scatter": "index has dtype {dtype}, but scatter takes positions as int64 or int32"
   },
   "hints": {
    "index-dtype": "convert with index.long(); positions are whole numbers, never floats or bools, and `//`, floor(), ceil() and round() on a float tensor keep its float dtype"
   }
  },
  "negative-index": {
   "messages": {
    "negative-index": "{entry} = {value} is negative, but {axis} does not wrap negative positions: valid positions are {valid}"
   },
   "hints": {
    "in-python": "write {fixed} for what {value} means in Python",
    "from-zero": "positions count from 0"
   }
  },
  "index-out-of-range": {
   "messages": {
    "index-out-of-range": "{entry} = {value}, but {axis} has size {size}: valid positions are {valid}",
    "outside": "{entry} = {value} is outside 0..{high}"
   },
   "hints": {
    "from-zero": "positions count from 0, so the last one is size - 1",
    "from-end": "negative positions count from the end, down to {low} for the first"
   }
  },
  "rank-mismatch": {
   "messages": {
    "gather": "index has {index_rank} dims but input has {input_rank}: gather needs the same number of dims and never adds or broadcasts axes",
    "gather-fewer": "index has {index_rank} dims but input has {input_rank}: gather reads one element per index entry, not a whole slice, so gather needs the same number of dims and never adds or broadcasts axes",
    "take_along_dim": "indices has {index_rank} dims but input has {input_rank}: take_along_dim broadcasts sizes, never the number of dims",
    "scatter": "index has {index_rank} dims, input {input_rank} and src {src_rank}: scatter needs the same number of dims (src[i][j] is written where index[i][j] says)",
    "scatter-coordinate": "index is 1-D, one entry per dim of the {input_rank}-D input as a (row, column) coordinate has, but scatter's index is no coordinate: it needs input's {input_rank} dims, each entry the position along dim (its own place in index gives the rest)",
    "scatter-value": "index has {index_rank} dims but input has {input_rank}: scatter needs the same number of dims (a number as src is written at every position of index)",
    "scatter-0d-src": "src is 0-d, but a tensor src needs one value per index entry, {index_rank} dims like index: pass the number itself (src.item()) or src.expand(index.shape)",
    "scalar-explorer": "{name} is 0-d: this explorer writes into tensors of 1 dim or more"
   },
   "hints": {
    "remove": "remove the extra axis (squeeze it, or build the index without it)",
    "add": "add the missing axis with unsqueeze",
    "add-then-expand": "add the missing axis with unsqueeze, then expand it if every row needs it"
   }
  },
  "index-too-large": {
   "messages": {
    "index-too-large": "dim {axis} of index has size {index_size} but dim {axis} of input has size {input_size}: apart from dim {dim}, index may not be larger than input"
   },
   "hints": {
    "index-too-large": "use at most {input_size} entries along dim {axis}"
   }
  },
  "not-flattenable": {
   "messages": {
    "not-flattenable": "with dim=None take_along_dim flattens {name} with view(-1), and {name} (shape {shape}, strides {strides}) has no flat view"
   },
   "hints": {
    "not-flattenable": "pass {name}.contiguous(), or use a dim"
   }
  },
  "broadcast-mismatch": {
   "messages": {
    "broadcast-mismatch": "dim {axis} has size {input_size} in input and {index_size} in indices: take_along_dim broadcasts every dim except dim {dim}, and these sizes do not broadcast"
   },
   "hints": {
    "broadcast-mismatch": "make one of them 1, or make them equal"
   }
  },
  "empty-input": {
   "messages": {
    "take_along_dim": "dim {dim} of input has size 0, so there is no position to take (PyTorch wraps positions modulo that size and fails dividing by 0)",
    "take": "input has no elements, so take has nothing to return",
    "index_select": "dim {dim} of input has size 0, so there is no position to select"
   },
   "hints": {
    "take": "check the input's shape before taking from it",
    "select": "check the input's shape before selecting from it"
   }
  },
  "index-not-vector": {
   "messages": {
    "index-not-vector": "index has {rank} dims, but index_select takes one shared list of positions (a 1-D index) for every row"
   },
   "hints": {
    "index-not-vector": "for per-row positions use gather or take_along_dim"
   }
  },
  "scalar-index-count": {
   "messages": {
    "scalar-index-count": "input is 0-d (one value), so index must hold exactly one position, but it holds {count}"
   },
   "hints": {
    "scalar-index-count": "use index torch.tensor([0]) on a 0-d input"
   }
  },
  "unexpected": {
   "messages": {
    "unexpected": "could not check this call: {error}"
   },
   "hints": {}
  },
  "index-smaller": {
   "messages": {
    "index-smaller": "dim {axis} of index has size {index_size} but dim {axis} of input has size {input_size}: gather runs, but reads only the first {index_size} of the {input_size} entries along dim {axis}"
   },
   "hints": {
    "index-smaller": "an index built for another batch, or unsqueezed on the wrong axis, looks like this"
   }
  },
  "wrapped-index": {
   "messages": {
    "wrapped-index": "{entry} = {value} is outside 0..{high}, and take_along_dim raises nothing: it silently reads position {used} instead"
   },
   "hints": {
    "wrapped-index": "fix the positions, or use torch.gather, which raises"
   }
  },
  "form": {
   "messages": {
    "indexing": "this form builds one coordinate tensor per axis of x from index's shape, so index needs x's number of dims, whole numbers, and at least one entry",
    "gather-nd": "the coordinates are built from index's shape (index on dim, arange on every other axis), so index needs x's number of dims and whole numbers",
    "dim": "dim {dim} does not exist on a {ndim}-D x"
   },
   "hints": {}
  },
  "no-tensorflow": {
   "messages": {
    "no-tensorflow": "TensorFlow is not installed here"
   },
   "hints": {}
  },
  "src-dtype": {
   "messages": {
    "scatter": "src has dtype {src_dtype} but input has {input_dtype}: scatter needs a tensor src of input's dtype (scatter and scatter_ also take a Python number, which they convert; scatter_add_ and scatter_reduce_ take none)"
   },
   "hints": {}
  },
  "index-larger-than-src": {
   "messages": {
    "scatter": "dim {axis} of index has size {index_size} but dim {axis} of src has size {src_size}: src is never broadcast, so index may not be larger than src in any dim"
   },
   "hints": {}
  },
  "index-larger-than-input": {
   "messages": {
    "scatter": "dim {axis} of index has size {index_size} but dim {axis} of input has size {input_size}: apart from dim {dim}, index may not be larger than input"
   },
   "hints": {}
  }
 }
};
