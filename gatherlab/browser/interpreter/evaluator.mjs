// The interpreter: runs the lines a learner writes in an exercise box, as python.mjs
// parses them (statements and expressions), with the part of torch and TensorFlow the
// chapters teach (torch.mjs, tensorflow.mjs, over the values of tensor.mjs and the
// indexing of indexing.mjs). It never calls eval or Function: every name it knows is in
// those modules' tables, and anything else is refused with an UnsupportedError that
// names it. tests/js/evaluator.test.mjs checks it against torch and TensorFlow
// (tools/cases/evaluator_cases.py).

import { isFloat } from "../explorers/core.mjs";
import { floatRepr, NONE, parse, PyError, pyInt, strRepr, UnsupportedError } from "./python.mjs";
import { basicLayout, getItem, setItem } from "./indexing.mjs";
import {
  ARITH,
  broadcastShapes,
  cast,
  COMPARISONS,
  fn,
  isNumber,
  list,
  MAX_ENTRIES,
  numberOf,
  optionalInt,
  pyBool,
  pyFloat,
  tensor,
  tensorBinary,
  toInt,
  truthy,
  tuple,
  typeName,
} from "./tensor.mjs";
import { TF, TF_DTYPES } from "./tensorflow.mjs";
import {
  augmented,
  callMethod,
  failedCall,
  dtypeValue,
  FUNCTIONAL,
  METHODS,
  NN,
  permute,
  TORCH,
  TORCH_DTYPES,
} from "./torch.mjs";

// The interpreter's interface (checker/exercises.mjs imports it when a box is first used).
export { PyError, UnsupportedError, parse } from "./python.mjs";
export { FLOAT_DEFAULTS, TRUE_DIVISIONS, TRUE_FLOORS, fromPayload, toPayload } from "./tensor.mjs";
export { EMPTY_FILL, family, MESHGRID, REPAIRING, SEPARATE, SIZED, UNIQUE } from "./torch.mjs";
export { MISREAD } from "./tensorflow.mjs";

// patching.noting_index_grids: each x[i, j] = v into a torch tensor whose integer index
// tensors broadcast to a grid with more entries than any of them (their shapes, the
// grid's), per run (exercises.mjs's indexGrid reads them)
export const GRIDS = { found: [] };
function noteGrid(index) {
  const items = index.t === "tuple" ? index.items : [index];
  const parts = items.filter(
    (p) => p.t === "tensor" && p.lib === "torch" && !isFloat(p.dtype) && p.dtype !== "bool",
  );
  if (parts.length < 2) return;
  let grid;
  try {
    grid = parts.map((p) => p.shape).reduce((a, b) => broadcastShapes(a, b));
  } catch {
    return; // shapes that do not broadcast: setItem raises
  }
  const size = (shape) => shape.reduce((a, b) => a * b, 1);
  if (size(grid) > Math.max(...parts.map((p) => size(p.shape))))
    GRIDS.found.push({ shapes: parts.map((p) => p.shape), grid });
}

// The code called an op the exercise asks it not to use (gatherlab's ForbiddenOpError).
export class ForbiddenError extends Error {
  constructor(name) {
    super(`${name} is not allowed in this exercise`);
    this.name_ = name;
  }
}

const MAX_STEPS = 200000;

// ------------------------------------------------------------------ builtins

