// Explain an error text from error_rules.mjs, as gatherlab/error_rules.py does, step for
// step: the first rule (in the table's order) with a pattern found in the text, its
// meaning and fix for the fields (the matched groups, the pattern's constants, the
// reader's shapes, dim and op, and the few derived here), and the section that teaches
// it; text no rule recognises is "not recognised", with the rule sharing most keywords
// named only as a pointer. tests/test_error_rules.py runs both on every stored message.
import { fill, withArticle } from "../explorers/core.mjs";
import TABLE from "./error_rules.mjs";

export { TABLE };

const WRITING_OPS = [
  "scatter",
  "scatter_",
  "scatter_add_",
  "scatter_reduce_",
  "index_add_",
  "index_copy_",
  "index_fill_",
  "index_put_",
  "put_",
  "masked_scatter_",
];
const FLOAT_DTYPES = ["float", "double", "half", "bfloat16", "float16", "float32", "float64"];
const SHAPE_FIELDS = ["input", "index", "src"];
const compiled = new Map();

function pattern(source) {
  if (!compiled.has(source)) compiled.set(source, new RegExp(source));
  return compiled.get(source);
}

/** The text with every run of white space as one space. */
export function normalise(text) {
  return text.split(/\s+/).filter(Boolean).join(" ");
}

/** (2, 3); a 1-D shape (3,) as Python writes it. */
export function shapeText(sizes) {
  const inner = sizes.join(", ");
  return sizes.length === 1 ? `(${inner},)` : `(${inner})`;
}

const sizesOf = (text) => (text.match(/-?\d+/g) || []).map(Number);

/** error_rules.derive: the fields a rule's templates may use. */
export function derive(found, shapes, dim, op, text) {
  /** @type {Record<string, any>} */
  const fields = {};
  for (const [name, value] of Object.entries(found))
    if (value !== undefined && value !== null) fields[name] = value;
  /** @type {Record<string, number[]>} */
  const lists = {};
  for (const name of Object.keys(fields)) {
    if (name.endsWith("_shape")) {
      lists[name] = sizesOf(fields[name]);
      fields[name] = shapeText(lists[name]);
    }
  }
  for (const name of SHAPE_FIELDS) {
    const given = shapes ? shapes[name] : null;
    if (given !== undefined && given !== null && !(`${name}_shape` in fields)) {
      lists[`${name}_shape`] = given.map(Number);
      fields[`${name}_shape`] = shapeText(lists[`${name}_shape`]);
    }
  }
  if (!("dim" in fields) && dim !== null && dim !== undefined) fields.dim = String(dim);
  const tfOp = /\[Op:(\w+)\]/.exec(text);
  if (tfOp && Object.hasOwn(TABLE.tf_ops, tfOp[1])) fields.op = TABLE.tf_ops[tfOp[1]]; // above a constant
  if (!("op" in fields) && op) fields.op = op;
  for (const name of SHAPE_FIELDS) {
    if (!(`${name}_rank` in fields) && `${name}_shape` in lists)
      fields[`${name}_rank`] = String(lists[`${name}_shape`].length);
  }
  for (const name of ["input", "src"])
    if (fields[`${name}_rank`] === "0") fields[`${name}_scalar`] = "yes";
  if ("value" in fields && "size" in fields) {
    const value = Number(fields.value);
    const size = Number(fields.size);
    if (!("high" in fields)) fields.high = String(size - 1);
    if (value < 0) {
      fields.negative = "yes";
      if (value >= -size) fields.python_fix = String(value + size);
    } else if (value >= size) fields.past_end = "yes";
  } else if ("size" in fields && !("high" in fields)) fields.high = String(Number(fields.size) - 1);
  const [values, selected] = [lists.src_shape, lists.index_shape];
  if (
    values?.length &&
    selected?.length &&
    values.length === selected.length + 1 &&
    values.at(-1) === 1 &&
    selected.every((n, k) => n === values[k])
  ) {
    // a column of values where one per selected position is due: (n, 1) against
    // (n,) broadcasts to (n, n)
    fields.column_values = "yes";
    fields.grid_shape = shapeText([...selected, selected.at(-1)]);
  }
  if ("low" in fields && "dim" in fields && Number(fields.dim) === -Number(fields.low)) {
    // dim = rank: one past the last dim (dims counted from 1)
    fields.one_past = "yes";
    fields.last_dim = String(-Number(fields.low) - 1);
  }
  const source = lists.input_shape;
  if (source && source.length && "dim" in fields && !("size" in fields)) {
    // the size of the dim positions select along, where the text gives none
    const n = source.length;
    const along = source[((Number(fields.dim) % n) + n) % n];
    fields.along_size = String(along);
    fields.along_high = String(along - 1);
  }
  const index = lists.index_shape;
  if (index && source && index.length && index.length === source.length && "dim" in fields) {
    const n = source.length;
    const along = ((Number(fields.dim) % n) + n) % n;
    const larger = [];
    for (let d = 0; d < n; d++) {
      if (d !== along && index[d] > source[d])
        larger.push(`dim ${d} (index ${index[d]}, input ${source[d]})`);
    }
    if (larger.length) fields.oversized = larger.join("; ");
    const empty = [];
    for (let d = 0; d < n; d++) if (source[d] === 0) empty.push(String(d));
    if (empty.length) fields.empty_dims = empty.join(", ");
  }
  if ("value" in fields && "size" in fields && "past_end" in fields) {
    flatFits(fields, shapes?.params);
    fitsOther(fields, lists.input_shape);
    stackedPairs(fields, lists.input_shape, lists.index_shape);
  }
  if ("coordinates" in fields && lists.input_shape) reversedFields(fields, lists.input_shape);
  // more entries per coordinate than axes
  if (
    "depth" in fields &&
    "input_rank" in fields &&
    Number(fields.depth) > Number(fields.input_rank)
  )
    fields.depth_past_rank = "yes";
  const named = fields.op || "";
  if (named.startsWith("tf.")) {
    fields.op_is_tf = "yes";
    if (lists.index_shape) fields.index_outer = shapeText(lists.index_shape.slice(0, -1));
  }
  if ("depth_tf" in fields) coordinateFields(fields, lists.index_shape, lists.input_shape);
  if (named.includes("segment")) fields.op_is_segment = "yes";
  if (named.startsWith("tf.math.segment_"))
    fields.unsorted = named.replace("tf.math.", "tf.math.unsorted_");
  opFields(fields, named);
  argumentFields(fields);
  foreignFields(fields);
  if (WRITING_OPS.includes(named.replace(/[()]+$/, "")) || named.includes("scatter"))
    fields.op_is_scatter = "yes";
  if (named === "take" || named === "torch.take") fields.op_is_take = "yes";
  const dtype = (fields.dtype || "").toLowerCase().replace(/^torch\./, "");
  if (FLOAT_DTYPES.includes(dtype)) fields.dtype_is_float = "yes";
  return fields;
}

