// Exercises answered in the book's page, with no kernel. Each exercise's stub output
// holds an empty marker, <div class="gl-page-check" data-exercise="ID" hidden>. The
// book's build computes the exercise's payload from gatherlab.exercises (its cases
// with their inputs and expected outputs, the misconceptions' outputs with their
// verdicts, and the verdict for a pass) into _static/exercises/ID.json
// (tools/build/lean_pages.py), and gives the marker data-head='JSON' (what the answer box
// is drawn from) and data-payload-src;
// the payload is fetched, and the evaluator imported, when the box is first used
// (focus or a check), so a page loads neither until then. The page reads the answer,
// computes its outputs (implement and fix: the safe evaluator runs the learner's lines
// on every case), and shows the verdict of the first thing that matches: the expected
// outputs, a misconception, or else what is known (the first wrong coordinate).
// Verdicts become words through the payload's "templates" (the subset of
// gatherlab/exercises/messages.json it uses, put there by page.py), by plain {field}
// substitution as in Python. Answers and verdicts stay in this browser (localStorage);
// nothing is sent anywhere. tests/js/page_exercises.test.mjs checks judge() and
// readTyped() (after ready()).

import {
  entry,
  formatValue,
  isFloat,
  problem,
  shapeText,
  trace,
  unravel,
  withArticle,
} from "../explorers/core.mjs";
import { strRepr } from "../interpreter/python.mjs";

// The evaluator (about 100 KB), imported by ready(): judge() and readTyped() need it;
// and the error table's explain() (explain.mjs, error_rules.mjs), which judge() needs,
// imported with it so a page does not fetch them before an answer is checked.
let ForbiddenError, PyError, UnsupportedError, family, fromPayload, literalScope, parse, repr, run;
let TRUE_DIVISIONS, REPAIRING, EMPTY_FILL, FLOAT_DEFAULTS, GRIDS, MESHGRID, MISREAD, SEPARATE;
let SIZED, TRUE_FLOORS, UNIQUE;
let explain;

export async function ready() {
  const [errors, evaluator] = await Promise.all([
    import("../errors/explain.mjs"),
    import("../interpreter/evaluator.mjs"),
  ]);
  ({ explain } = errors);
  ({
    EMPTY_FILL,
    FLOAT_DEFAULTS,
    ForbiddenError,
    GRIDS,
    MESHGRID,
    MISREAD,
    PyError,
    REPAIRING,
    SEPARATE,
    SIZED,
    TRUE_DIVISIONS,
    TRUE_FLOORS,
    UNIQUE,
    UnsupportedError,
    family,
    fromPayload,
    literalScope,
    parse,
    repr,
    run,
  } = evaluator);
}

// ------------------------------------------------------------------ typed answers

// How a typed answer is read (gatherlab/exercises/typed.py mirrors each rule):
// an optional leading `name =` is dropped; TensorFlow's printed forms become
// tensor(...); NumPy's space-separated rows get commas; the rest is read by the
// evaluator with only tensor, array, np.array, torch.tensor and the dtypes known.
const NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*\s*=(?!=)/;
const TF_REPR = /^<tf\.Tensor:.*?numpy=([\s\S]*)>$/;
const TF_STR = /^tf\.Tensor\(([\s\S]*),\s*shape=\([^)]*\),\s*dtype=(\w+)\)$/;
const NUMPY_GAP = /(?<=[\d.\]])\s+(?=[-+\d.[])/g;

export function normalized(text) {
  let source = text.trim().replace(NAME_PREFIX, "").trim();
  const printed = source.match(TF_REPR);
  if (printed) source = printed[1].trim();
  const str = source.match(TF_STR);
  if (str) source = `tensor(${str[1].trim()}, dtype=${str[2]})`;
  return source.replace(NUMPY_GAP, ", ");
}

const CALLS = new Set(["tensor", "array", "torch.tensor", "np.array", "numpy.array"]);
// the conversions a typed tensor may end with (typed.py's CONVERSIONS), and .to/.type
const CONVERSIONS = new Set(["float", "double", "long", "int", "bool"]);
const dottedName = (node) =>
  node.e === "name" ? node.name : node.e === "attr" ? `${dottedName(node.value)}.${node.name}` : "";

// Is the parsed answer a value: numbers, lists, tuples, a sign on a number, and
// tensor(...)/array(...) with an optional dtype? (typed.py's _value, the same rules.)
function literal(node) {
  switch (node.e) {
    case "const":
      return ["int", "float", "bool"].includes(node.v.t);
    case "list":
    case "tuple":
      return node.items.every(literal);
    case "unary": // a sign on a number, or on a signed number: -1, --1, -(4)
      return (
        ["-", "+"].includes(node.op) &&
        (node.value.e === "unary"
          ? literal(node.value)
          : node.value.e === "const" && ["int", "float"].includes(node.value.v.t))
      );
    case "call":
      if (
        node.func.e === "attr" &&
        node.func.value.e === "call" &&
        (CONVERSIONS.has(node.func.name) || ["to", "type"].includes(node.func.name))
      ) {
        const given = [...node.args, ...node.kwargs.map(([, value]) => value)];
        const dtype = CONVERSIONS.has(node.func.name)
          ? given.length === 0
          : given.length === 1 &&
            node.kwargs.every(([name]) => name === "dtype") &&
            dottedName(given[0]) !== "";
        return dtype && literal(node.func.value);
      }
      return (
        CALLS.has(dottedName(node.func)) &&
        node.args.length === 1 &&
        literal(node.args[0]) &&
        node.kwargs.every(([name, value]) => name === "dtype" && dottedName(value) !== "")
      );
    default:
      return false;
  }
}

// Is the typed answer `...` alone (the stub's), as typed.py reads it?
function isEllipsis(text) {
  try {
    const program = parse(normalized(text));
    return (
      program.length === 1 &&
      program[0].s === "expr" &&
      program[0].value.e === "const" &&
      program[0].value.v.t === "ellipsis"
    );
  } catch {
    return false;
  }
}

// What a typed tensor is followed by that the page does not read (a method other than
// a conversion, an attribute): `.sum()`, `.T`; null if nothing is.
function beyondTensor(node) {
  const tensorCall = (n) => n.e === "call" && literal(n);
  const conversion = (n) =>
    n.e === "call" &&
    n.func.e === "attr" &&
    (CONVERSIONS.has(n.func.name) || ["to", "type"].includes(n.func.name));
  // a conversion with arguments it does not take is not read (typed.py), nor said
  if (conversion(node)) return tensorCall(node.func.value) ? null : beyondTensor(node.func.value);
  if (node.e === "attr" && tensorCall(node.value)) return `.${node.name}`;
  if (node.e === "call" && node.func.e === "attr" && tensorCall(node.func.value))
    return `.${node.func.name}()`;
  if (node.e === "call" && node.func.e === "attr") return beyondTensor(node.func.value);
  if (node.e === "subscript" && tensorCall(node.value)) return "[...]";
  if (node.e === "attr" || node.e === "subscript") return beyondTensor(node.value);
  return null;
}

// {value} (an evaluator value), {unreadable: why} or {unsupported: what the page does
// not read, which the notebook runs}.
export function readTyped(text) {
  const source = normalized(text);
  if (!source) return { unreadable: "the answer is empty" };
  try {
    const program = parse(source);
    const beyond =
      program.length === 1 &&
      program[0].s === "expr" &&
      !literal(program[0].value) &&
      beyondTensor(program[0].value);
    if (beyond)
      return {
        unsupported: `\`${beyond}\` on a typed tensor (the page reads numbers in nested lists, tensor(...) or array(...), and conversions such as \`.float()\` or \`.long()\`)`,
      };
    if (program.length !== 1 || program[0].s !== "expr" || !literal(program[0].value))
      return { unreadable: "it is not a list of numbers, a tensor or an array" };
    return { value: run(source, literalScope()) };
  } catch (error) {
    if (error instanceof PyError || error instanceof UnsupportedError)
      return { unreadable: error.message };
    throw error;
  }
}

// An integer in a typed answer that a double cannot hold (beyond 2**53), if one: the
// page reads it rounded, so a verdict that quotes it, or passes, cannot be trusted.
const INTEGER = /(?<![\w.])\d[\d_]*(?![\w.])/g;
const inexact = (source) =>
  (source.match(INTEGER) ?? []).find(
    (text) => !Number.isSafeInteger(Number(text.replace(/_/g, ""))),
  );

// ------------------------------------------------------------------ outputs

const RTOL = 1e-5;
const ATOL = 1e-6;

// An output: {tensor} | {error: {type, rule, message, hint, call}} | {other: value}.
// A typed prediction may be nested lists; a function must return a tensor.
function outputOf(value, typed = false) {
  if (value.t === "tensor") return { tensor: value };
  const tensor = typed ? asTensor(value) : null;
  return tensor ? { tensor } : { other: value };
}

function errorOf(error) {
  if (error instanceof ForbiddenError) return { forbidden: error.name_ };
  if (error instanceof UnsupportedError) return { unsupported: error.message };
  if (error instanceof PyError)
    return {
      error: {
        type: error.type,
        rule: error.rule,
        message: error.message,
        hint: error.hint,
        call: error.call,
        failed: error.failed ?? null,
        tfSubscript: error.tfSubscript,
      },
    };
  throw error;
}

// The evaluator's words for a float index (rules.mjs's index-dtype messages).
const FLOAT_INDEX = /^index has dtype (?:float|bfloat)\w*,/;

// implement._indexing_rule: torch's own words for a position off the end in indexing
// (x[rows, positions]), which no gather-family call records, still name the rule; and
// an elementwise op's sizes that do not broadcast (sums / sizes), torch's or TensorFlow's
const OFF_THE_END = /^index -?\d+ is out of bounds for dimension \d+ with size \d+$/;
const NOT_BROADCAST =
  /The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) at non-singleton dimension \d+|Incompatible shapes: \[[\d,]*\] vs\. \[[\d,]*\]/;
const indexingRule = (error) => {
  if (error.type === "IndexError" && OFF_THE_END.test(error.message)) return "index-out-of-range";
  return NOT_BROADCAST.test(error.message ?? "") ? "sizes-do-not-broadcast" : undefined;
};

function asTensor(value) {
  if (value.t === "tensor") return value;
  if (!["list", "tuple", "int", "float", "bool"].includes(value.t)) return null;
  try {
    // nested lists of floats read as NumPy reads them (float64), not as torch (float32)
    const read = run("tensor(v)", { ...literalScope(), v: value });
    return read.dtype === "float32"
      ? run("tensor(v, dtype=torch.float64)", { ...literalScope(), v: value })
      : read;
  } catch {
    return null; // ragged, or not numbers
  }
}

