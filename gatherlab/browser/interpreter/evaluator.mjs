// The interpreter: runs the lines a learner writes in an exercise box, as python.mjs
// parses them (statements and expressions), with the part of torch and TensorFlow the
// chapters teach (torch.mjs, tensorflow.mjs, over the values of tensor.mjs and the
// indexing of indexing.mjs). It never calls eval or Function: every name it knows is in
// those modules' tables, and anything else is refused with an UnsupportedError that
// names it. tests/js/evaluator.test.mjs checks it against torch and TensorFlow
// (tools/evaluator_cases.py).

import { isFloat } from "../explorers/core.mjs";
import { floatRepr, NONE, parse, PyError, pyInt, strRepr, UnsupportedError } from "./python.mjs";
import { basicLayout, getItem, setItem } from "./indexing.mjs";
import {
  ARITH,
  assertNoInternalOverlap,
  assertNoPartialOverlap,
  asTensor,
  cast,
  category,
  COMPARISONS,
  fn,
  isNumber,
  layoutOf,
  list,
  MAX_ENTRIES,
  numberOf,
  offsetsOf,
  optionalInt,
  promote,
  pyBool,
  pyFloat,
  tensor,
  tensorBinary,
  toInt,
  truthy,
  tuple,
  typeName,
  writeAt,
} from "./tensor.mjs";
import { TF, TF_DTYPES } from "./tensorflow.mjs";
import {
  callMethod,
  dtypeValue,
  FUNCTIONAL,
  METHODS,
  NN,
  permute,
  TORCH,
  TORCH_DTYPES,
  torchDtypeName,
} from "./torch.mjs";

// The interpreter's interface (checker/exercises.mjs imports it when a box is first used).
export { PyError, UnsupportedError, parse } from "./python.mjs";
export { fromPayload, toPayload } from "./tensor.mjs";
export { family } from "./torch.mjs";

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
  "sum",
  "sorted",
  "reversed",
  "map",
  "filter",
  "any",
  "all",
  "round",
  "divmod",
  "pow",
  "isinstance",
  "issubclass",
  "type",
  "str",
  "bool",
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
  "KeyError",
  "AssertionError",
  "ZeroDivisionError",
  "NotImplementedError",
  "StopIteration",
  "AttributeError",
  "NameError",
  "ArithmeticError",
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
  min: fn("min", (g) => pickExtreme(g, (a, b) => a < b)),
  max: fn("max", (g) => pickExtreme(g, (a, b) => a > b)),
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
  IndexError: { t: "exception", name: "IndexError" },
  ValueError: { t: "exception", name: "ValueError" },
  RuntimeError: { t: "exception", name: "RuntimeError" },
  TypeError: { t: "exception", name: "TypeError" },
  Exception: { t: "exception", name: "Exception" },
};

function pickExtreme(g, better) {
  const items = g.length === 1 ? iterate(g[0]) : g;
  if (!items.length) throw new PyError("ValueError", "max() arg is an empty sequence");
  return items.reduce((best, v) => (better(numberOf(v), numberOf(best)) ? v : best));
}

// ------------------------------------------------------------------ interpreter