// error_rules._coordinate_fields: a TensorFlow scatter_nd's indices as TensorFlow reads
// them, the last axis one coordinate (its length the depth), the axes before it their
// layout, so updates are due in shape indices.shape[:-1] + output.shape[depth:].
function coordinateFields(fields, index, output) {
  if (!index || !index.length || !output || index.at(-1) > output.length) return;
  const depth = index.at(-1);
  fields.coord_depth = String(depth);
  if (index.length === 1) {
    // a flat [i, j]: refused whatever the updates; [[i, j]] is due
    fields.flat_coordinate = "yes";
    index = [1, depth];
  }
  fields.updates_due = shapeText([...index.slice(0, -1), ...output.slice(depth)]);
}

// error_rules._flat_fits: a tf.gather position past the end of axis 0 of the params the
// caller knows that fits them flattened over their first two axes.
function flatFits(fields, params) {
  if (!params || params.length < 2 || fields.op !== "tf.gather") return;
  const value = Number(fields.value);
  const size = Number(fields.size);
  const [rows, steps] = params.map(Number);
  if (size === rows && value < rows * steps) {
    fields.flat_fits = "yes";
    fields.params_shape = shapeText(params.map(Number));
    fields.row_size = String(steps);
    fields.flat_size = String(rows * steps);
  }
}

// error_rules._fits_other: the other dims a position past the end of its own dim fits.
function fitsOther(fields, shape) {
  if (!shape || !("dim" in fields) || shape.length < 2) return;
  const value = Number(fields.value);
  const n = shape.length;
  const along = ((Number(fields.dim) % n) + n) % n;
  const others = [];
  for (let d = 0; d < n; d++)
    if (d !== along && value >= 0 && value < shape[d]) others.push(`dim ${d} (size ${shape[d]})`);
  if (others.length) fields.fits_other = others.join(" and ");
}

// error_rules._stacked_pairs: a subscript by one index tensor of coordinates (its last
// dim one per dim of the input), past the end of dim 0: one tensor indexes dim 0 only.
function stackedPairs(fields, shape, index) {
  if (!shape || !index || "op" in fields || shape.length < 2 || index.length < 2) return;
  if (index[index.length - 1] === shape.length && Number(fields.dim ?? -1) === 0)
    fields.stacked_pairs = "yes";
}