// Does `output` equal `want` (T, ERROR, {not_expected}, {any_of_shape[, but_not]}; page.py's
// rules, misconceptions.equal's)? Same shape and values (floats within rtol 1e-5 + atol
// 1e-6); an ERROR of type "Error" matches any error where either rule is unknown; two
// errors with rules match when the rules agree, one with and one without a rule match
// only as two IndexErrors, the rule a position off the end (offTheEnd), two without rules match when the types agree or either type is "Check" (the
// learner's own check).
function equals(output, want, expected) {
  if (!output) return false;
  if (want.not_expected) return !equals(output, expected, null);
  if (want.any_of_shape) {
    // any value of that shape, but `but_not` where given (misconceptions.reproduces)
    if (want.but_not && equals(output, want.but_not, null)) return false;
    return Boolean(output.tensor) && sameShape(output.tensor.shape, want.any_of_shape);
  }
  if (want.error) {
    if (!output.error) return false;
    // a fix's index that raised is matched only by the same index (misconceptions.
    // reproduces): any wrong index raises the same error
    if (output.error.index) return sameIndex(output.error.index, want.error.index);
    const [a, b] = [want.error, output.error];
    if ((a.type === "Error" || b.type === "Error") && (!a.rule || !b.rule)) return true;
    if (a.rule && b.rule) return a.rule === b.rule;
    if (a.rule || b.rule) return offTheEnd(a, b);
    return a.type === b.type || a.type === "Check" || b.type === "Check";
  }
  if (!output.tensor) return false;
  const w = fromPayload(want);
  if (!sameShape(output.tensor.shape, w.shape)) return false;
  return output.tensor.data.every((v, k) => close(Number(v), Number(w.data[k])));
}

// An IndexError that carries the off-the-end rule (indexingRule) is an IndexError
// whose rule nobody recorded (a misconception's own indexing off the end)
const offTheEnd = (a, b) =>
  a.type === "IndexError" && b.type === "IndexError" && (a.rule ?? b.rule) === "index-out-of-range";

const sameShape = (a, b) => a.length === b.length && a.every((s, d) => s === b[d]);
// Two indexes as an error carries them, [shape, values] (page.py's outcome)
const sameIndex = (a, b) => Boolean(b) && sameShape(a[0], b[0]) && sameShape(a[1], b[1]);
const indexOf = (value) => [Array.from(value.shape, Number), Array.from(value.data, Number)];

function close(a, b) {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  return Math.abs(a - b) <= ATOL + RTOL * Math.abs(b);
}

// The learner's lines, {code, function, main}: lines that define the function (a def
// after any imports, helper defs beside it if they like) are run whole, then that
// function is called with the case's arguments, as the notebook calls it (main: true);
// other lines are a function's body (function: true), whose value is what it returns.
const DEF = /^\s*def\s+\w+\s*\(/;

export function body(code) {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const blank = (line) => !line.trim() || line.trim().startsWith("#");
  const head = lines.findIndex((line) => !blank(line) && !/^\s*import\s/.test(line));
  if (head < 0 || !DEF.test(lines[head])) return { code, function: false };
  return { code, function: true, main: true };
}

// The name a fix's lines bind: the notebook's (payload.call.answer), or `answer`.
function boundName(payload, code) {
  const binds = (name) => new RegExp(`^\\s*${name}\\s*=(?!=)`, "m").test(code);
  return !binds(payload.call.answer) && binds("answer") ? "answer" : payload.call.answer;
}

// A case's inputs as evaluator values, fresh: the learner's lines may write into them
// (x[0] = 1, scatter_), so each run gets its own.
const inputsOf = (testCase, lib = "torch") =>
  Object.fromEntries(Object.entries(testCase.inputs).map(([k, v]) => [k, fromPayload(v, lib)]));

// The outputs of code (implement, fix) on every case of the payload; with repair, the
// evaluator's REPAIRING on (patching.repairing: a float index made int64, a value
// written given the input's dtype).
function codeOutputs(payload, answer, repair = false) {
  REPAIRING.on = repair;
  MESHGRID.xy = []; // the meshgrids in "xy" mode of this run (meshgridXY)
  MISREAD.noted = []; // the calls given a misread argument (misreadArgument)
  try {
    return outputsOf(payload, answer);
  } finally {
    REPAIRING.on = false;
  }
}

function outputsOf(payload, answer) {
  let lines;
  try {
    lines = body(answer);
    parse(lines.code); // Python reads the lines before it runs any
  } catch (error) {
    const out = errorOf(error);
    return out.unsupported ? out : { syntax: out.error.message };
  }
  // a fix's lines bind the part (payload.call.answer, e.g. `answer = index.T`): the
  // name, read last, is their value, unless they `return` one first
  const code = payload.kind === "fix" ? `${lines.code}\n${boundName(payload, answer)}` : lines.code;
  const calls = new Set();
  const results = [];
  const floats = []; // per case, the conversions of Python numbers to float32 / int32
  const zeros = []; // per case, the torch.zeros calls without a dtype
  const casts = []; // per case, the conversion that returned the result, or null
  const defaults = []; // per case, the first torch op that made float32 by default
  const given = []; // per case, the maker given a dtype that made the result, or null
  const sized = []; // per case, its calls of torch's sizing ops (SIZED)
  const grids = []; // per case, its subscripts' index grids (GRIDS)
  for (const testCase of payload.cases) {
    // a TensorFlow exercise's function is given TensorFlow tensors (cases.tensorflow)
    const inputs = inputsOf(testCase, payload.framework === "tensorflow" ? "tf" : "torch");
    TRUE_DIVISIONS.count = 0; // implement.py's noting_divisions, per run
    // uniqueSlots: while on, each case's torch.unique lists every id of its count
    UNIQUE.size = UNIQUE.on ? (testCase.ids?.full ?? null) : null;
    FLOAT_DEFAULTS.calls = []; // implement.py's noting_python_numbers, per run
    FLOAT_DEFAULTS.zeros = 0; // implement.py's noting_default_dtypes (torch.zeros), per run
    FLOAT_DEFAULTS.casts = []; // implement.py's noting_casts, per run
    FLOAT_DEFAULTS.defaults = []; // implement.py's noting_default_dtypes, in order
    FLOAT_DEFAULTS.given = []; // implement.py's noting_given_dtypes, per run
    SIZED.calls = []; // implement.py's noting_sizing_ops, per run
    GRIDS.found = []; // implement.py's noting_index_grids, per run
    SEPARATE.written = new Map(); // implement.py's separating_in_place, per run
    try {
      const main = lines.main && payload.kind === "implement";
      const value = run(code, main ? {} : inputs, {
        tf: true,
        forbid: payload.forbid,
        calls,
        function: lines.function && payload.kind === "implement",
        // the def named as the exercise (its id's second part) if there is one
        main: main
          ? { name: payload.id.split(".").pop(), args: payload.args.map((name) => inputs[name]) }
          : undefined,
      });
      if (payload.kind === "fix") {
        const why = payload.call.part === "index" ? floatPositions(payload, inputs, value) : null;
        if (why) return { verdict: why };
        results.push(fixedCall(payload, inputs, value));
        /** @type {any} */ (results).answered ??= value; // the fix's part, as written
      } else results.push(outputOf(value));
      floats.push(FLOAT_DEFAULTS.calls);
      zeros.push(FLOAT_DEFAULTS.zeros);
      // the conversion that returned the result itself, if one did (implement._cast)
      casts.push(FLOAT_DEFAULTS.casts.find((c) => c.out === value)?.call ?? null);
      defaults.push(FLOAT_DEFAULTS.defaults[0] ?? null);
      given.push(FLOAT_DEFAULTS.given.find((c) => c.out === value)?.call ?? null);
      sized.push(SIZED.calls);
      grids.push(GRIDS.found);
    } catch (error) {
      const out = errorOf(error);
      if (out.unsupported) return out;
      if (out.forbidden) return { ...out, case: testCase.name };
      if (payload.kind === "implement" && out.error && !out.error.rule)
        out.error.rule = indexingRule(out.error);
      if (out.error) out.error.divided = TRUE_DIVISIONS.count > 0;
      results.push(out);
      floats.push([]);
      zeros.push(0);
      casts.push(null);
      defaults.push(null);
      given.push(null);
      sized.push(SIZED.calls);
      grids.push(GRIDS.found);
    }
  }
  const require = payload.require ?? [];
  const missing = require.length > 0 && !require.some((name) => calls.has(name));
  /** @type {any} */ (results).calls = calls; // the fallback's rules name an op only where it was called
  /** @type {any} */ (results).grids = grids; // indexGrid's, per case
  return { outputs: results, missing, floats, zeros, casts, defaults, given, sized };
}

// A fix's answer goes into the broken call: as its index (or its dim).
function fixedCall(payload, inputs, value) {
  const { op, dim, part } = payload.call;
  const input = inputs[payload.args[0]];
  try {
    if (part === "dim") return outputOf(family(op, input, value, inputs[payload.args[1]]));
    if (value.t !== "tensor") {
      // diagnose's not-a-tensor rule, as Python words it
      const hintId = ["list", "tuple"].includes(value.t) ? "sequence" : "other";
      const got = value.t === "none" ? "None" : withArticle(value.t);
      const { message, hint, rule } = problem("not-a-tensor", "not-a-tensor", hintId, {
        op,
        name: "index",
        got,
      });
      return { error: { type: "TypeError", rule, message, hint, call: `torch.${op}` } };
    }
    const out = outputOf(family(op, input, dim, value));
    out.index = value; // the learner's index (fixShape reshapes it)
    // what each output entry read, as the notebook's trace says it
    const name = payload.args[0];
    const steps = trace(input, dim, value, op).steps;
    out.read = (flat) =>
      `${entry(name, steps[flat].source)} = ${formatValue(steps[flat].value, input.dtype)}`;
    return out;
  } catch (error) {
    const out = errorOf(error);
    // the index that raised, which a misconception's same index names (equals)
    if (part === "index" && out.error) out.error.index = indexOf(value);
    return out;
  }
}

// strategies.float_positions: why a float (or truncated) index is wrong, before the
// dtype rule: values where positions belong, floats just off whole numbers, fractions
// from `/`, a float index whose whole values still read wrong, or `.long()`'s
// truncation of floats that stand for whole numbers (tools/cases/page_cases.py stores float
// answers to every fix, so the page words test holds both to one verdict).
const NEAR_WHOLE = 1e-3;
const roundHalfEven = (x) => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};
const same = (a, b) =>
  sameShape(a.shape, b.shape) && a.data.every((x, k) => Number(x) === Number(b.data[k]));