class Return {
  constructor(value) {
    this.value = value;
  }
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
    if (op === "&" || op === "|") {
      if (float)
        throw new PyError("TypeError", `unsupported operand type(s) for ${op}: 'float' and 'int'`);
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
  if (
    (left.t === "list" || left.t === "tuple") &&
    op === "*" &&
    (right.t === "int" || right.t === "bool")
  ) {
    const items = [];
    for (let r = 0; r < numberOf(right); r++) items.push(...left.items);
    return { t: left.t, items };
  }
  if ((right.t === "list" || right.t === "tuple") && op === "*" && left.t === "int")
    return binary(op, right, left);
  if (op === "==" || op === "!=") {
    const same = equalValues(left, right);
    return pyBool(op === "==" ? same : !same);
  }
  throw new PyError(
    "TypeError",
    `unsupported operand type(s) for ${op}: '${typeName(left)}' and '${typeName(right)}'`,
  );
}

// torch's x op= y: in place, into x's memory, after torch's checks (no two entries of
// x share memory, y does not partly overlap x), where y broadcasts to x's shape and
// the result's dtype casts to x's (no float into an integer tensor, only bool into bool).
function augmented(op, current, other) {
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
  const value = binary(op, current, other);
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

function equalValues(a, b) {
  if (isNumber(a) && isNumber(b)) return numberOf(a) === numberOf(b);
  if ((a.t === "list" || a.t === "tuple") && a.t === b.t)
    return a.items.length === b.items.length && a.items.every((v, k) => equalValues(v, b.items[k]));
  if (a.t === "none" && b.t === "none") return true;
  if (a.t === "str" && b.t === "str") return a.v === b.v;
  if (a.t === "dtype" && b.t === "dtype") return a.name === b.name;
  return false;
}

export function run(source, inputs = {}, options = {}) {
  const program = parse(source);
  const scope = new Map(Object.entries(inputs));
  const lib = options.lib ?? "torch";
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

  const lookup = (name) => {
    if (scope.has(name)) return scope.get(name);
    if (Object.hasOwn(BUILTINS, name)) return BUILTINS[name];
    if (["np", "numpy", "F", "nn", "math"].includes(name))
      throw new UnsupportedError(
        `the name ${name} (only torch${options.tf ? " and tf" : ""} and the exercise's arguments)`,
      );
    if (PYTHON_BUILTINS.has(name)) throw new UnsupportedError(`Python's builtin ${name}`);
    throw new PyError("NameError", `name '${name}' is not defined`);
  };

  function evaluate(node) {
    tick();
    switch (node.e) {
      case "const":
        return node.v;
      case "name":
        return lookup(node.name);
      case "tuple":
        return tuple(node.items.map(evaluate));
      case "list":
        return list(node.items.map(evaluate));
      case "comp": {
        const items = [];
        for (const item of iterate(evaluate(node.iterable))) {
          bind(node.target, item);
          if (node.conditions.every((c) => truthy(evaluate(c)))) items.push(evaluate(node.element));
        }
        return list(items);
      }
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
      case "subscript":
        return getItem(evaluate(node.value), evaluate(node.index));
      case "call": {
        const func = evaluate(node.func);
        const g = node.args.map(evaluate);
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
        if (node.op === "~") return pyInt(~numberOf(v));
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
            const same = left === right || (left.t === "none" && right.t === "none");
            value = pyBool(op === "is" ? same : !same);
          } else if (op === "in" || op === "not in") {
            const found = iterate(right).some((v) => equalValues(v, left));
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

  function callValue(func, g, kw) {
    if (func.t === "func") {
      called(func.name.replace(/^tf\./, "tensorflow."));
      return func.call(g, kw);
    }
    if (func.t === "method") {
      if (func.self.t === "list") {
        func.self.items.push(g[0]);
        return NONE;
      }
      called(`torch.Tensor.${func.name}`);
      return callMethod(func.self, func.name, g, kw);
    }
    if (func.t === "exception")
      return { t: "exc", name: func.name, message: g[0] ? displayText(g[0]) : "" };
    if (func.t === "dtype") throw new UnsupportedError(`calling ${func.name}`);
    throw new PyError("TypeError", `'${typeName(func)}' object is not callable`);
  }

  function bind(target, value) {
    if (target.e === "name") {
      scope.set(target.name, value);
      return;
    }
    if (target.e === "subscript") {
      // x[i][j] = v writes into x where x[i] is a view (basic indexing), as in torch
      setItem(evaluate(target.value), evaluate(target.index), value);
      return;
    }
    const items = iterate(value);
    if (items.length !== target.items.length)
      throw new PyError(
        "ValueError",
        items.length > target.items.length
          ? `too many values to unpack (expected ${target.items.length})`
          : `not enough values to unpack (expected ${target.items.length}, got ${items.length})`,
      );
    target.items.forEach((t, k) => bind(t, items[k]));
  }

  function execute(body) {
    for (const statement of body) {
      tick();
      switch (statement.s) {
        case "pass":
          break;
        case "import":
          for (const { name, as } of statement.names) {
            if (name === "torch") scope.set(as, { t: "module", name: "torch" });
            else if (name === "tensorflow" && (lib === "tf" || options.tf))
              scope.set(as, { t: "module", name: "tf" });
            else throw new UnsupportedError(`import ${name}`);
          }
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
          const current = root ? getItem(root, index) : evaluate(target);
          const other = evaluate(statement.value);
          if (current.t !== "tensor" || current.lib !== "torch") {
            const value = binary(statement.op, current, other);
            if (root) setItem(root, index, value);
            else bind(target, value);
            break;
          }
          augmented(statement.op, current, other);
          // a basic index's view wrote into root; an advanced one's copy is put back
          if (root && (root.t !== "tensor" || !basicLayout(root, index)))
            setItem(root, index, current);
          break;
        }
        case "expr": {
          const value = evaluate(statement.value);
          lastValue = value;
          break;
        }
        case "return":
          throw new Return(statement.value === null ? NONE : evaluate(statement.value));
        case "assert":
          if (!truthy(evaluate(statement.test)))
            throw new PyError(
              "AssertionError",
              statement.message === null ? "" : asText(evaluate(statement.message)),
            );
          break;
        case "raise": {
          const exc = evaluate(statement.value);
          if (exc.t === "exception") throw new PyError(exc.name, "");
          if (exc.t === "exc") throw new PyError(exc.name, exc.message);
          throw new PyError("TypeError", "exceptions must derive from BaseException");
        }
        case "for":
          for (const item of iterate(evaluate(statement.iterable))) {
            bind(statement.target, item);
            execute(statement.body);
          }
          break;
        case "if":
          execute(truthy(evaluate(statement.test)) ? statement.body : statement.orelse);
          break;
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
    throw signal;
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

function displayText(value) {
  if (value.t === "str") return value.v;
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

function attribute(value, name) {
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
  if (value.t === "list" && name === "append") return { t: "method", self: value, name };
  throw new UnsupportedError(`the attribute .${name} of a ${typeName(value)}`);
}