// error_rules._reversed: a coordinate outside the shape that fits it reversed.
function reversedFields(fields, shape) {
  const coordinates = sizesOf(fields.coordinates);
  const backwards = [...coordinates].reverse();
  if (coordinates.length < 2 || coordinates.length > shape.length) return;
  if (backwards.every((c, k) => c === coordinates[k])) return;
  if (backwards.every((c, k) => c >= 0 && c < shape[k])) fields.reversed = backwards.join(", ");
}

// error_rules._op_fields: is_<base>, the signature, and source_<kind> of a torch op.
function opFields(fields, named) {
  const written = named
    .replace(/^torch\./, "")
    .replace(/^Tensor\./, "")
    .replace(/\(\)$/, "");
  const base = written.replace(/_$/, "");
  const known = Object.hasOwn(TABLE.ops, base) ? TABLE.ops[base] : null;
  if (named.startsWith("tf.") || !known) return;
  fields[`is_${base}`] = "yes";
  if (!("signature" in fields)) fields.signature = `x.${written}(${known.args})`;
  if ("source" in known) fields[`source_${known.source}`] = "yes";
}

const NUMBERS = ["int", "float", "bool", "complex"];
const SEQUENCES = ["list", "tuple", "ndarray", "numpy.ndarray"];

// error_rules._argument_fields: what an argument of the wrong type was.
function argumentFields(fields) {
  const got = fields.got || "";
  if (!/^[A-Za-z_][\w.]*$/.test(got)) return;
  if (NUMBERS.includes(got)) fields.number_arg = "yes";
  else if (SEQUENCES.includes(got)) fields.list_arg = "yes";
  if (got === "Tensor") fields.got_tensor = "yes";
  if (fields.argument === "dim" && got === "Tensor") fields.dim_tensor = "yes";
  if ((fields.expected || "").includes("tuple")) fields.tuple_expected = "yes";
  fields.a_got = withArticle(got);
}

// error_rules._foreign_fields: whose keyword an argument torch's op lacks is.
function foreignFields(fields) {
  const argument = fields.argument ?? "";
  const keywords = "tf_keyword" in fields ? TABLE.foreign_keywords_tf : TABLE.foreign_keywords;
  if (Object.hasOwn(keywords, argument) && "keyword" in fields) fields.foreign = keywords[argument];
}

function choose(options, fields, key) {
  for (const option of options) {
    const entry = typeof option === "string" ? { needs: [], [key]: option } : option;
    const placeholders = [...(entry.text || "").matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
    if ([...entry.needs, ...placeholders].every((name) => name in fields)) return entry[key];
  }
  return null;
}

/** The id Sphinx gives a heading (error_rules.anchor). */
export function anchor(title) {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** A section as {id, title, page, href}, href relative to the book's root. */
export function sectionLink(id) {
  const section = TABLE.sections[id];
  return {
    id,
    title: section.title,
    page: section.page,
    href: `${section.page}.html#${anchor(section.title)}`,
  };
}

const EMPTY = {
  recognised: false,
  rule: null,
  title: "",
  meaning: "",
  fix: "",
  section: null,
  library: null,
  checks: null,
  fields: {},
  closest: null,
  closest_title: "",
};

/** error_rules.explain: the first rule whose pattern is found in text, else closest. */
export function explain(text, { shapes = null, dim = null, op = null } = {}) {
  const flat = normalise(text);
  for (const rule of TABLE.rules) {
    for (const p of rule.patterns) {
      const match = pattern(p.re).exec(flat);
      if (!match) continue;
      const groups = Object.entries(match.groups || {}).filter(([, value]) => value !== undefined);
      const found = { ...(p.fields || {}), ...Object.fromEntries(groups) };
      const fields = derive(found, shapes, dim, op, flat);
      const meaning = choose(rule.meaning, fields, "text");
      const fix = choose(rule.fix, fields, "text");
      const section = choose(rule.section, fields, "id");
      return {
        ...EMPTY,
        recognised: true,
        rule: rule.id,
        title: rule.title,
        meaning: meaning ? fill(meaning, fields) : "",
        fix: fix ? fill(fix, fields) : "",
        section: section ? sectionLink(section) : null,
        library: p.library,
        checks: rule.checks,
        fields,
      };
    }
  }
  return closest(text);
}

/** error_rules.closest: not recognised; the rule sharing most keywords, or none. */
export function closest(text) {
  const words = new Set(text.toLowerCase().match(/[a-z_][a-z0-9_]{2,}/g) || []);
  let best = null;
  let score = 0;
  for (const rule of TABLE.rules) {
    const shared = rule.keywords.filter((word) => words.has(word)).length;
    if (shared > score) {
      best = rule;
      score = shared;
    }
  }
  return best ? { ...EMPTY, closest: best.id, closest_title: best.title } : { ...EMPTY };
}