function floatPositions(payload, inputs, value) {
  if (value.t !== "tensor" || value.lib !== "torch") return null;
  const v = (template, fields = {}) => ({ passed: false, template, fields, misconception: null });
  const [inputName, indexName] = payload.args;
  const source = inputs[inputName];
  const values = value.data.map(Number);
  if (isFloat(value.dtype)) {
    if (!values.length) return null;
    const fractions = values.filter((x) => Math.abs(x - roundHalfEven(x)) > 0);
    const known = new Set(source.data.map(Number));
    if (fractions.length && values.every((x) => known.has(x)))
      return v("fix.values_not_positions", {
        input: inputName,
        value: formatValue(fractions[0], "float32", 6),
        index: indexName,
      });
    if (fractions.length && values.every((x) => Math.abs(x - roundHalfEven(x)) < NEAR_WHOLE))
      return v("fix.near_whole", {
        op: payload.call.op,
        value: formatValue(fractions[0], "float32", 7),
      });
    if (fractions.length)
      return v("fix.fractions", { value: formatValue(fractions[0], "float32") });
    // whole numbers in a float tensor: `//`, floor, ceil or round on floats keep the
    // float dtype the op refuses (the learner believed they give integers)
    const whole = { ...value, dtype: "int64", data: values.map(roundHalfEven) };
    if (equals(fixedCall(payload, inputs, whole), payload.cases[0].expected))
      return v("fix.whole_floats", { dtype: value.dtype, op: payload.call.op });
    return (
      cutFractions(payload, inputs, value.shape, values, value.dtype) ??
      v("fix.float_wrong_positions")
    );
  }
  if (
    isFloat(source.dtype) &&
    sameShape(value.shape, source.shape) &&
    values.every((x, k) => x === Math.trunc(source.data[k]))
  )
    return v("fix.values_long", { input: inputName, value: String(values[0]), index: indexName });
  return cutFractions(payload, inputs, value.shape, values);
}

// strategies._cut_fractions: the broken index's floats with their fractions cut off
// (truncated toward zero, or rounded down by `//`), where rounding gives the positions;
// `dtype`: the cut values are still floats of that dtype, which the op refuses first.
function cutFractions(payload, inputs, shape, values, dtype = null) {
  const indexName = payload.args[1];
  const original = inputs[indexName];
  if (!isFloat(original.dtype) || !sameShape(shape, original.shape)) return null;
  const rounded = original.data.map(roundHalfEven);
  if (!same({ shape: original.shape, data: rounded }, fromPayload(payload.reference))) return null;
  const cuts = {
    "cut.trunc": original.data.map(Math.trunc),
    "cut.floor": original.data.map(Math.floor),
  };
  const made = Object.keys(cuts).filter((name) => values.every((x, k) => x === cuts[name][k]));
  const wrong = values.findIndex((x, k) => x !== rounded[k]);
  if (!made.length || wrong < 0) return null;
  const floats = dtype === null ? {} : { dtype, op: payload.call.op };
  return {
    passed: false,
    template: dtype === null ? "fix.truncated" : "fix.truncated_float",
    fields: {
      ...floats,
      position: entry(indexName, unravel(wrong, original.shape)),
      value: formatValue(original.data[wrong], "float32", 7),
      got: String(values[wrong]),
      right: String(rounded[wrong]),
      cut: { template: made.length === 2 ? "cut.either" : made[0], fields: {} },
    },
    misconception: null,
  };
}

// compare.shape_advice: the advice.* template and fields naming the dim that differs
// and the call that fixes it (tests/js/page_words.test.mjs holds both to the stored
// pairs of tools/cases/page_cases.py).
const dimsText = (count) => (count === 1 ? "1 dim" : `${count} dims`);
const expandSizes = (expected, d) =>
  expected.map((s, i) => (i === d ? String(s) : "-1")).join(", ");

export function shapeAdvice(expected, got) {
  const without = (shape, d) => [...shape.slice(0, d), ...shape.slice(d + 1)];
  if (got.length + 1 === expected.length)
    for (let d = 0; d < expected.length; d++)
      if (sameShape(without(expected, d), got)) {
        if (expected[d] === 1)
          return { template: "advice.missing_unsqueeze", fields: { d: String(d) } };
        return {
          template: "advice.missing_expand",
          fields: { d: String(d), size: String(expected[d]), sizes: expandSizes(expected, d) },
        };
      }
  if (got.length === expected.length + 1)
    for (let d = 0; d < got.length; d++)
      if (got[d] === 1 && sameShape(without(got, d), expected))
        return { template: "advice.extra", fields: { d: String(d) } };
  if (got.length !== expected.length)
    return {
      template: "advice.rank",
      fields: { got: dimsText(got.length), expected: dimsText(expected.length) },
    };
  const n = got.length;
  if (n >= 2 && sameShape(got, [...expected.slice(0, -2), expected[n - 1], expected[n - 2]])) {
    if (n === 2 && got[0] === 1)
      return { template: "advice.one_row", fields: { count: String(got[1]) } };
    return { template: "advice.swapped", fields: {} };
  }
  const wrong = got.map((s, d) => d).filter((d) => got[d] !== expected[d]);
  const d = wrong[0];
  const fields = { d: String(d), got: String(got[d]), expected: String(expected[d]) };
  if (got[d] === 1 && wrong.length === 1)
    return {
      template: "advice.size_expand",
      fields: { ...fields, sizes: expandSizes(expected, d) },
    };
  return { template: "advice.size", fields };
}

// A piece of a verdict's sentence: a template and its fields (verdict.py's Phrase).
const phrase = (template, fields = {}) => ({ template, fields });

// A fix's result of the wrong shape (fix._expand_advice): differ.shape with the
// advice; where that advice is an expand that would repeat the wrong positions, where
// the index's new axis belongs (found by running the call, as Python does).
function fixShape(payload, got, want) {
  const advice = shapeAdvice(want.shape, got.tensor.shape);
  const shape = {
    lead: phrase("lead.runs_now"),
    what: "the result",
    got_shape: shapeText(got.tensor.shape),
    expected_shape: shapeText(want.shape),
  };
  // the rule of the call's op first, where the case names one (fix._ruled)
  const rule = payload.cases[0].shape_rule;
  const ruled = (fields) => ({
    passed: false,
    template: rule ? "differ.shape_rule" : "differ.shape",
    fields: rule ? { ...fields, rule } : fields,
    misconception: null,
  });
  const said = ruled({ ...shape, advice });
  const index = got.index;
  if (!rule || advice.template !== "advice.size_expand" || payload.call.part !== "index" || !index)
    return said;
  const target = fromPayload(payload.reference).shape;
  const short = index.shape.map((s, d) => d).filter((d) => index.shape[d] === 1 && target[d] !== 1);
  const head = { ...shape, advice: phrase("advice.size", advice.fields) };
  const inputs = inputsOf(payload.cases[0]); // not the run's: its lines may have written into them
  const gives = (code, names) => {
    try {
      return equals(fixedCall(payload, inputs, run(code, names)), payload.cases[0].expected);
    } catch (error) {
      if (error instanceof PyError) return false;
      throw error;
    }
  };
  const sizes = target.join(", ");
  if (short.length !== 1 || gives(`i.expand(${sizes})`, { i: index })) return said;
  const [d, rank] = [short[0], target.length];
  for (let fresh = 0; fresh < rank; fresh++) {
    if (fresh === d || !gives(`i.squeeze(${d}).unsqueeze(${fresh}).expand(${sizes})`, { i: index }))
      continue;
    const at = { dim: String(fresh) };
    const place =
      fresh === 0
        ? phrase("axis.first")
        : fresh === rank - 1
          ? phrase("axis.last")
          : phrase("axis.at", at);
    const along =
      rank === 2 && fresh < 2
        ? phrase(["slice.row", "slice.column"][fresh])
        : phrase("slice.along", at);
    const positions = repr(run(`i.squeeze(${d}).tolist()`, { i: index }));
    return {
      passed: false,
      template: "fix.expand_repeats",
      fields: {
        rule,
        got_shape: shape.got_shape,
        expected_shape: shape.expected_shape,
        advice: head.advice,
        d: String(d),
        along,
        positions,
        place,
        new: String(fresh),
        sizes: expandSizes(target, fresh),
      },
      misconception: null,
    };
  }
  return ruled(head);
}