function iterate(value) {
  if (value.t === "range") return value.items;
  if (value.t === "list" || value.t === "tuple") return value.items.slice();
  if (value.t === "str") return [...value.v].map((c) => ({ t: "str", v: c }));
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

// Python's other builtins: a learner's code may use them, so the page says it cannot
// run them instead of calling them undefined (the notebook runs them).
const PYTHON_BUILTINS = new Set([
  "isinstance",
  "issubclass",
  "type",
  "dict",
  "set",
  "frozenset",
  "iter",
  "next",
  "hasattr",
  "getattr",
  "setattr",
  "callable",
  "id",
  "hash",
  "ord",
  "chr",
  "bin",
  "hex",
  "oct",
  "format",
  "vars",
  "dir",
  "globals",
  "locals",
  "eval",
  "exec",
  "open",
  "input",
  "super",
  "object",
  "property",
  "staticmethod",
  "classmethod",
  "bytes",
  "bytearray",
  "memoryview",
  "complex",
  "ascii",
  "compile",
  "delattr",
  "help",
  "breakpoint",
  "__import__",
]);

const BUILTINS = {
  range: fn("range", (g) => {
    const ints = g.map((v) => toInt(v, "an integer"));
    const [start, stop, step] =
      ints.length === 1 ? [0, ints[0], 1] : [ints[0], ints[1], ints[2] ?? 1];
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
      if (v.data.length !== 1)
        throw new PyError(
          "RuntimeError",
          `a Tensor with ${v.data.length} elements cannot be converted to Scalar`,
        );
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
  abs: fn("abs", (g) =>
    g[0].t === "tensor"
      ? callMethod(g[0], "abs", [], [])
      : g[0].t === "float"
        ? pyFloat(Math.abs(g[0].v))
        : pyInt(Math.abs(numberOf(g[0]))),
  ),
  min: fn("min", (g) => pickExtreme(g, "<")),
  max: fn("max", (g) => pickExtreme(g, ">")),
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
    if (!g.length || g.length > 3)
      throw new PyError("TypeError", `slice expected at least 1 argument, got ${g.length}`);
    const [start, stop, step] = (
      g.length === 1 ? [NONE, g[0], NONE] : [g[0], g[1], g[2] ?? NONE]
    ).map(optionalInt);
    return { t: "slice", start, stop, step };
  }),
};

// Python's sum, any, all, sorted, reversed, map, filter, round, divmod, pow, str and bool
// (a key or mapped function may be the learner's own: `call` calls it).
Object.assign(BUILTINS, {
  sum: fn("sum", (g, kw) => {
    const start = g[1] ?? kw.find(([k]) => k === "start")?.[1] ?? pyInt(0);
    return iterate(g[0]).reduce((total, v) => binary("+", total, v), start);
  }),
  any: fn("any", (g) => pyBool(iterate(g[0]).some(truthy))),
  all: fn("all", (g) => pyBool(iterate(g[0]).every(truthy))),
  sorted: fn("sorted", (g, kw, call) => {
    const key = kw.find(([k]) => k === "key")?.[1] ?? NONE;
    const reverse = truthy(kw.find(([k]) => k === "reverse")?.[1] ?? pyBool(false));
    const items = iterate(g[0]).map((v) => [key.t === "none" ? v : call(key, [v], []), v]);
    items.sort((a, b) => compareValues(a[0], b[0]) * (reverse ? -1 : 1)); // stable, as Python's
    return list(items.map(([, v]) => v));
  }),
  reversed: fn("reversed", (g) => list(iterate(g[0]).reverse())),
  map: fn("map", (g, kw, call) => {
    const lists = g.slice(1).map(iterate);
    const n = Math.min(...lists.map((l) => l.length));
    return list(
      Array.from({ length: n }, (_, k) =>
        call(
          g[0],
          lists.map((l) => l[k]),
          [],
        ),
      ),
    );
  }),
  filter: fn("filter", (g, kw, call) =>
    list(iterate(g[1]).filter((v) => truthy(g[0].t === "none" ? v : call(g[0], [v], [])))),
  ),
  round: fn("round", (g) => {
    if (g[0].t === "tensor") return callMethod(g[0], "round", g.slice(1), []);
    if (!isNumber(g[0]))
      throw new PyError("TypeError", `type ${typeName(g[0])} doesn't define __round__ method`);
    if (g.length > 1 && g[1].t !== "none")
      throw new UnsupportedError("round() to a number of digits");
    const v = numberOf(g[0]);
    const floor = Math.floor(v);
    const half = v - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(v);
    return pyInt(half + 0);
  }),
  divmod: fn("divmod", (g) => tuple([binary("//", g[0], g[1]), binary("%", g[0], g[1])])),
  pow: fn("pow", (g) => binary("**", g[0], g[1])),
  str: fn("str", (g) => ({ t: "str", v: g.length ? displayText(g[0]) : "" })),
  bool: fn("bool", (g) => pyBool(g.length ? truthy(g[0]) : false)),
});

// min and max compare as Python does, with the items' own `<` / `>`: the 0-d tensors
// that iterating a tensor gives too (max(labels) is labels' largest entry)
function pickExtreme(g, op) {
  const items = g.length === 1 ? iterate(g[0]) : g;
  if (!items.length) throw new PyError("ValueError", "max() arg is an empty sequence");
  return items.reduce((best, v) => (truthy(binary(op, v, best)) ? v : best));
}

// ------------------------------------------------------------------ interpreter

class Return {
  constructor(value) {
    this.value = value;
  }
}
class Break {}
class Continue {}

// Python's exception classes above each one the page raises (the rest derive from
// Exception directly): `except LookupError` catches an IndexError, as in Python.
const EXCEPTION_BASES = {
  IndexError: "LookupError",
  KeyError: "LookupError",
  ZeroDivisionError: "ArithmeticError",
  OverflowError: "ArithmeticError",
  NotImplementedError: "RuntimeError",
  RecursionError: "RuntimeError",
  UnboundLocalError: "NameError",
  ModuleNotFoundError: "ImportError",
  Exception: "BaseException",
};
const EXCEPTIONS = [
  "BaseException",
  "Exception",
  "ArithmeticError",
  "AssertionError",
  "AttributeError",
  "ImportError",
  "IndexError",
  "KeyError",
  "LookupError",
  "NameError",
  "NotImplementedError",
  "OverflowError",
  "RecursionError",
  "RuntimeError",
  "StopIteration",
  "TypeError",
  "UnboundLocalError",
  "ValueError",
  "ZeroDivisionError",
];
for (const name of EXCEPTIONS) BUILTINS[name] = { t: "exception", name };

function isSubclass(name, base) {
  for (let at = name; at; at = EXCEPTION_BASES[at] ?? (at === "BaseException" ? null : "Exception"))
    if (at === base) return true;
  return false;
}

function shift(op, x, y) {
  if (y < 0) throw new PyError("ValueError", "negative shift count");
  return op === "<<" ? x * 2 ** y : Math.floor(x / 2 ** y);
}

function binary(op, left, right) {
  if (op === "@") throw new UnsupportedError("the @ operator");
  if (left.t === "tensor" || right.t === "tensor") return tensorBinary(op, left, right);
  if (isNumber(left) && isNumber(right)) {
    const x = numberOf(left);
    const y = numberOf(right);
    const float = left.t === "float" || right.t === "float";
    if ((op === "/" || op === "//" || op === "%") && y === 0)
      throw new PyError(
        "ZeroDivisionError",
        op === "/" ? "division by zero" : "integer division or modulo by zero",
      );
    if (COMPARISONS.has(op)) return pyBool(ARITH[op](x, y));
    if (["&", "|", "^", "<<", ">>"].includes(op)) {
      if (float)
        throw new PyError(
          "TypeError",
          `unsupported operand type(s) for ${op}: '${typeName(left)}' and '${typeName(right)}'`,
        );
      if (op === "<<" || op === ">>") return pyInt(shift(op, x, y));
      const v = ARITH[op](x, y);
      return left.t === "bool" && right.t === "bool" ? pyBool(v) : pyInt(v);
    }
    const v = ARITH[op](x, y);
    if (op === "/" || float) return pyFloat(v);
    if (op === "**" && y < 0) return pyFloat(v);
    return pyInt(v);
  }
  if ((left.t === "list" || left.t === "tuple") && op === "+" && right.t === left.t)
    return { t: left.t, items: [...left.items, ...right.items] };
  if (left.t === "str" && op === "+" && right.t === "str") return { t: "str", v: left.v + right.v };
  if (
    (left.t === "list" || left.t === "tuple" || left.t === "str") &&
    op === "*" &&
    (right.t === "int" || right.t === "bool")
  ) {
    if (left.t === "str") return { t: "str", v: left.v.repeat(Math.max(0, numberOf(right))) };
    const items = [];
    for (let r = 0; r < numberOf(right); r++) items.push(...left.items);
    return { t: left.t, items };
  }
  if (
    (right.t === "list" || right.t === "tuple" || right.t === "str") &&
    op === "*" &&
    (left.t === "int" || left.t === "bool")
  )
    return binary(op, right, left);
  if (op === "==" || op === "!=") {
    const same = equalValues(left, right);
    return pyBool(op === "==" ? same : !same);
  }
  if (COMPARISONS.has(op) && left.t === right.t && ["list", "tuple", "str"].includes(left.t)) {
    const order = compareValues(left, right);
    return pyBool({ "<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0 }[op]);
  }
  throw new PyError(
    "TypeError",
    COMPARISONS.has(op)
      ? `'${op}' not supported between instances of '${typeName(left)}' and '${typeName(right)}'`
      : `unsupported operand type(s) for ${op}: '${typeName(left)}' and '${typeName(right)}'`,
  );
}

// Python's order of two numbers, strs, lists or tuples: negative, 0 or positive.
function compareValues(a, b) {
  if (isNumber(a) && isNumber(b)) return numberOf(a) - numberOf(b);
  if (a.t === "str" && b.t === "str") return a.v < b.v ? -1 : a.v > b.v ? 1 : 0;
  if (a.t === b.t && (a.t === "list" || a.t === "tuple")) {
    for (let k = 0; k < Math.min(a.items.length, b.items.length); k++) {
      if (equalValues(a.items[k], b.items[k])) continue;
      return compareValues(a.items[k], b.items[k]);
    }
    return a.items.length - b.items.length;
  }
  throw new PyError(
    "TypeError",
    `'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`,
  );
}

function equalValues(a, b) {
  if (isNumber(a) && isNumber(b)) return numberOf(a) === numberOf(b);
  if ((a.t === "list" || a.t === "tuple") && a.t === b.t)
    return a.items.length === b.items.length && a.items.every((v, k) => equalValues(v, b.items[k]));
  if (a.t === "none" && b.t === "none") return true;
  if (a.t === "str" && b.t === "str") return a.v === b.v;
  if (a.t === "dtype" && b.t === "dtype") return a.name === b.name;
  return a === b;
}

// The names a def's body (or a lambda's) binds: its locals, as Python decides them when
// it reads the def (an assignment anywhere in the body makes the name local throughout),
// and the names it declares global or nonlocal.
function localNames(params, body) {
  const names = new Set(params.map((p) => p.name));
  const declared = new Map();
  const targets = (node) => {
    if (node.e === "name") names.add(node.name);
    else if (node.e === "tuple" || node.e === "list") node.items.forEach(targets);
    else if (node.e === "star") targets(node.value);
  };
  const walrus = (node) => {
    if (!node || typeof node !== "object") return;
    if (node.e === "lambda" || node.s === "def") return;
    if (node.e === "walrus") names.add(node.name);
    for (const value of Object.values(node))
      if (Array.isArray(value)) value.forEach(walrus);
      else if (value && typeof value === "object") walrus(value);
  };
  const visit = (statements) => {
    for (const statement of statements) {
      switch (statement.s) {
        case "assign":
          statement.targets.forEach(targets);
          break;
        case "augassign":
          targets(statement.target);
          break;
        case "for":
          targets(statement.target);
          break;
        case "def":
          names.add(statement.name);
          break;
        case "import":
          for (const { name, as } of statement.names) names.add(as ?? name.split(".")[0]);
          break;
        case "del":
          statement.targets.forEach(targets);
          break;
        case "global":
        case "nonlocal":
          for (const name of statement.names) declared.set(name, statement.s);
          break;
        case "try":
          for (const handler of statement.handlers) if (handler.name) names.add(handler.name);
          break;
      }
      if (statement.s === "def") continue; // its body is its own scope
      for (const part of ["body", "orelse", "finalbody"])
        if (statement[part]) visit(statement[part]);
      if (statement.handlers) statement.handlers.forEach((h) => visit(h.body));
      walrus(statement);
    }
  };
  if (Array.isArray(body)) visit(body);
  else walrus(body);
  for (const name of declared.keys()) names.delete(name);
  return { names, declared };
}

// A scope: a function's call (its locals), a comprehension's, or the module's (locals
// null: every name it binds is its own).
class Frame {
  constructor(parent, locals = null, declared = new Map()) {
    this.vars = new Map();
    this.parent = parent;
    this.locals = locals;
    this.declared = declared;
    this.module = parent ? parent.module : this;
    this.comprehension = false; // a comprehension's own scope (:= binds around it)
  }
}

const MAX_DEPTH = 200;

export function run(source, inputs = {}, options = {}) {
  const program = parse(source);
  const lib = options.lib ?? "torch";
  let frame = new Frame(null);
  const scope = frame.vars;
  for (const [name, value] of Object.entries(inputs)) scope.set(name, value);
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
    if (++steps > MAX_STEPS)
      throw new UnsupportedError(`answers that take more than ${MAX_STEPS} steps`);
  };
  let depth = 0;
  const handling = []; // the exceptions being handled (a bare `raise` raises the last)

  // Where a name lives for reading or binding from `at`: the frame that holds it.
  const owner = (name, at) => {
    const declared = at.declared.get(name);
    if (declared === "global") return at.module;
    if (declared === "nonlocal") {
      for (let up = at.parent; up && up !== at.module; up = up.parent)
        if (up.locals?.has(name)) return up;
      throw new PyError("SyntaxError", `no binding for nonlocal '${name}' found`);
    }
    return at;
  };

  const lookup = (name) => {
    for (let at = owner(name, frame); at; at = at.parent) {
      if (at.declared.get(name) === "global") at = at.module;
      if (at.vars.has(name)) return at.vars.get(name);
      if (at.locals?.has(name))
        throw new PyError(
          "UnboundLocalError",
          `cannot access local variable '${name}' where it is not associated with a value`,
        );
    }
    if (Object.hasOwn(BUILTINS, name)) return BUILTINS[name];
    if (["np", "numpy", "F", "nn", "math"].includes(name))
      throw new UnsupportedError(
        `the name ${name} (only torch${options.tf ? " and tf" : ""} and the exercise's arguments)`,
      );
    if (PYTHON_BUILTINS.has(name)) throw new UnsupportedError(`Python's builtin ${name}`);
    throw new PyError("NameError", `name '${name}' is not defined`);
  };

  const setName = (name, value) => owner(name, frame).vars.set(name, value);

  // A def's or lambda's function value, closing over the frame it is made in.
  function makeFunction(name, params, body) {
    const { names, declared } = localNames(params, body);
    const fallbacks = params.map((p) => (p.fallback ? evaluate(p.fallback) : null));
    return {
      t: "function",
      name,
      params,
      fallbacks,
      body,
      closure: frame,
      locals: names,
      declared,
    };
  }

  // Python's binding of a call's arguments to a function's parameters, with its errors.
  function callFunction(func, g, kw) {
    const { name, params, fallbacks } = func;
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    const positional = params.filter((p) => p.kind === "positional");
    const star = params.find((p) => p.kind === "star");
    const values = new Map();
    if (g.length > positional.length && !star) {
      const required = positional.filter((p) => !fallbacks[params.indexOf(p)]).length;
      const takes =
        required === positional.length
          ? plural(positional.length, "positional argument")
          : `from ${required} to ${plural(positional.length, "positional argument")}`;
      throw new PyError(
        "TypeError",
        `${name}() takes ${takes} but ${g.length} ${g.length === 1 ? "was" : "were"} given`,
      );
    }
    positional.forEach((p, k) => k < g.length && values.set(p.name, g[k]));
    if (star) values.set(star.name, tuple(g.slice(positional.length)));
    for (const [key, value] of kw) {
      const param = params.find((p) => p.name === key && p.kind !== "star");
      if (!param)
        throw new PyError("TypeError", `${name}() got an unexpected keyword argument '${key}'`);
      if (values.has(key))
        throw new PyError("TypeError", `${name}() got multiple values for argument '${key}'`);
      values.set(key, value);
    }
    for (const kind of ["positional", "keyword"]) {
      const missing = params
        .map((p, k) => [p, fallbacks[k]])
        .filter(([p, fallback]) => p.kind === kind && !values.has(p.name) && !fallback)
        .map(([p]) => `'${p.name}'`);
      if (missing.length) {
        const listed =
          missing.length === 1
            ? missing[0]
            : `${missing.slice(0, -1).join(", ")}${missing.length > 2 ? "," : ""} and ${missing.at(-1)}`;
        const what = kind === "positional" ? "positional" : "keyword-only";
        throw new PyError(
          "TypeError",
          `${name}() missing ${plural(missing.length, `required ${what} argument`)}: ${listed}`,
        );
      }
    }
    params.forEach((p, k) => values.has(p.name) || values.set(p.name, fallbacks[k]));
    if (++depth > MAX_DEPTH) throw new UnsupportedError(`calls nested more than ${MAX_DEPTH} deep`);
    const outer = frame;
    frame = new Frame(func.closure, func.locals, func.declared);
    for (const [key, value] of values) frame.vars.set(key, value);
    try {
      if (!Array.isArray(func.body)) return evaluate(func.body); // a lambda
      execute(func.body);
      return NONE;
    } catch (signal) {
      if (signal instanceof Return) return signal.value;
      throw signal;
    } finally {
      frame = outer;
      depth--;
    }
  }

  // The items of a display or a call's arguments, a *starred one spread out.
  const spread = (nodes) =>
    nodes.flatMap((node) => (node.e === "star" ? iterate(evaluate(node.value)) : [evaluate(node)]));

  // A comprehension's elements, in its own scope (its targets do not leak).
  function comprehension(node) {
    const items = [];
    const first = evaluate(node.clauses[0].iterable); // read in the enclosing scope
    const outer = frame;
    const targets = new Set();
    const collect = (t) =>
      t.e === "name"
        ? targets.add(t.name)
        : (t.items?.forEach(collect) ?? (t.value && collect(t.value)));
    node.clauses.forEach((c) => collect(c.target));
    frame = new Frame(outer, targets);
    frame.comprehension = true;
    try {
      const loop = (k, iterable) => {
        const clause = node.clauses[k];
        for (const item of iterate(iterable)) {
          tick();
          bind(clause.target, item);
          if (!clause.conditions.every((c) => truthy(evaluate(c)))) continue;
          if (k + 1 < node.clauses.length) loop(k + 1, evaluate(node.clauses[k + 1].iterable));
          else items.push(evaluate(node.element));
        }
      };
      loop(0, first);
    } finally {
      frame = outer;
    }
    return list(items);
  }

  function evaluate(node) {
    tick();
    switch (node.e) {
      case "const":
        return node.v;
      case "name":
        return lookup(node.name);
      case "tuple":
        return tuple(spread(node.items));
      case "list":
        return list(spread(node.items));
      case "comp":
        return comprehension(node);
      case "star":
        throw new PyError("SyntaxError", "can't use starred expression here");
      case "walrus": {
        // in a comprehension, := binds in the scope around it, as in Python
        const value = evaluate(node.value);
        let at = frame;
        while (at.comprehension) at = at.parent;
        owner(node.name, at).vars.set(node.name, value);
        return value;
      }
      case "lambda":
        return makeFunction("<lambda>", node.params, node.body);
      case "slice": {
        const part = (p) => (p === null ? null : optionalInt(evaluate(p)));
        return {
          t: "slice",
          start: part(node.start),
          stop: part(node.stop),
          step: part(node.step),
        };
      }
      case "attr":
        return attribute(evaluate(node.value), node.name);
      case "subscript": {
        const [value, index] = [evaluate(node.value), evaluate(node.index)];
        return failing("__getitem__", value, [index], [], () => getItem(value, index));
      }
      case "call": {
        const func = evaluate(node.func);
        const g = spread(node.args);
        const kw = node.kwargs.map(([k, v]) => [k, evaluate(v)]);
        return callValue(func, g, kw);
      }
      case "unary": {
        const v = evaluate(node.value);
        if (v.t === "tensor") {
          if (node.op === "~") {
            if (isFloat(v.dtype))
              throw new PyError(
                "TypeError",
                "~ (bitwise_not) is only implemented for integer and boolean tensors",
              );
            return tensor(
              v.shape,
              v.data.map((x) => (v.dtype === "bool" ? (x ? 0 : 1) : ~x)),
              v.dtype,
              v.lib,
            );
          }
          if (node.op === "-" && v.dtype === "bool")
            throw new PyError(
              "RuntimeError",
              "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.",
            );
          return node.op === "-"
            ? tensor(
                v.shape,
                v.data.map((x) => cast(-x + 0, v.dtype)),
                v.dtype,
                v.lib,
              )
            : v;
        }
        if (!isNumber(v))
          throw new PyError("TypeError", `bad operand type for unary ${node.op}: '${typeName(v)}'`);
        if (node.op === "~") {
          if (v.t === "float")
            throw new PyError("TypeError", "bad operand type for unary ~: 'float'");
          return pyInt(-numberOf(v) - 1);
        }
        const x = node.op === "-" ? -numberOf(v) : numberOf(v);
        return v.t === "float" ? pyFloat(x) : pyInt(x + 0);
      }
      case "bin":
        return binary(node.op, evaluate(node.left), evaluate(node.right));
      case "compare": {
        let left = evaluate(node.first);
        let result = null;
        for (let k = 0; k < node.ops.length; k++) {
          const right = evaluate(node.rest[k]);
          const op = node.ops[k];
          let value;
          if (op === "is" || op === "is not") {
            const same =
              left === right ||
              (left.t === "none" && right.t === "none") ||
              (left.t === "bool" && right.t === "bool" && left.v === right.v);
            value = pyBool(op === "is" ? same : !same);
          } else if (op === "in" || op === "not in") {
            const found =
              right.t === "str" && left.t === "str"
                ? right.v.includes(left.v)
                : iterate(right).some((v) => equalValues(v, left));
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
      case "not":
        return pyBool(!truthy(evaluate(node.value)));
      case "ifexp":
        return truthy(evaluate(node.test)) ? evaluate(node.body) : evaluate(node.orelse);
      case "fstr":
        return {
          t: "str",
          v: node.parts
            .map((part) => (typeof part === "string" ? part : displayText(evaluate(part))))
            .join(""),
        };
      default:
        throw new UnsupportedError(`this kind of expression (${node.e})`);
    }
  }

  // A writing op's or subscript's error, with the call that raised it (failedCall:
  // its op, dim and shapes, which the error table reads, as patching.spying records it)
  // x[i] = v into a torch tensor calls Tensor.__setitem__ (implement._kept_by_own_op)
  function assigned(root, index) {
    if (root.t !== "tensor" || root.lib !== "torch") return;
    called("torch.Tensor.__setitem__");
    noteGrid(index);
  }

  function failing(op, self, g, kw, run) {
    try {
      return run();
    } catch (error) {
      if (error instanceof PyError && error.failed === undefined)
        error.failed = failedCall(op, self, g, kw);
      throw error;
    }
  }

  function callValue(func, g, kw) {
    if (func.t === "function") return callFunction(func, g, kw);
    if (func.t === "func") {
      called(func.name.replace(/^tf\./, "tensorflow."));
      return func.call(g, kw, callValue);
    }
    if (func.t === "method") {
      if (func.self.t === "list") return listMethod(func.self, func.name, g);
      called(`torch.Tensor.${func.name}`);
      return failing(func.name, func.self, g, kw, () => callMethod(func.self, func.name, g, kw));
    }
    if (func.t === "exception")
      return { t: "exc", name: func.name, message: g[0] ? displayText(g[0]) : "" };
    if (func.t === "dtype") throw new UnsupportedError(`calling ${func.name}`);
    throw new PyError("TypeError", `'${typeName(func)}' object is not callable`);
  }

  function bind(target, value) {
    if (target.e === "name") {
      setName(target.name, value);
      return;
    }
    if (target.e === "subscript") {
      // x[i][j] = v writes into x where x[i] is a view (basic indexing), as in torch
      const [root, index] = [evaluate(target.value), evaluate(target.index)];
      assigned(root, index);
      failing("__setitem__", root, [index, value], [], () => setItem(root, index, value));
      return;
    }
    const items = iterate(value);
    const starAt = target.items.findIndex((t) => t.e === "star");
    if (starAt >= 0) {
      const after = target.items.length - 1 - starAt;
      if (items.length < target.items.length - 1)
        throw new PyError(
          "ValueError",
          `not enough values to unpack (expected at least ${target.items.length - 1}, got ${items.length})`,
        );
      target.items.slice(0, starAt).forEach((t, k) => bind(t, items[k]));
      bind(target.items[starAt].value, list(items.slice(starAt, items.length - after)));
      target.items.slice(starAt + 1).forEach((t, k) => bind(t, items[items.length - after + k]));
      return;
    }
    if (items.length !== target.items.length)
      throw new PyError(
        "ValueError",
        items.length > target.items.length
          ? `too many values to unpack (expected ${target.items.length})`
          : `not enough values to unpack (expected ${target.items.length}, got ${items.length})`,
      );
    target.items.forEach((t, k) => bind(t, items[k]));
  }

  function unbind(target) {
    if (target.e === "name") {
      const at = owner(target.name, frame);
      if (!at.vars.delete(target.name))
        throw new PyError("NameError", `name '${target.name}' is not defined`);
      return;
    }
    if (target.e === "tuple" || target.e === "list") return target.items.forEach(unbind);
    if (target.e === "subscript") {
      const container = evaluate(target.value);
      if (container.t !== "list")
        throw new UnsupportedError(`del on a ${typeName(container)}'s items`);
      const index = evaluate(target.index);
      if (index.t !== "int") throw new UnsupportedError("del of a list's slice");
      const at = index.v < 0 ? index.v + container.items.length : index.v;
      if (at < 0 || at >= container.items.length)
        throw new PyError("IndexError", "list assignment index out of range");
      container.items.splice(at, 1);
      return;
    }
    throw new UnsupportedError("del of this target");
  }

  function importModule(name, as) {
    const modules = {
      torch: "torch",
      "torch.nn": "torch.nn",
      "torch.nn.functional": "torch.nn.functional",
    };
    if ((lib === "tf" || options.tf) && name === "tensorflow") modules.tensorflow = "tf";
    if (!modules[name]) throw new UnsupportedError(`import ${name}`);
    if (as) setName(as, { t: "module", name: modules[name] });
    else setName(name.split(".")[0], { t: "module", name: modules[name.split(".")[0]] });
  }

  function handle(statement, error) {
    const exc = { t: "exc", name: error.type, message: error.message, error };
    for (const handler of statement.handlers) {
      let matches = true;
      if (handler.types) {
        const types = evaluate(handler.types);
        const classes = types.t === "tuple" ? types.items : [types];
        for (const c of classes)
          if (c.t !== "exception")
            throw new PyError(
              "TypeError",
              "catching classes that do not inherit from BaseException is not allowed",
            );
        matches = classes.some((c) => isSubclass(error.type, c.name));
      }
      if (!matches) continue;
      if (handler.name) setName(handler.name, exc);
      handling.push(error);
      try {
        execute(handler.body);
      } finally {
        handling.pop();
        if (handler.name) owner(handler.name, frame).vars.delete(handler.name);
      }
      return true;
    }
    return false;
  }

  function loop(statement, items) {
    for (const item of items) {
      tick();
      if (item !== null) bind(statement.target, item);
      try {
        execute(statement.body);
      } catch (signal) {
        if (signal instanceof Break) return;
        if (signal instanceof Continue) continue;
        throw signal;
      }
    }
    execute(statement.orelse);
  }

  function execute(body) {
    for (const statement of body) {
      tick();
      switch (statement.s) {
        case "pass":
        case "global":
        case "nonlocal":
          break;
        case "import":
          for (const { name, as } of statement.names) importModule(name, as);
          break;
        case "assign": {
          const value = evaluate(statement.value);
          for (const target of statement.targets) bind(target, value);
          break;
        }
        case "augassign": {
          const target = statement.target;
          const [root, index] =
            target.e === "subscript"
              ? [evaluate(target.value), evaluate(target.index)]
              : [null, null];
          const current = root
            ? failing("__getitem__", root, [index], [], () => getItem(root, index))
            : evaluate(target);
          if (root) assigned(root, index); // Python sets x[i] back after x[i] += v
          const other = evaluate(statement.value);
          if (current.t === "list" && statement.op === "+") {
            current.items.push(...iterate(other)); // a list's += extends it in place
            if (root)
              failing("__setitem__", root, [index, current], [], () =>
                setItem(root, index, current),
              );
            break;
          }
          if (current.t !== "tensor" || current.lib !== "torch") {
            const value = binary(statement.op, current, other);
            if (root)
              failing("__setitem__", root, [index, value], [], () => setItem(root, index, value));
            else bind(target, value);
            break;
          }
          augmented(statement.op, current, other);
          // a basic index's view wrote into root; an advanced one's copy is put back
          if (root && (root.t !== "tensor" || !basicLayout(root, index)))
            failing("__setitem__", root, [index, current], [], () => setItem(root, index, current));
          break;
        }
        case "expr": {
          const value = evaluate(statement.value);
          lastValue = value;
          break;
        }
        case "def":
          setName(statement.name, makeFunction(statement.name, statement.params, statement.body));
          break;
        case "return":
          // the lines may return at their top level: they are a function's body
          throw new Return(statement.value === null ? NONE : evaluate(statement.value));
        case "break":
          throw new Break();
        case "continue":
          throw new Continue();
        case "del":
          statement.targets.forEach(unbind);
          break;
        case "assert":
          if (!truthy(evaluate(statement.test)))
            throw new PyError(
              "AssertionError",
              statement.message === null ? "" : asText(evaluate(statement.message)),
            );
          break;
        case "raise": {
          if (statement.value === null) {
            if (!handling.length)
              throw new PyError("RuntimeError", "No active exception to reraise");
            throw handling.at(-1);
          }
          const exc = evaluate(statement.value);
          if (exc.t === "exception") throw new PyError(exc.name, "");
          if (exc.t === "exc") throw exc.error ?? new PyError(exc.name, exc.message);
          throw new PyError("TypeError", "exceptions must derive from BaseException");
        }
        case "for":
          loop(statement, iterate(evaluate(statement.iterable)));
          break;
        case "while": {
          let broke = false;
          while (truthy(evaluate(statement.test))) {
            tick();
            try {
              execute(statement.body);
            } catch (signal) {
              if (signal instanceof Break) {
                broke = true;
                break;
              }
              if (signal instanceof Continue) continue;
              throw signal;
            }
          }
          if (!broke) execute(statement.orelse);
          break;
        }
        case "if":
          execute(truthy(evaluate(statement.test)) ? statement.body : statement.orelse);
          break;
        case "try": {
          let raised = false;
          try {
            try {
              execute(statement.body);
            } catch (error) {
              if (!(error instanceof PyError)) throw error;
              raised = true;
              if (!handle(statement, error)) throw error;
            }
            if (!raised) execute(statement.orelse);
          } finally {
            execute(statement.finalbody);
          }
          break;
        }
        default:
          throw new UnsupportedError(statement.s);
      }
      if (statement.s !== "expr") lastValue = null;
    }
  }

  let lastValue = null;
  try {
    execute(program);
  } catch (signal) {
    if (signal instanceof Return) return signal.value;
    if (signal instanceof Break || signal instanceof Continue)
      throw new PyError(
        "SyntaxError",
        `'${signal instanceof Break ? "break" : "continue"}' outside loop`,
      );
    throw signal;
  }
  // options.main: the lines define the function an exercise asks for, beside any
  // helpers; the value is that function called with options.main.args
  if (options.main) {
    const func = mainFunction(program, scope, options.main.name, options.main.args.length);
    return callFunction(func, options.main.args, []);
  }
  // options.function: the lines are a function's body, whose value is what `return`
  // gives (None without one), as Python calls it
  if (options.function) return NONE;
  if (lastValue === null)
    throw new PyError(
      "ValueError",
      "the answer has no value: end with the expression (or `return` it)",
    );
  return lastValue;
}

// The function an exercise's answer defines: the one named `name` if there is one, else
// of the top-level defs that no other one calls (helpers are called) the one that takes
// the case's `count` arguments, else the last.
function mainFunction(program, scope, name, count) {
  const defs = program.filter((s) => s.s === "def");
  if (!defs.length) throw new PyError("ValueError", "the answer defines no function (def)");
  const calls = (caller, callee) =>
    JSON.stringify(caller.body).includes(`"e":"name","name":${JSON.stringify(callee.name)}`);
  const roots = defs.filter((d) => !defs.some((other) => other !== d && calls(other, d)));
  const fitting = roots.filter(
    (d) =>
      d.params.filter((p) => p.kind === "positional" && !p.fallback).length <= count &&
      (d.params.some((p) => p.kind === "star") ||
        d.params.filter((p) => p.kind === "positional").length >= count),
  );
  const chosen =
    defs.find((d) => d.name === name) ??
    (roots.length === 1
      ? roots[0]
      : fitting.length === 1
        ? fitting[0]
        : (roots.at(-1) ?? defs.at(-1)));
  const func = scope.get(chosen.name);
  if (!func || func.t !== "function")
    throw new PyError("TypeError", `'${typeName(func ?? NONE)}' object is not callable`);
  return func;
}

// list.append(v), list.extend(items), list.pop([k]), list.insert(k, v), list.index(v).
function listMethod(self, name, g) {
  switch (name) {
    case "append":
      self.items.push(g[0]);
      return NONE;
    case "extend":
      self.items.push(...iterate(g[0]));
      return NONE;
    case "insert": {
      const at = toInt(g[0]);
      self.items.splice(at < 0 ? Math.max(0, self.items.length + at) : at, 0, g[1]);
      return NONE;
    }
    case "pop": {
      if (!self.items.length) throw new PyError("IndexError", "pop from empty list");
      const at = g.length ? toInt(g[0]) : -1;
      const k = at < 0 ? at + self.items.length : at;
      if (k < 0 || k >= self.items.length)
        throw new PyError("IndexError", "pop index out of range");
      return self.items.splice(k, 1)[0];
    }
    case "index": {
      const k = self.items.findIndex((v) => equalValues(v, g[0]));
      if (k < 0) throw new PyError("ValueError", `${repr(g[0])} is not in list`);
      return pyInt(k);
    }
    default:
      throw new UnsupportedError(`the list method .${name}`);
  }
}

function displayText(value) {
  if (value.t === "str") return value.v;
  if (value.t === "exc") return value.message;
  return repr(value);
}

// Python's repr of a value, for messages (tensors through core.mjs's formatter).
export function repr(value) {
  switch (value.t) {
    case "int":
      return String(value.v);
    case "float":
      return floatRepr(value.v);
    case "bool":
      return value.v ? "True" : "False";
    case "none":
      return "None";
    case "str":
      return strRepr(value.v);
    case "list":
      return `[${value.items.map(repr).join(", ")}]`;
    case "tuple":
      return value.size
        ? `torch.Size([${value.items.map(repr).join(", ")}])`
        : value.items.length === 1
          ? `(${repr(value.items[0])},)`
          : `(${value.items.map(repr).join(", ")})`;
    case "dtype":
      return `${value.lib === "tf" ? "tf" : "torch"}.${value.name}`;
    case "tensor":
      return `tensor of shape (${value.shape.join(", ")}${value.shape.length === 1 ? "," : ""}) and dtype ${value.dtype}`;
    default:
      return typeName(value);
  }
}

// The names a typed answer may use: tensor(...) and array(...) as torch and NumPy print
// them, with their dtypes (tf.Tensor's printed forms are rewritten to these first).
export function literalScope() {
  const scope = {
    tensor: TORCH.tensor,
    array: TORCH.tensor,
    torch: { t: "module", name: "torch" },
  };
  for (const [alias, dtype] of Object.entries(TORCH_DTYPES))
    scope[alias] = dtypeValue(dtype, "torch");
  scope.np = { t: "module", name: "np" };
  return scope;
}

// np.array(...) in a typed answer (NumPy's printed form): read as torch.tensor.
const NP = { array: TORCH.tensor };
for (const [alias, dtype] of Object.entries(TF_DTYPES)) NP[alias] = dtypeValue(dtype, "torch");

// Names the real library lacks that learners call (TensorFlow 1 API gone from TensorFlow
// 2, another library's op or method): Python's AttributeError, in Python's words, which
// the error table explains (error_rules.mjs's api-not-in-library), not "unsupported".
const SEGMENT_OPS = ["sum", "mean", "max", "min", "prod"];
const ABSENT = {
  tf: new Set([
    "batch_gather",
    "batch_scatter_update",
    ..."update add sub mul div max min".split(" ").map((r) => `scatter_${r}`),
    ..."update add sub".split(" ").map((r) => `scatter_nd_${r}`),
    ..."update add sub".split(" ").map((r) => `tensor_scatter_${r}`),
    ...SEGMENT_OPS.map((r) => `segment_${r}`),
    ...[...SEGMENT_OPS, "sqrt_n"].map((r) => `unsorted_segment_${r}`),
    "to_int32",
    "to_int64",
    "to_float",
    "to_double",
    "Session",
    "InteractiveSession",
    "placeholder",
    "get_variable",
    "global_variables_initializer",
    "variable_scope",
    "arg_max",
    "arg_min",
    "log",
    "random_uniform",
    "Print",
    "index_select",
    "take_along_dim",
  ]),
  torch: new Set([
    "gather_nd",
    "batch_gather",
    "tensor_scatter_nd_update",
    "tensor_scatter_nd_add",
    "scatter_nd",
    "take_along_axis",
    ...SEGMENT_OPS.map((r) => `unsorted_segment_${r}`),
  ]),
};
const MODULE_NAMES = { tf: "tensorflow", torch: "torch" };
// torch.Tensor's methods a TensorFlow tensor lacks
const TORCH_METHODS = new Set(
  (
    "scatter_ scatter_add_ scatter_reduce_ index_add_ index_copy_ index_fill_ index_put_ " +
    "masked_fill_ masked_scatter_ put_ gather index_select take_along_dim take scatter " +
    "scatter_add index_put index_add masked_fill masked_select"
  ).split(" "),
);

function attribute(value, name) {
  if (value.t === "module" && ABSENT[value.name]?.has(name))
    throw new PyError(
      "AttributeError",
      `module '${MODULE_NAMES[value.name]}' has no attribute '${name}'`,
    );
  if (value.t === "tensor" && value.lib === "tf" && TORCH_METHODS.has(name))
    throw new PyError(
      "AttributeError",
      `'tensorflow.python.framework.ops.EagerTensor' object has no attribute '${name}'`,
    );
  if (value.t === "module") {
    const table = {
      torch: TORCH,
      tf: TF,
      np: NP,
      "torch.nn": NN,
      "torch.nn.functional": FUNCTIONAL,
    }[value.name];
    if (Object.hasOwn(table, name) && table[name]) return table[name];
    throw new UnsupportedError(`${value.name}.${name}`);
  }
  if (value.t === "tensor") {
    if (name === "shape") return { ...tuple(value.shape.map(pyInt)), size: true };
    if (name === "ndim") return pyInt(value.shape.length);
    if (name === "dtype") return dtypeValue(value.dtype, value.lib);
    if (name === "data" && value.lib === "torch") return value; // no autograd here
    if (name === "T" && value.lib === "torch")
      return value.shape.length < 2
        ? value
        : permute(
            value,
            value.shape.map((_, d) => value.shape.length - 1 - d),
          );
    if (value.lib === "tf" || !METHODS.has(name))
      throw new UnsupportedError(
        `the attribute .${name} of a ${value.lib === "tf" ? "TensorFlow " : ""}tensor`,
      );
    return { t: "method", self: value, name };
  }
  if (value.t === "list" && ["append", "extend", "insert", "pop", "index"].includes(name))
    return { t: "method", self: value, name };
  throw new UnsupportedError(`the attribute .${name} of a ${typeName(value)}`);
}