// The labels a typed answer names (raises.labels_in): any case, "B, D", "BD", "[b]".
// Python's \s has \x1c-\x1f too
// eslint-disable-next-line no-control-regex
const LABEL_SEPARATORS = /[\s\x1c-\x1f,;'"[\]()]+/;

function labelsIn(text, known) {
  const upper = Object.fromEntries(known.map((label) => [label.toUpperCase(), label]));
  const labels = [];
  const add = (label) => labels.includes(label) || labels.push(label);
  for (const part of text.split(LABEL_SEPARATORS)) {
    const word = part.toUpperCase();
    if (!part || word === "NONE") continue;
    if (upper[word]) add(upper[word]);
    else if ([...word].every((letter) => upper[letter]))
      [...word].forEach((letter) => add(upper[letter]));
    else add(part);
  }
  return labels;
}

// ------------------------------------------------------------------ verdicts

const unanswered = (answer) =>
  !answer.trim() || /^\s*([A-Za-z_]\w*\s*=\s*)?\.\.\.\s*$/.test(answer);

// What takes a result off the autograd graph (implement.py's detached check).
const DETACHED = /\.detach\(|\.data\b|\.item\(|\.numpy\(|torch\.tensor\(/;

// The verdict on `answer` (typed text, code, or a chosen label) for `payload`; a
// prediction with an integer beyond 2**53 is refused where the rounding would show.
export function judge(payload, answer) {
  const verdict = judged(payload, answer);
  const big = payload.kind === "predict" && inexact(normalized(answer));
  if (!big) return verdict;
  if (
    !verdict.passed &&
    !render(verdict, payload.templates).includes(String(Number(big.replace(/_/g, ""))))
  )
    return verdict;
  const what = `the integer ${big} (JavaScript's numbers are exact only up to 2**53)`;
  return {
    passed: false,
    template: "page.unsupported_value",
    fields: { what },
    misconception: null,
  };
}

function judged(payload, answer) {
  const labels = (payload.choices ?? []).map((c) => c.label);
  const v = (template, fields) => ({ passed: false, template, fields, misconception: null });
  if (payload.kind !== "implement" && payload.kind !== "fix" && isEllipsis(answer))
    return payload.verdicts.unanswered; // the stub's `prediction = ...` (typed.py)
  if (payload.kind === "choose") {
    const named = readTyped(answer).value ? [] : labelsIn(answer, labels);
    if (named.length !== 1) return v("choose.pick_one", { example: strRepr(labels[0]) });
    const choice = payload.choices.find((c) => c.label === named[0]);
    return choice
      ? choice.verdict
      : v("choose.unknown", { label: strRepr(named[0]), labels: labels.join(", ") });
  }
  if (payload.kind === "raises") {
    const read = readTyped(answer); // text that reads as numbers names no labels
    if (read.value && (!["list", "tuple"].includes(read.value.t) || read.value.items.length))
      return v("raises.not_labels", {
        kind: kindOf(read.value),
        example: pyList(labels.slice(0, 2)),
      });
    return raisesVerdict(payload, read.value ? [] : labelsIn(answer, labels));
  }
  let mine;
  let sized = null; // an implement answer's calls of torch's sizing ops, per case
  if (payload.kind === "predict") {
    // `None`, as the notebook's `prediction = None` (Predict._check)
    if (normalized(answer) === "None") return payload.verdicts.none;
    // the answer as typed.py reads it: a value, or else the text itself (a str)
    const read = readTyped(answer);
    if (read.unsupported) return v("page.unsupported_value", { what: read.unsupported });
    if (read.unreadable) {
      if (new RegExp(payload.raise_words, "i").test(answer)) return payload.verdicts.says_raises;
      return v("differ.not_numbers", { lead: "", what: "Your answer", kind: "a str" });
    }
    const output = outputOf(read.value, true);
    if (!output.tensor) {
      const where = ragged(read.value);
      const fields = { lead: "", what: "Your answer" };
      return where ? v("differ.ragged", { ...fields, ...where }) : v("differ.unreadable", fields);
    }
    mine = [output];
  } else {
    if (unanswered(answer)) return payload.verdicts.unanswered;
    const found = codeOutputs(payload, answer);
    if (found.verdict) return found.verdict;
    if (found.unsupported) return v("page.unsupported", { what: found.unsupported });
    if (found.forbidden) return refused(payload, answer, found);
    if (found.syntax) return v("page.syntax", { error: found.syntax });
    const early = payload.kind === "implement" && typeDifference(payload, found);
    if (early) return truncatedFirst(payload, early, found.outputs) ?? early;
    // the notebook asks that the result come from one of them; an answer that raised
    // before it could call one is told its error, as the notebook does
    const failing = payload.cases.findIndex((c, k) => !equals(found.outputs[k], c.expected));
    if (found.missing && !(failing >= 0 && found.outputs[failing]?.error)) {
      const gathered = gatherNotNd(payload, found.outputs);
      if (gathered) return gathered;
      const short = payload.require[0].split(".").pop();
      return v("implement.not_required", {
        case: payload.cases[0].name,
        names: payload.require.join(" or "),
        short,
      });
    }
    mine = found.outputs;
    sized = found.sized;
  }
  const cases = payload.cases;
  if (cases.every((c, k) => equals(mine[k], c.expected))) {
    // the page runs no autograd: a result copied off the graph is seen in the code
    const unwritten = payload.kind === "implement" && unwrittenEntry(payload, answer, mine[0]);
    if (unwritten) return unwritten;
    if (payload.gradient && DETACHED.test(answer))
      return v("implement.detached", {
        input: payload.gradient,
        why: "your result has requires_grad=False",
      });
    return payload.passed;
  }
  const named = mistakeOf(payload, answer, mine);
  return payload.kind === "implement" ? sizedByOp(payload, named, mine, sized) : named;
}

// The verdict on a wrong answer's outputs (`mine`): a misconception's, or else what is
// known (judged's last part, which implement._explain's found is)
function mistakeOf(payload, answer, mine) {
  const v = (template, fields) => ({ passed: false, template, fields, misconception: null });
  const cases = payload.cases;
  const grid = payload.kind === "implement" && meshgridXY(payload, answer, mine);
  if (grid) return grid;
  const misread = payload.kind === "implement" && misreadArgument(payload, answer, mine);
  if (misread) return misread;
  const slots = payload.kind === "implement" && uniqueSlots(payload, answer, mine);
  if (slots) return slots;
  const shared = payload.kind === "implement" && sharedInPlace(payload, answer, mine);
  if (shared) return shared;
  const floored = payload.kind === "implement" && floorDivided(payload, answer, mine);
  if (floored) return floored;
  // the misconceptions in the order the cases list them: entry j of every case is one
  // candidate (an id may have several, its variants), which must match on every case
  const candidates = cases[0].misconceptions;
  for (let j = 0; j < candidates.length; j++) {
    if (cases.every((c, k) => equals(mine[k], c.misconceptions[j].output, c.expected)))
      return shortByOwnCall(
        indexGrid(
          keptByOwnOp(
            includeSelfFirst(
              lostWhere(payload.misconceptions[candidates[j].id], mine.calls),
              mine.calls,
            ),
            mine.calls,
          ),
          mine.grids?.[cases.findIndex((c, k) => !equals(mine[k], c.expected))],
        ),
        mine.calls,
      );
  }
  // implement._tf_subscript: a TensorFlow tensor's [] given a tensor of positions
  const failing = cases.findIndex((c, k) => !equals(mine[k], c.expected));
  if (payload.kind === "implement" && mine[failing]?.error?.tfSubscript)
    return {
      passed: false,
      template: "implement.tf_subscript",
      fields: { case: cases[failing].name },
      misconception: null,
    };
  if (payload.kind === "fix" && payload.call.part === "index" && onlyZeros(mine.answered, payload))
    return v("fix.index_all_zeros", { name: payload.call.answer });
  const repaired = payload.kind === "implement" && repairedStep(payload, answer, mine);
  return repaired || fallback(payload, mine);
}

// implement._short_by_own_call: a count cut at the largest id told the answer's own way
// to it, where it called bincount or the ids' max (not both)
function shortByOwnCall(verdict, calls) {
  const how = verdict.fields?.how;
  if (verdict.template !== "mc.short-count" || how?.template !== "short.how_either") return verdict;
  const torch = [...(calls ?? [])].filter((name) => name.startsWith("torch."));
  const names = new Set(torch.map((name) => name.split(".").pop()));
  const counted = names.has("bincount");
  const maxed = names.has("max") || names.has("amax");
  if (counted === maxed) return verdict;
  const mine = counted ? phrase("short.how_bincount") : phrase("short.how_max", how.fields);
  return { ...verdict, fields: { ...verdict.fields, how: mine } };
}

// implement._index_grid: every row written at every position by a subscript whose index
// tensors broadcast to a grid (arange(n) with an (n, 1) column): that broadcasting named
function indexGrid(verdict, grids) {
  if (
    verdict.misconception !== "write-every-row" ||
    verdict.fields?.what?.template !== "every_row.all"
  )
    return verdict;
  if (!grids?.length) return verdict;
  const { shapes, grid } = grids.at(-1);
  const what = phrase("every_row.grid", {
    shapes: shapes.map(shapeText).join(" and "),
    grid: shapeText(grid),
  });
  return { ...verdict, fields: { ...verdict.fields, what, why: phrase("every_row.grid_why") } };
}

// implement._kept_by_own_op: a repeated position kept as one write is told the one
// overwriting op the answer called, not every such op (OVERWRITE_WORDS)
const OVERWRITE_WORDS = {
  __setitem__: "indexed assignment",
  scatter: "scatter_",
  index_put: "index_put_ without accumulate=True",
  index_copy: "index_copy_",
  put: "put_ without accumulate=True",
};
const OVERWRITES = new Set([
  "torch.Tensor.__setitem__",
  ...["scatter", "index_put", "index_copy", "put"].flatMap((op) => [
    `torch.${op}`,
    `torch.Tensor.${op}`,
    `torch.Tensor.${op}_`,
  ]),
]);
function keptByOwnOp(verdict, calls) {
  const rule = verdict.fields?.rule;
  if (verdict.template !== "mc.kept-one-write" || rule?.template !== "kept.rule") return verdict;
  const ops = new Set(
    [...(calls ?? [])]
      .filter((name) => OVERWRITES.has(name))
      .map((name) => {
        const last = name.split(".").pop();
        return OVERWRITE_WORDS[last.startsWith("__") ? last : last.replace(/_$/, "")];
      }),
  );
  if (ops.size !== 1) return verdict;
  return {
    ...verdict,
    fields: { ...verdict.fields, rule: phrase("kept.rule_op", { op: [...ops][0] }) },
  };
}

// implement._include_self_first: a mean over zeros that counted each old 0 (whose value
// cannot tell include_self=True from counts started at 1) made by an answer that called
// scatter_reduce or index_reduce: their default include_self=True is named first
function includeSelfFirst(verdict, calls) {
  const { mixes, cause } = verdict.fields ?? {};
  if (verdict.misconception !== "include-self-mixed" || mixes?.template !== "self_mixed.count")
    return verdict;
  const names = [...(calls ?? [])].map((name) => name.split(".").pop().replace(/_$/, ""));
  const ops = ["index_reduce", "scatter_reduce"].filter((op) => names.includes(op));
  if (!ops.length || cause?.template === undefined) return verdict;
  return {
    ...verdict,
    fields: {
      ...verdict.fields,
      mixes: phrase("self_mixed.count_include", { op: ops[0] }),
      cause: phrase("self_mixed.pass_false", { parts: cause.fields.parts }),
    },
  };
}

// implement._passes_changed: where the answer passes every case with one of its ops run
// changed (flag.on: the interpreter notes each such op in flag[noted]), that op is its one
// mistake: the failing case is run alone first, to see whether the code has one
function passesChanged(payload, answer, mine, flag, noted, template) {
  const cases = payload.cases;
  const failing = cases.findIndex((c, k) => !equals(mine[k], c.expected));
  if (failing < 0) return null;
  flag.on = true;
  flag[noted] = [];
  try {
    codeOutputs({ ...payload, cases: [cases[failing]] }, answer);
    const op = flag[noted][0];
    if (!op) return null;
    const again = codeOutputs(payload, answer).outputs;
    if (!again || !cases.every((c, k) => equals(again[k], c.expected))) return null;
    return {
      passed: false,
      template,
      fields: { case: cases[failing].name, op },
      misconception: null,
    };
  } finally {
    flag.on = false;
  }
}

// implement._shared_in_place: two in-place writes into one buffer (an in-place op returns
// the tensor it wrote into), each later write given a copy of the buffer as it was
const sharedInPlace = (payload, answer, mine) =>
  passesChanged(payload, answer, mine, SEPARATE, "ops", "implement.in_place_shared");

// implement._floor_divided: a floor division where a true one is due (TRUE_FLOORS runs
// torch's floor divisions as true ones)
const floorDivided = (payload, answer, mine) =>
  passesChanged(payload, answer, mine, TRUE_FLOORS, "used", "implement.floor_divided");

// implement._refused: an answer that called a forbidden op is judged once more with the
// ban lifted; where it is wrong even so, that mistake comes first and the ban after it
const NO_MISTAKE = [
  "implement.not_implemented",
  "implement.raised",
  "implement.not_required", // the ban's own point: the op the exercise asks for
  "page.unsupported",
  "page.syntax",
];
function refused(payload, answer, found) {
  const banned = {
    passed: false,
    template: "implement.forbidden",
    fields: { case: found.case, name: found.forbidden },
    misconception: null,
  };
  const lifted = judged({ ...payload, forbid: [] }, answer);
  if (
    lifted.passed ||
    lifted === payload.verdicts.unanswered ||
    NO_MISTAKE.includes(lifted.template)
  )
    return banned;
  return {
    passed: false,
    template: "implement.forbidden_also",
    fields: { mistake: phrase(lifted.template, lifted.fields), name: found.forbidden },
    misconception: lifted.misconception,
  };
}

// sizing.sized_by_op, for the torch ops the page runs (torch.nn.functional.one_hot,
// torch.bincount): a result of the wrong size along the ids' dim, or a one-hot's error
// for a label past the width it was given, told that op's size rule, in place of a
// verdict that names no other mistake (implement._sized_by_op)
const SIZE_BELIEFS = [null, "short-count", "short-count-raises", "write-into-source"];
const ONE_HOTS = ["torch.nn.functional.one_hot"];
const GIVEN_RULES = { "torch.nn.functional.one_hot": "width", "torch.bincount": "minlength" };
function sizedByOp(payload, found, mine, sized) {
  if (!sized || !SIZE_BELIEFS.includes(found.misconception ?? null)) return found;
  if (found.template === "repaired") return found;
  const cases = payload.cases;
  const k = cases.findIndex((c, i) => !equals(mine[i], c.expected));
  const ids = cases[k]?.ids;
  const noted = sized[k] ?? [];
  if (!ids || !noted.length || cases[k].expected.error) return found;
  const note = sizingNote(ids, mine[k], fromPayload(cases[k].expected), noted);
  if (!note) return found;
  const [call, size] = note;
  const slot = ONE_HOTS.includes(call.op) ? "column" : "slot";
  const words = {
    op: call.op,
    param: call.param,
    count: ids.count,
    full: String(ids.full),
    size: String(size),
    index: ids.index,
    slot,
    past: phrase(call.op === "torch.bincount" ? "size_past.extends" : "size_past.raises"),
  };
  let rule;
  let fix;
  // a minlength below the largest id + 1 is given all the same
  if (call.given !== null && (call.given === size || call.param === "minlength")) {
    const last = noted.at(-1).op;
    const others = cases
      .map((c, i) => [c, (sized[i] ?? []).filter((n) => n.op === last).at(-1)])
      .filter(([c, n], i) => i !== k && !c.expected.error && c.ids && n);
    const what = sizeWhat([[cases[k], call], ...others]);
    words.what = what
      ? picked(payload, `size_what.${what}`, { given: String(call.given), ...words })
      : String(call.given);
    [rule, fix] = [GIVEN_RULES[call.op], "given"];
  } else if (ids.top + 1 === size) {
    words.how = phrase("size_how.largest");
    [rule, fix] = ["inferred_short", "inferred"];
  } else return found;
  const keep = ["short-count", "short-count-raises"].includes(found.misconception);
  // short-count's own words name bincount without minlength
  if (keep && noted.at(-1).op === "torch.bincount" && rule === "inferred_short") return found;
  const error = mine[k].error;
  return {
    passed: false,
    template: "implement.sized_by_op",
    fields: {
      case: cases[k].name,
      raised: error ? phrase("size_raised", { error: error.type }) : "",
      rule: picked(payload, `size_rule.${rule}`, words),
      fix: picked(payload, `size_fix.${fix}`, words),
    },
    misconception: keep ? found.misconception : null,
  };
}

// sizing.sizing_note: the call whose size explains the wrong result (sized as it along
// the ids' dim, all else right) or the error (a label past a one-hot's given width)
function sizingNote(ids, got, want, noted) {
  const { full, dim } = ids;
  if (got.error) {
    const raised = [...noted].reverse().find((n) => n.raised);
    if (!raised || !ONE_HOTS.includes(raised.op)) return null;
    return raised.given !== null && raised.given < full ? [raised, raised.given] : null;
  }
  const shape = got.tensor?.shape;
  const wanted = want.shape;
  if (!shape || !wanted || shape.length !== wanted.length || shape[dim] === full) return null;
  if (shape.some((n, d) => d !== dim && n !== wanted[d])) return null;
  const note = [...noted].reverse().find((n) => !n.raised && n.size === shape[dim]);
  return note ? [note, shape[dim]] : null;
}

// sizing._what: what the given sizes were on every case: one more than the count, the
// distinct ids, the largest id, the number of ids, the largest id + 1 (or both)
function sizeWhat(pairs) {
  let common = null;
  for (const [testCase, note] of pairs) {
    if (note.given === null) continue;
    const { full, top, distinct, length } = testCase.ids;
    const values = { over: full + 1, largest: top + 1, top, distinct, length };
    const found = Object.keys(values).filter((name) => values[name] === note.given);
    common = common === null ? found : common.filter((name) => found.includes(name));
    if (!common.length) return "";
  }
  if (!common?.length) return "";
  for (const key of ["over", "distinct", "top", "length", "largest"])
    if (common.includes(key) && (key !== "largest" || !common.includes("distinct"))) return key;
  return "both";
}

// verdict.picked: the phrase of a template with the fields of `known` it names
function picked(payload, template, known) {
  const names = [...payload.templates[template].matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
  return phrase(template, Object.fromEntries(names.map((name) => [name, known[name]])));
}

// fix._only_zeros: an index of several entries, all 0, where the right one is not: the
// zeros a buffer was made of, which no write reached
function onlyZeros(value, payload) {
  if (value?.t !== "tensor" || value.data.length < 2 || isFloat(value.dtype)) return false;
  if (value.dtype === "bool") return false;
  const zero = (data) => data.every((x) => Number(x) === 0);
  return zero(value.data) && !zero(fromPayload(payload.reference).data);
}

// implement._lost_where: a write lost is told where it went: an out-of-place op's
// dropped result only where the code called one (that op named), else a copy
function lostWhere(verdict, calls) {
  const how = verdict.fields?.how;
  const told = ["lost.out_of_place", "lost.copy"].includes(how?.template);
  if (verdict.misconception !== "write-lost" || !told || !calls) return verdict;
  const called = new Set([...calls].map((name) => name.split(".").pop()));
  if (called.has(how.fields?.out)) return verdict;
  const out = [...OUT_OF_PLACE].filter((op) => called.has(op)).sort()[0];
  const where = out
    ? { template: "lost.out_of_place", fields: { out } }
    : { template: "lost.copy", fields: {} };
  return { ...verdict, fields: { ...verdict.fields, how: where } };
}
// patching.OUT_OF_PLACE: the writing ops' out-of-place forms
export const OUT_OF_PLACE = new Set([
  "index_add",
  "index_copy",
  "index_fill",
  "index_put",
  "put",
  "scatter_reduce",
  "masked_scatter",
  "masked_fill",
  "scatter",
  "scatter_add",
]);

// implement._meshgrid_xy: a grid built by a meshgrid in "xy" mode (tf.meshgrid's
// default) where the answer passes every case with each such meshgrid in "ij" mode
function meshgridXY(payload, answer, mine) {
  if (!MESHGRID.xy.length) return null; // the answer's run made none
  MESHGRID.ij = true;
  let again;
  try {
    again = codeOutputs(payload, answer).outputs;
  } finally {
    MESHGRID.ij = false;
  }
  const cases = payload.cases;
  if (!MESHGRID.xy.length || !again || !cases.every((c, k) => equals(again[k], c.expected)))
    return null;
  const failing = cases.findIndex((c, k) => !equals(mine[k], c.expected));
  const { call, how } = MESHGRID.xy[0];
  return {
    passed: false,
    template: "implement.meshgrid_xy",
    fields: { case: cases[failing].name, call, how },
    misconception: null,
  };
}

// implement._gather_not_nd: tf.gather called where tf.gather_nd is required, its result
// of another shape: tf.gather reads each index entry as one position, no coordinates
function gatherNotNd(payload, outputs) {
  if (!payload.require.includes("tensorflow.gather_nd")) return null;
  const got = outputs[0]?.tensor;
  const want = fromPayload(payload.cases[0].expected);
  if (!outputs.calls?.has("tensorflow.gather") || !got || !want?.shape) return null;
  if (shapeText(got.shape) === shapeText(want.shape)) return null;
  const fields = {
    case: payload.cases[0].name,
    made: shapeText(got.shape),
    expected: shapeText(want.shape),
  };
  return { passed: false, template: "implement.gather_not_nd", fields, misconception: null };
}

// implement._misread_argument: an op's argument misread (argreads.MISREADS; the page runs
// tf.gather_nd's batch_dims=1 and tf.gather's axis other than its batch_dims), where the answer passes every case once that
// argument is changed; the first call of the failing case's run names it
function misreadArgument(payload, answer, mine) {
  const cases = payload.cases;
  const failing = cases.findIndex((c, k) => !equals(mine[k], c.expected));
  if (failing < 0) return null;
  let noted, again;
  try {
    codeOutputs({ ...payload, cases: [cases[failing]] }, answer); // is there one?
    noted = MISREAD.noted[0];
    if (noted) {
      MISREAD.change = true;
      again = codeOutputs(payload, answer).outputs;
    }
  } finally {
    MISREAD.change = false;
  }
  if (!noted || !again || !cases.every((c, k) => equals(again[k], c.expected))) return null;
  const fields = { case: cases[failing].name, op: noted.op };
  if (noted.template === "argread.read_axis")
    Object.assign(fields, {
      given: noted.given,
      shape: shapeText(noted.shape),
      right: noted.right,
    });
  return { passed: false, template: noted.template, fields, misconception: null };
}

// implement._counted_slots, the form the page runs: torch.unique's ids present taken for
// every id (enumerate(ids.unique()) as the class's column), where the answer passes every
// case with each unique listing every id 0..count-1; not where the learner's run raised
// (a size from len(ids.unique()): the fallback's sizedFromIds names it)
function uniqueSlots(payload, answer, mine) {
  const cases = payload.cases;
  const failing = cases.findIndex((c, k) => !equals(mine[k], c.expected));
  if (failing < 0 || mine[failing]?.error) return null;
  UNIQUE.on = true;
  UNIQUE.present = [];
  let again, present;
  try {
    const alone = { ...payload, cases: [cases[failing]] };
    codeOutputs(alone, answer); // first the case alone: is there one?
    present = UNIQUE.present[0];
    if (present) again = codeOutputs(payload, answer).outputs;
  } finally {
    UNIQUE.on = false;
    UNIQUE.size = null;
  }
  if (!present || !again || !cases.every((c, k) => equals(again[k], c.expected))) return null;
  const ids = cases[failing].ids;
  const phrase = (template) => ({ template, fields: {} });
  return {
    passed: false,
    template: "implement.slots_present",
    fields: {
      case: cases[failing].name,
      call: "torch.unique",
      present: present.join(", ") || "none",
      order: phrase("slots.sorted"),
      what: phrase("slots.plain"),
      index: String(ids.index),
      count: String(ids.count),
      last: String(ids.full - 1),
    },
    misconception: null,
  };
}

// implement._unwritten: a result right only because torch.empty's memory held zeros,
// found by running the answer again with empty memory holding ones
function unwrittenEntry(payload, answer, first) {
  EMPTY_FILL.value = 1;
  let again;
  try {
    again = outputsOf({ ...payload, cases: payload.cases.slice(0, 1) }, answer).outputs?.[0];
  } finally {
    EMPTY_FILL.value = 0;
  }
  const [a, b] = [first?.tensor, again?.tensor];
  if (!a || !b || a.shape.join() !== b.shape.join()) return null;
  const flat = a.data.findIndex(
    (value, k) => value !== b.data[k] && !(value !== value && b.data[k] !== b.data[k]),
  );
  if (flat < 0) return null;
  return {
    passed: false,
    template: "implement.unwritten",
    fields: { case: payload.cases[0].name, where: entry("out", unravel(flat, a.shape)) },
    misconception: null,
  };
}

// implement.revoiced: a verdict whose every `yours` (its phrases' too) names the repaired
// run's result, which the learner's function never returned (it raised)
const REPAIRED_YOURS = "the repaired result";
function revoiced(verdict) {
  const fields = {};
  for (const [name, value] of Object.entries(verdict.fields)) {
    if (name === "yours") fields[name] = REPAIRED_YOURS;
    else if (value && typeof value === "object" && "template" in value)
      fields[name] = revoiced(value);
    else fields[name] = value;
  }
  return { ...verdict, fields };
}

// implement._repaired: an answer built in several steps and stopped by an error (a float
// index, a value of another dtype), run again with that slip repaired: a mistake its
// later steps make, which a misconception names on every case, is named after the error
// (repaired); null where the error was its one mistake, or no misconception names the rest.
function repairedStep(payload, answer, mine) {
  if (!mine.some((out) => out.error)) return null;
  const again = codeOutputs(payload, answer, true).outputs;
  const cases = payload.cases;
  if (!again || cases.every((c, k) => equals(again[k], c.expected))) return null;
  const candidates = cases[0].misconceptions;
  const j = candidates.findIndex((_, n) =>
    cases.every((c, k) => equals(again[k], c.misconceptions[n].output, c.expected)),
  );
  if (j < 0) return null;
  const second = revoiced(payload.misconceptions[candidates[j].id]);
  const first = fallback(
    payload,
    mine,
    mine.findIndex((out) => out.error),
  );
  return {
    passed: false,
    template: "repaired",
    fields: {
      first: phrase(first.template, first.fields),
      second: phrase(second.template, second.fields),
    },
    misconception: second.misconception,
  };
}

// implement._truncated: a result of the wrong dtype whose values are the values
// truncated (values.long() before the op) is told the truncation, where the first
// misconception matching every case is values-truncated; before any dtype verdict
// typeDifference refines (a cast, a default, a buffer's given dtype), as Python
// tries the truncation before its refinements
function truncatedFirst(payload, early, outputs) {
  if (!early.template.startsWith("differ.dtype")) return null;
  const candidates = payload.cases[0].misconceptions;
  for (let j = 0; j < candidates.length; j++) {
    if (payload.cases.every((c, k) => equals(outputs[k], c.misconceptions[j].output, c.expected)))
      return candidates[j].id === "values-truncated"
        ? payload.misconceptions[candidates[j].id]
        : null;
  }
  return null;
}

// implement._python_only's strict checks (compare.differences) on the first case the
// result fails: None; a tensor not from the required function is left to
// implement.not_required; then the framework and the dtype.
const FRAMEWORKS = { torch: "a torch.Tensor", tf: "a TensorFlow tensor" };
function typeDifference(payload, found) {
  const k = found.missing
    ? 0
    : payload.cases.findIndex(
        (c, i) => !equals(found.outputs[i], c.expected) || !sameType(found.outputs[i], c.expected),
      );
  const [testCase, got] = [payload.cases[k], found.outputs[k]];
  if (k < 0 || testCase.expected.error || got.error) return null;
  // implement.Implement.dtype_due: why the dtype due is due, where a buffer or a
  // default is named
  const due = payload.dtype_due ?? "";
  const v = (template, fields = {}) => ({
    passed: false,
    template,
    fields: { lead: phrase("lead.case", { case: testCase.name }), what: "your result", ...fields },
    misconception: null,
  });
  if (got.other?.t === "none") return v("differ.returned_none");
  if (found.missing && got.tensor) return null; // implement.not_required says it
  const framework = got.tensor ? (got.tensor.lib === "tf" ? "tensorflow" : "torch") : null;
  if (framework !== payload.framework)
    return v(`differ.framework_${payload.framework}`, {
      kind: got.tensor ? FRAMEWORKS[got.tensor.lib] : kindOf(got.other),
    });
  const expected = fromPayload(testCase.expected).dtype;
  // implement._python_numbers: Python numbers converted without a dtype made the
  // float32 (int32) where NumPy's float64 (int64) is due
  const numpy = { float32: "float64", int32: "int64" }[got.tensor.dtype];
  const made = (found.floats?.[k] ?? []).find((c) => c.dtype === got.tensor.dtype);
  if (made && numpy === expected)
    return v("differ.dtype_python_numbers", {
      got: got.tensor.dtype,
      expected,
      call: made.call,
      numbers: got.tensor.dtype === "float32" ? "floats" : "ints",
      dtype: `${made.call.split(".")[0]}.${expected}`,
    });
  // implement._cast: the result returned by a dtype conversion of the learner's
  const cast = found.casts?.[k];
  if (cast && got.tensor.dtype !== expected && CAST_OF[expected])
    return v("differ.dtype_cast", {
      got: got.tensor.dtype,
      expected,
      call: cast,
      fix: CAST_OF[expected],
    });
  // implement._bool_result: True / False where numbers are due
  if (got.tensor.dtype === "bool" && CAST_OF[expected])
    return v("differ.dtype_bool", { got: "bool", expected, fix: CAST_OF[expected] });
  // implement._default_dtype: a result of torch.ones / empty / eye's float32, the
  // first op to make it (torch.zeros: below)
  const first = found.defaults?.[k];
  if (got.tensor.dtype === "float32" && expected !== "float32" && TORCH_DEFAULTS.has(first))
    return v("differ.dtype_default_torch", { got: "float32", expected, call: first, due });
  // implement._default_dtype: a write's buffer (or a read's output) made by
  // torch.zeros without a dtype
  const template = payload.dtype_template ?? "differ.dtype";
  const zeroed = {
    "differ.dtype_write": "differ.dtype_write_zeros",
    "differ.dtype": "differ.dtype_read_zeros",
  };
  const zeros = Boolean(zeroed[template]) && got.tensor.dtype === "float32";
  if (got.tensor.dtype === expected) return null;
  const fields = { got: got.tensor.dtype, expected };
  if (zeros && found.zeros?.[k]) return v(zeroed[template], { ...fields, due });
  // implement._given_dtype: the write's buffer, made with the dtype given
  const maker = found.given?.[k];
  if (template === "differ.dtype_write" && maker)
    return v("differ.dtype_write_given", { ...fields, call: maker, due });
  return v(template, fields);
}
// patching.TORCH_DEFAULT_DTYPE_OPS
const TORCH_DEFAULTS = new Set(["torch.ones", "torch.empty", "torch.eye"]);
// implement.CAST_OF: the conversion to each dtype a result may be due in
const CAST_OF = {
  int64: ".long()",
  int32: ".int()",
  float32: ".float()",
  float64: ".double()",
  bool: ".bool()",
};
const sameType = (output, want) =>
  want.error || (output.tensor && output.tensor.dtype === fromPayload(want).dtype);

// compare.py's _ragged: where nested lists stop being rectangular, as differ.ragged's
// phrases here, here_has, there, there_has.
const length = (value) => (["list", "tuple"].includes(value.t) ? value.items.length : null); // null: a number
const entries = (value) =>
  length(value) === null
    ? phrase("entries.number")
    : length(value) === 1
      ? phrase("entries.one")
      : phrase("entries.many", { count: String(length(value)) });
const place = (path) =>
  path.length === 1
    ? phrase("place.row", { row: String(path[0]) })
    : phrase("place.entry", { path: path.map((i) => `[${i}]`).join("") });

function ragged(value, path = []) {
  if (!length(value)) return null;
  const first = value.items[0];
  for (const [i, item] of value.items.entries())
    if (length(item) !== length(first))
      return {
        here: place([...path, i]),
        here_has: entries(item),
        there: place([...path, 0]),
        there_has: entries(first),
      };
  for (const [i, item] of value.items.entries()) {
    const found = ragged(item, [...path, i]);
    if (found) return found;
  }
  return null;
}

// compare.py's kind_of, for the values a typed answer reads as.
const KINDS = { int: "an int", float: "a float", bool: "a bool", list: "a list", tuple: "a tuple" };
const kindOf = (value) =>
  value.t === "tensor" ? "a NumPy array" : (KINDS[value.t] ?? `a ${value.t}`);
const pyList = (words) => `[${words.map(strRepr).join(", ")}]`;

// The verdict on the labels named: page.py's, stored for every set of labels (the
// several misjudged calls' rules are worded together, raises.several_wrong).
function raisesVerdict(payload, labels) {
  const known = payload.choices.map((c) => c.label);
  const unknown = labels.filter((l) => !known.includes(l)).sort();
  if (unknown.length)
    return {
      passed: false,
      template: "raises.unknown",
      fields: { label: strRepr(unknown[0]), labels: known.join(", ") },
      misconception: null,
    };
  const key = known.filter((l) => labels.includes(l)).join("");
  return payload.answers[key] ?? payload.passed;
}

// The rule an error breaks, from the one table of error rules (error_rules.mjs): its
// meaning and fix; null where no rule recognises it (implement.explained_error).
function explainedError(error, called, params = null) {
  const detail = error.message ?? "";
  // a call of the learner's own function with other arguments than it takes breaks
  // no rule of an op
  if (detail.startsWith(`${called}()`)) return null;
  // the writing op or subscript that raised it gives the table its op, dim and shapes
  // an error no call gives shapes to (a TensorFlow op's): the shape of the case's params
  const known = error.failed ?? (params ? { shapes: { params } } : {});
  const found = detail ? explain(detail, known) : null;
  if (!found || !found.recognised || !found.meaning) return null;
  return { error: error.type, meaning: found.meaning, fix: found.fix };
}

// implement.SEGMENT_OUT_OF_RANGE: TensorFlow's words for an id not below num_segments
const SEGMENT_OUT_OF_RANGE = /segment_ids\[[\d,]+\] = -?\d+ is out of range \[0, \d+\)/;

// writes.sized_from_ids: an error of a position off the end of a tensor with fewer
// slots than the count, as many as the largest id or as the distinct ids (a width of
// labels.max(), a count of the distinct ids); the fields of implement.raised_sized, or
// null. The words give the position and the size, or (index_add_'s) the failing call's.
const OUT_OF_RANGE = [
  /index (?<position>-?\d+) is out of bounds for dimension \d+ with size (?<size>\d+)/,
  /\] = (?<position>-?\d+) is outside 0\.\.(?<last>-?\d+)/,
  /segment_ids\[[\d,]+\] = (?<position>-?\d+) is out of range \[0, (?<size>\d+)\)/,
];
const OFF_THE_SHAPE =
  /indices\[[\d,]+\] = \[(?<coordinate>[-\d, ]+)\] does not index into shape \[(?<shape>[\d,]*)\]/;
const NO_SIZE_GIVEN = "index out of range in self";

function offTheShape(message) {
  const found = message.match(OFF_THE_SHAPE);
  if (!found) return null;
  const coordinate = found.groups.coordinate.split(",").map(Number);
  const shape = found.groups.shape.split(",").filter(Boolean).map(Number);
  for (let axis = 0; axis < Math.min(coordinate.length, shape.length); axis++)
    if (!(coordinate[axis] >= 0 && coordinate[axis] < shape[axis]))
      return [axis, coordinate[axis], shape[axis]];
  return null;
}

function writtenSize(failed) {
  if (!failed || !Number.isInteger(failed.dim) || !failed.shapes?.input) return null;
  const shape = failed.shapes.input;
  if (failed.dim < -shape.length || failed.dim >= shape.length) return null;
  return shape[(failed.dim + shape.length) % shape.length];
}

function sizedFromIds(ids, error, least = 1) {
  if (!ids) return null;
  const message = error.message ?? "";
  let [position, along, size] = [null, null, writtenSize(error.failed)];
  const found = OUT_OF_RANGE.map((pattern) => message.match(pattern)).find(Boolean);
  if (found) {
    const named = found.groups;
    position = Number(named.position);
    size = named.size !== undefined ? Number(named.size) : Number(named.last) + 1;
  } else {
    const off = offTheShape(message);
    if (off) [along, position, size] = off;
    else if (!message.includes(NO_SIZE_GIVEN)) return null;
  }
  if (along !== null && along !== ids.dim) return null;
  if (size === null || size >= ids.full || size < least) return null;
  if (position !== null && position >= 0 && position < size) return null;
  const [largest, counted] = [size === ids.top, size === ids.distinct];
  if (!largest && !counted) return null;
  const which = largest && counted ? "sized.both" : largest ? "sized.largest" : "sized.distinct";
  return {
    slots: size === 1 ? "1 slot" : `${size} slots`,
    dim: String(ids.dim),
    which: {
      template: which,
      fields:
        which === "sized.distinct"
          ? { index: String(ids.index) }
          : { index: String(ids.index), top: String(ids.top) },
    },
    top: String(ids.top),
    need: String(ids.top + 1),
    index: String(ids.index),
    count: String(ids.count),
    full: String(ids.full),
  };
}

// What is known when nothing matches, on the first case that differs (page.py's
// fallback): a shape, or the first wrong coordinate and what it should read. An error,
// or a value where the case must raise, is worded by the page (the notebook words it
// with what only Python sees: the rule the call broke, the exercise's hints).
// fix._unchanged_one_dim: the name of the notebook's 1-D tensor a 1-D index answer
// equals in shape, dtype and values, where the call broke the rank rule; else null
function unchangedOneDim(payload, answer, got) {
  if (got.error.rule !== "rank-mismatch" || answer?.t !== "tensor" || answer.shape.length !== 1)
    return null;
  const inputs = inputsOf(payload.cases[0]);
  for (const name of payload.args) {
    const value = inputs[name];
    if (
      value?.t === "tensor" &&
      value.shape.length === 1 &&
      value.dtype === answer.dtype &&
      Number(value.shape[0]) === Number(answer.shape[0]) &&
      Array.from(value.data).every((x, k) => Number(x) === Number(answer.data[k]))
    )
      return name;
  }
  return null;
}

function fallback(payload, mine, at = -1) {
  const {
    template,
    reads_template: readsTemplate,
    shape_template: shapeTemplate,
  } = payload.fallback;
  // the first case that differs, or the one asked for (repairedStep: the first that raised)
  const k = at >= 0 ? at : payload.cases.findIndex((c, i) => !equals(mine[i], c.expected));
  const testCase = payload.cases[k];
  const got = mine[k];
  const want = testCase.expected;
  const base = payload.kind === "implement" ? { case: testCase.name } : {};
  const v = (id, fields) => ({
    passed: false,
    template: id,
    fields: { ...base, ...fields },
    misconception: null,
  });
  const kind = payload.kind === "fix" ? "fix" : "implement";
  // oprules.names_no_op: an answer that never called the read's op is told its rules
  // naming no op (the case's rule_any, shape_rule_any)
  const neutral =
    "rule_any" in testCase &&
    mine.calls &&
    ![...mine.calls].some((name) => name.split(".").pop() === payload.read_op);
  const rule = neutral ? testCase.rule_any : testCase.rule;
  const shapeRule = neutral ? testCase.shape_rule_any : testCase.shape_rule;
  if (want.error)
    // the notebook's words where the payload has them (page.py's must_raise)
    return (
      testCase.must_raise ??
      v(`${kind}.must_raise_type`, {
        error: want.error.type === "Error" ? "an error" : want.error.type,
      })
    );
  if (got.error) {
    const error = `${got.error.type}${got.error.message ? `: ${got.error.message}` : ""}`;
    if (kind === "fix" && !got.error.rule)
      return v("fix.still_broken_error", { error: error.replace(/\.$/, "") });
    // fix._unchanged_one_dim: the notebook's 1-D tensor as it was (targets.T)
    const same = kind === "fix" && got.error.hint && unchangedOneDim(payload, mine.answered, got);
    if (same)
      return v("fix.still_one_dim", {
        name: same,
        shape: shapeText(mine.answered.shape),
        problem: got.error.message,
        hint: got.error.hint,
      });
    if (kind === "fix" && got.error.hint)
      return v("fix.still_broken_rule_hint", { problem: got.error.message, hint: got.error.hint });
    if (kind === "fix") return v("fix.still_broken_rule", { problem: got.error.message });
    const hint = payload.error_hint; // the exercise's hint for this error (ErrorHint)
    if (hint && error.includes(hint.contains))
      return v(hint.template, { error, ...testCase.hint_fields });
    // implement._divided_index: a float index made by a true division of integers
    if (got.error.call && got.error.divided && FLOAT_INDEX.test(got.error.message))
      return v("implement.raised_float_division", { error: got.error.type, call: got.error.call });
    // writes.sized_from_ids: a tensor sized from the ids where the count was due
    // on every valid case that raised, as implement._sized_on_every_case asks
    const sized =
      payload.cases.every(
        (c, i) => !mine[i]?.error || c.expected?.error || sizedFromIds(c.ids, mine[i].error, 0),
      ) && sizedFromIds(testCase.ids, got.error);
    // TensorFlow's unsorted segment ops: num_segments is the output's size
    const template = SEGMENT_OUT_OF_RANGE.test(got.error.message ?? "")
      ? "implement.raised_segments"
      : "implement.raised_sized";
    if (sized) return v(template, { error: got.error.type, ...sized });
    if (got.error.call) {
      // the rule the call broke, as implement.py words it
      const fields = { error: got.error.type, call: got.error.call, problem: got.error.message };
      if (got.error.hint)
        return v("implement.raised_rule_hint", { ...fields, hint: got.error.hint });
      return v("implement.raised_rule", fields);
    }
    const called = payload.id.split(".").pop(); // the function the check calls
    // implement.explained_error
    const explained = explainedError(got.error, called, testCase.params_shape ?? null);
    if (explained) return v("implement.raised_explained", explained);
    return v("implement.raised", { error });
  }
  if (!got.tensor) return v(`${kind}.not_a_tensor`, { value: repr(got.other) });
  const w = fromPayload(want);
  if (kind === "fix" && !sameShape(got.tensor.shape, w.shape)) return fixShape(payload, got, w);
  const shapes = { got_shape: shapeText(got.tensor.shape), expected_shape: shapeText(w.shape) };
  // the rule of the op first, where the case names one (oprules, page.py's _with_rules)
  if (!sameShape(got.tensor.shape, w.shape))
    return shapeRule
      ? v(payload.fallback.rule_shape_template, { ...shapes, rule: shapeRule })
      : v(shapeTemplate, shapes);
  const flat = got.tensor.data.findIndex((x, i) => !close(Number(x), Number(w.data[i])));
  // a gradient's coordinate is on the input's .grad (fallback.where names it)
  const fields = {
    where: entry(payload.fallback.where ?? "out", unravel(flat, w.shape)),
    got: formatValue(got.tensor.data[flat], got.tensor.dtype),
    expected: formatValue(w.data[flat], w.dtype),
  };
  if (rule) {
    const ruled = { ...fields, rule };
    if (testCase.reads && got.read)
      return v(payload.fallback.rule_yours_template, {
        ...ruled,
        reads: testCase.reads[flat],
        your_read: got.read(flat),
      });
    if (testCase.reads)
      return v(payload.fallback.rule_reads_template, { ...ruled, reads: testCase.reads[flat] });
    return v(payload.fallback.rule_template, ruled);
  }
  if (testCase.reads && got.read)
    // a fix: the entry the learner's index read
    return v("fix.wrong_value_yours_read", {
      where: fields.where,
      reads: testCase.reads[flat],
      your_read: got.read(flat),
    });
  if (testCase.reads)
    return v(readsTemplate, {
      ...fields,
      reads: testCase.reads[flat],
      reason: testCase.reads[flat],
    });
  return v(template, fields);
}

// A verdict's two steps in words, [mistake, fix], as verdict.steps gives them: its
// template (from the payload's `templates`, page.py's subset of messages.json) split at
// its line break, every {field} substituted: a string as it is, a phrase
// ({template, fields}: a piece of the sentence) by its first step without its final
// period, its fix before the verdict's own, in the order the template names them.
export function steps(verdict, templates) {
  const [mistake, ...rest] = templates[verdict.template].split("\n");
  const fix = rest.join("\n");
  const words = {};
  const later = [];
  for (const [, name] of [...mistake.matchAll(PLACEHOLDER), ...fix.matchAll(PLACEHOLDER)]) {
    const field = verdict.fields[name];
    if (name in words) continue;
    if (typeof field === "string") words[name] = field;
    else {
      const [own, ownFix] = steps(field, templates);
      words[name] = own.replace(/\.$/, "");
      if (ownFix) later.push(ownFix);
    }
  }
  const fill = (text) => text.replace(PLACEHOLDER, (whole, name) => words[name]);
  return [fill(mistake), [...later, fill(fix).trim()].filter(Boolean).join(" ")];
}
const PLACEHOLDER = /\{([a-z_]+)\}/g;

// A verdict in words, as verdict.render gives them: its two steps, the fix on a line
// of its own.
export function render(verdict, templates) {
  return steps(verdict, templates).filter(Boolean).join("\n");
}

// ------------------------------------------------------------------ progress

const STORE = "gatherlab-exercises:";

function storeKey(page) {
  return STORE + page;
}

export function loadProgress(storage, page) {
  try {
    return JSON.parse(storage.getItem(storeKey(page)) ?? "{}");
  } catch {
    return {};
  }
}

function saveProgress(storage, page, progress) {
  try {
    storage.setItem(storeKey(page), JSON.stringify(progress));
  } catch {
    // storage full or refused: the answer still shows, it just will not stay
  }
}

// ------------------------------------------------------------------ the page

const ASK = {
  implement: "Your function's body",
  fix: "Your corrected index",
  predict: "Your prediction",
  raises: "Calls that raise",
  choose: "The true statement",
};

function element(tag, props = {}, children = []) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (
      key.startsWith("aria-") ||
      key.startsWith("data-") ||
      [
        "for",
        "rows",
        "wrap",
        "spellcheck",
        "autocomplete",
        "autocapitalize",
        "role",
        "type",
        "name",
        "value",
        "id",
        "placeholder",
      ].includes(key)
    )
      node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

// `code` spans as <code>, as the notebook shows them (result.as_html).
function withCode(words) {
  return words
    .split(/`([^`]+)`/)
    .map((part, k) => (k % 2 ? element("code", { text: part }) : part));
}

function prompt(payload) {
  if (payload.kind === "implement")
    return `Write the body of the function: its arguments ${payload.args.join(", ")} are given; end with return … (Ctrl+Enter checks).`;
  if (payload.kind === "fix")
    return `Write the lines that build the corrected ${payload.call.part}, ${payload.call.answer}, from ${payload.args.join(" and ")}; end with ${payload.call.answer} = … (Ctrl+Enter checks).`;
  if (payload.kind === "predict")
    return "Type the value it returns: nested lists, or paste a printed tensor or array.";
  if (payload.kind === "raises")
    return "Type the labels of the calls that raise, e.g. A, C (or none).";
  return "Pick the true statement.";
}

// What the box is drawn from (lean_pages.py's data-head): a known kind and an id.
const isPageHead = (head) => Boolean(ASK[head.kind]) && typeof head.id === "string";

// The exercise's whole payload and the evaluator, fetched once, on first use (a failed
// fetch is tried again on the next use).
function checksOf(block) {
  let loading = null;
  return () => {
    loading ??= Promise.all([
      fetch(new URL(block.dataset.payloadSrc, document.baseURI)).then((response) => {
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`.trim());
        return response.json();
      }),
      ready(),
    ]).then(([payload]) => payload);
    loading.catch(() => {
      loading = null;
    });
    return loading;
  };
}

function mount(block, state) {
  const payload = JSON.parse(block.dataset.head);
  if (!isPageHead(payload)) return null; // another schema: left as it is
  const checks = checksOf(block);
  const id = payload.id;
  const output = block.closest(".output") ?? block.parentElement;
  // the stored "not attempted yet … run the cell again" of the notebook gives way to
  // the page's own state
  for (const stored of output.querySelectorAll(".gl-check-not-attempted-yet, .gl-live-note"))
    stored.hidden = true;
  const label = `${ASK[payload.kind]} (${id})`;
  const ui = element("div", { class: `gl-ex gl-ex-${payload.kind}` });
  const help = element("p", { class: "gl-ex-help", id: `gl-ex-help-${id}`, text: prompt(payload) });
  let read;
  let input;
  if (payload.kind === "choose") {
    const group = element("fieldset", { class: "gl-ex-choices" }, [
      element("legend", { text: label }),
    ]);
    for (const choice of payload.choices) {
      const radio = element("input", {
        type: "radio",
        name: `gl-ex-${id}`,
        value: choice.label,
        id: `gl-ex-${id}-${choice.label}`,
      });
      group.append(
        element("label", { class: "gl-ex-choice", for: radio.id }, [
          radio,
          element("span", { class: "gl-ex-choice-label", text: `${choice.label}. ` }),
          choice.text ?? "",
        ]),
      );
    }
    read = () => group.querySelector("input:checked")?.value ?? "";
    input = group;
    ui.append(group);
  } else {
    const code = payload.kind === "implement" || payload.kind === "fix";
    input = element("textarea", {
      class: code ? "gl-ex-code" : "gl-ex-answer",
      rows: code ? 6 : 3,
      wrap: code ? "off" : "soft", // code lines scroll sideways rather than break
      spellcheck: "false",
      autocomplete: "off",
      autocapitalize: "off",
      "aria-label": label,
      "aria-describedby": help.id,
      placeholder: code
        ? `# ${payload.args.join(", ")} are given\n${payload.kind === "fix" ? `${payload.call.answer} = …` : "return …"}`
        : "",
    });
    read = () => input.value;
    ui.append(help, input);
  }
  const button = element("button", {
    type: "button",
    class: "gl-ex-check",
    text: "Check",
    "aria-label": `Check ${id}`,
  });
  const feedback = element("div", {
    class: "gl-ex-feedback",
    role: "status",
    "aria-live": "polite",
  });
  ui.append(element("div", { class: "gl-ex-actions" }, [button]), feedback);
  // what only the notebook checks (page.py's notebook_checks), so a pass here is read
  // as what it is
  if (payload.notebook_checks)
    ui.append(element("p", { class: "gl-ex-help gl-ex-notebook", text: payload.notebook_checks }));
  // the mistake first; the fix on request, folded (result.py's SHOW_FIX, as in the notebook)
  const show = (verdict, templates) => {
    const [mistake, fix] = steps(verdict, templates);
    feedback.className = `gl-ex-feedback ${verdict.passed ? "gl-ex-passed" : "gl-ex-failed"}`;
    feedback.replaceChildren(
      element("strong", {
        text: `${verdict.passed ? "✔" : "✘"} ${id}: ${verdict.passed ? "passed" : "not yet"}.`,
      }),
      " ",
      ...withCode(mistake),
    );
    if (fix)
      feedback.append(
        element("details", { class: "gl-ex-fix" }, [
          element("summary", { text: "Show how to fix it" }),
          element("p", {}, withCode(fix)),
        ]),
      );
  };
  const unloaded = (error) => {
    feedback.className = "gl-ex-feedback gl-ex-failed";
    feedback.textContent = `The checks of ${id} could not be loaded (${error.message}), so this answer was not checked. Reload the page to try again, or check it in the chapter's notebook.`;
  };
  const check = () => {
    const answer = read();
    checks().then((full) => {
      const verdict = judge(full, answer);
      show(verdict, full.templates);
      state.record(id, answer, verdict);
    }, unloaded);
  };
  // the first focus on the box starts the fetch, so the check finds it loaded
  ui.addEventListener("focusin", () => checks().catch(() => {}), { once: true });
  button.addEventListener("click", check);
  if (input.tagName === "TEXTAREA")
    input.addEventListener("keydown", (event) => {
      const multiline = payload.kind === "implement" || payload.kind === "fix";
      if (
        event.key === "Enter" &&
        (event.ctrlKey || event.metaKey || (!multiline && !event.shiftKey))
      ) {
        event.preventDefault();
        check();
      }
    });
  const saved = state.saved(id);
  if (saved) {
    if (payload.kind === "choose") {
      const radio = input.querySelector(`input[value="${CSS.escape(saved.answer)}"]`);
      if (radio) radio.checked = true;
    } else input.value = saved.answer;
    checks().then((full) => show(saved.verdict, full.templates), unloaded); // used before
  }
  block.replaceChildren(ui);
  block.hidden = false;
  block.removeAttribute("style");
  return {
    id,
    reset: () => {
      if (payload.kind === "choose")
        input.querySelectorAll("input").forEach((r) => {
          r.checked = false;
        });
      else input.value = "";
      feedback.className = "gl-ex-feedback";
      feedback.replaceChildren();
    },
  };
}

function progressBar(doc, total) {
  const count = element("span", { class: "gl-ex-count", role: "status" });
  const reset = element("button", {
    type: "button",
    class: "gl-ex-reset",
    text: "Reset my answers",
  });
  const bar = element("div", { class: "gl-ex-progress" }, [
    count,
    " ",
    reset,
    element("span", { class: "gl-ex-private", text: " (kept in this browser only)" }),
  ]);
  const article = doc.querySelector("article.bd-article") ?? doc.querySelector("main") ?? doc.body;
  // the chapter's own title (not the print-only header the theme also puts there)
  const firstHeading = [...article.querySelectorAll("h1")].find((h) => !h.closest(".onlyprint"));
  if (firstHeading) firstHeading.after(bar);
  else article.prepend(bar);
  const update = (progress) => {
    const passed = Object.values(progress).filter((p) => p.verdict.passed).length;
    const tried = Object.keys(progress).length - passed;
    count.textContent =
      `${passed} of ${total} exercises checked on this page` +
      (tried ? ` (${tried} more tried, not passed yet)` : "");
  };
  return { reset, update };
}

// The page's exercise blocks (heads of another schema are left alone).
export function exerciseBlocks(doc) {
  return [...doc.querySelectorAll("[data-exercise][data-head][data-payload-src]")].filter(
    (block) => {
      try {
        return isPageHead(JSON.parse(block.dataset.head));
      } catch {
        return false;
      }
    },
  );
}

export function mountAll(
  doc,
  storage = globalThis.localStorage,
  page = doc.location?.pathname ?? "",
) {
  const blocks = exerciseBlocks(doc);
  if (!blocks.length) return [];
  let progress = loadProgress(storage, page);
  const bar = progressBar(doc, blocks.length);
  const state = {
    saved: (id) => progress[id],
    record: (id, answer, verdict) => {
      progress = { ...progress, [id]: { answer, verdict } };
      saveProgress(storage, page, progress);
      bar.update(progress);
    },
  };
  const mounted = blocks.map((block) => mount(block, state));
  bar.update(progress);
  bar.reset.addEventListener("click", () => {
    progress = {};
    storage.removeItem(storeKey(page));
    mounted.forEach((m) => m.reset());
    bar.update(progress);
  });
  return mounted;
}

if (typeof document !== "undefined" && typeof window !== "undefined") {
  const start = () => mountAll(document);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
