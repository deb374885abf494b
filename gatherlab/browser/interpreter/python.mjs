// Python's syntax, for the subset the book's browser code reads: a tokenizer, a parser
// (statements and expressions into plain-object trees) and the errors they raise.
// evaluator.mjs runs the trees; core.mjs's parseTensor reads a literal from one (the
// explorers' text boxes), so both read Python's literals with one grammar. Nothing
// here evaluates anything.

export class UnsupportedError extends Error {}

// A Python exception the learner's code raises: {type, message, rule (gatherlab.diagnose
// rule id for the gather family, else null), call (the torch op that raised it, where a
// rule words it)}.
export class PyError extends Error {
  constructor(type, message, rule = null, hint = "") {
    super(message);
    this.type = type;
    this.rule = rule;
    this.hint = hint;
    /** @type {string | undefined} */
    this.call = undefined;
  }
}

// Python's repr of a str: quotes, and escapes for what is not printable.
export function strRepr(word) {
  const quote = word.includes("'") && !word.includes('"') ? '"' : "'";
  const escaped = [...word].map((c) => {
    const code = c.codePointAt(0);
    if (c === "\\" || c === quote) return `\\${c}`;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    if (c === " " || !/[\p{C}\p{Z}]/u.test(c)) return c;
    const hex = code.toString(16);
    if (code < 0x100) return `\\x${hex.padStart(2, "0")}`;
    return code < 0x10000 ? `\\u${hex.padStart(4, "0")}` : `\\U${hex.padStart(8, "0")}`;
  });
  return quote + escaped.join("") + quote;
}

// Python's repr of a float: the shortest digits that read back (as JavaScript's), in
// positional form for exponents -4..15 and as 1e-05 / 1.5e+16 outside them.
export function floatRepr(value) {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const sign = value < 0 || Object.is(value, -0) ? "-" : "";
  if (value === 0) return `${sign}0.0`;
  const [mantissa, power] = Math.abs(value).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const exponent = Number(power);
  if (exponent < -4 || exponent >= 16) {
    const e = `${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
    return `${sign}${mantissa}e${e}`;
  }
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
  return `${sign}${whole}.${digits.slice(exponent + 1) || "0"}`;
}

// The parser's constants, which evaluator.mjs's values share.
export const NONE = { t: "none" };
export const ELLIPSIS = { t: "ellipsis" };
export const pyInt = (v) => ({ t: "int", v });

// ------------------------------------------------------------------ tokenizer

const OPERATORS = [
  "**=",
  "//=",
  "...",
  "**",
  "//",
  "==",
  "!=",
  "<=",
  ">=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "&=",
  "|=",
  "->",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "<",
  ">",
  "&",
  "|",
  "~",
  "@",
  "^",
  ";",
];
const KEYWORDS = new Set([
  "for",
  "in",
  "if",
  "elif",
  "else",
  "return",
  "raise",
  "pass",
  "and",
  "or",
  "not",
  "is",
  "None",
  "True",
  "False",
  "import",
  "from",
  "as",
  "def",
  "while",
  "lambda",
  "with",
  "try",
  "except",
  "finally",
  "class",
  "yield",
  "global",
  "nonlocal",
  "del",
  "assert",
  "break",
  "continue",
  "async",
  "await",
]);

// Python's number literals: floats, hex, octal and binary ints, decimal ints (no
// leading zeros), with single underscores between digits.
const DIGITS = String.raw`\d(?:_?\d)*`;
const NUMBER = new RegExp(
  String.raw`^(?:(?:(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.?)[eE][-+]?${DIGITS}|(?:${DIGITS})?\.${DIGITS}|${DIGITS}\.` +
    String.raw`|0[xX](?:_?[\da-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?\d)*|0(?:_?0)*)`,
);

function tokenize(source) {
  const tokens = [];
  const indents = [0];
  let depth = 0;
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    let i = 0;
    if (depth === 0) {
      const indent = line.match(/^[ \t]*/)[0].replace(/\t/g, "    ").length;
      const rest = line.trim();
      if (rest === "" || rest.startsWith("#")) continue;
      if (indent > indents[indents.length - 1]) {
        indents.push(indent);
        tokens.push({ k: "indent", line: n + 1 });
      }
      while (indent < indents[indents.length - 1]) {
        indents.pop();
        tokens.push({ k: "dedent", line: n + 1 });
      }
      if (indent !== indents[indents.length - 1])
        throw new PyError(
          "IndentationError",
          `line ${n + 1}: unindent does not match any outer indentation level`,
        );
    }
    while (i < line.length) {
      const c = line[i];
      if (c === " " || c === "\t") {
        i++;
        continue;
      }
      if (c === "#") break;
      if (c === "\\" && i === line.length - 1) {
        // a line continuation, not at the end
        if (!lines.slice(n + 1).some((l) => l.trim()))
          throw new PyError("SyntaxError", "unexpected EOF while parsing");
        break;
      }
      const at = { line: n + 1 };
      const rest = line.slice(i);
      const number = rest.match(NUMBER);
      if (number) {
        const text = number[0].replace(/_/g, "");
        const next = rest[number[0].length] ?? "";
        if (/[jJ]/.test(next))
          throw new UnsupportedError(`the number ${rest.slice(0, number[0].length + 1)}…`);
        if (/[\w.]/.test(next)) throw new PyError("SyntaxError", "invalid decimal literal");
        tokens.push({
          k: "num",
          v: Number(text),
          float: !/^0[xXoObB]/.test(text) && /[.eE]/.test(text),
          ...at,
        });
        i += number[0].length;
        continue;
      }
      const fstring = rest.match(/^[fF](['"])(.*?)\1/);
      if (fstring) {
        tokens.push({ k: "fstr", v: fstring[2], ...at });
        i += fstring[0].length;
        continue;
      }
      const word = rest.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word) {
        tokens.push({ k: KEYWORDS.has(word[0]) ? word[0] : "name", v: word[0], ...at });
        i += word[0].length;
        continue;
      }
      if (c === "'" || c === '"') {
        const end = line.indexOf(c, i + 1);
        if (end < 0) throw new PyError("SyntaxError", `line ${n + 1}: the string is not closed`);
        const body = line.slice(i + 1, end);
        if (body.includes("\\")) throw new UnsupportedError("backslashes in strings");
        tokens.push({ k: "str", v: body, ...at });
        i = end + 1;
        continue;
      }
      const op = OPERATORS.find((o) => rest.startsWith(o));
      if (!op) throw new UnsupportedError(`the character ${JSON.stringify(c)}`);
      if ("([{".includes(op)) depth++;
      if (")]}".includes(op)) depth = Math.max(0, depth - 1);
      tokens.push({ k: op, ...at });
      i += op.length;
    }
    if (depth === 0 && !line.trimEnd().endsWith("\\")) tokens.push({ k: "nl", line: n + 1 });
  }
  const last = tokens.findLast((token) => token.line)?.line; // where the answer ends
  while (indents.length > 1) {
    indents.pop();
    tokens.push({ k: "dedent", line: last });
  }
  tokens.push({ k: "end", line: last });
  return tokens;
}

// ------------------------------------------------------------------ parser

const NOT_SUPPORTED = {
  def: "defining functions (def)",
  while: "while loops",
  lambda: "lambda",
  with: "with blocks",
  try: "try/except",
  except: "try/except",
  class: "classes",
  yield: "yield",
  global: "global",
  nonlocal: "nonlocal",
  del: "del",
  break: "break",
  continue: "continue",
  async: "async",
  await: "await",
  from: "from … import",
  finally: "try/finally",
  "{": "dicts and sets",
  "@": "the @ operator",
  "^": "the ^ operator",
  ";": "semicolons",
};

// One {expression} of an f-string (no format specs), as the parts it shows: `{x=}`
// shows its own text and the value's repr.
function fstringParts(source) {
  if (/[!:]/.test(source.replace(/\[[^\]]*\]|\([^)]*\)|==|!=|<=|>=/g, "")))
    throw new UnsupportedError("format specs in f-strings");
  const echo = /[^=!<>]=\s*$/.test(source);
  const [statement] = parse(echo ? source.replace(/=\s*$/, "") : source);
  if (!statement || statement.s !== "expr")
    throw new PyError("SyntaxError", "f-string: expecting an expression");
  if (!echo) return [statement.value];
  return [
    source,
    { e: "call", func: { e: "name", name: "repr" }, args: [statement.value], kwargs: [] },
  ];
}

export function parse(source) {
  const tokens = tokenize(source);
  let k = 0;
  const peek = (o = 0) => tokens[k + o];
  const is = (kind) => tokens[k].k === kind;
  const take = (kind) => {
    const token = tokens[k];
    if (token.k !== kind) {
      if (NOT_SUPPORTED[token.k]) throw new UnsupportedError(NOT_SUPPORTED[token.k]);
      const shown =
        token.k === "nl"
          ? "the end of the line"
          : token.k === "end"
            ? "the end"
            : `'${token.v ?? token.k}'`;
      throw new PyError(
        "SyntaxError",
        `line ${token.line ?? "?"}: expected '${kind === "nl" ? "end of line" : kind}' before ${shown}`,
      );
    }
    k++;
    return token;
  };
  const accept = (kind) => (is(kind) ? (k++, true) : false);

  function block() {
    take(":");
    if (!accept("nl")) {
      const body = simpleStatement();
      take("nl");
      return [body];
    }
    take("indent");
    const body = [];
    while (!is("dedent") && !is("end")) body.push(statement());
    take("dedent");
    return body;
  }

  function statement() {
    const token = peek();
    if (token.k === "for") {
      k++;
      const target = targetList();
      take("in");
      const iterable = expressionList();
      return { s: "for", target, iterable, body: block(), line: token.line };
    }
    if (token.k === "if") {
      k++;
      const test = expression();
      const body = block();
      let orelse = [];
      if (is("elif")) {
        tokens[k] = { ...tokens[k], k: "if" };
        orelse = [statement()];
      } else if (accept("else")) orelse = block();
      return { s: "if", test, body, orelse, line: token.line };
    }
    if (NOT_SUPPORTED[token.k] && token.k !== "from")
      throw new UnsupportedError(NOT_SUPPORTED[token.k]);
    const simple = simpleStatement();
    if (!is("end")) take("nl");
    return simple;
  }

  function simpleStatement() {
    const token = peek();
    if (accept("pass")) return { s: "pass" };
    if (accept("return"))
      return {
        s: "return",
        value: is("nl") || is("end") ? null : expressionList(),
        line: token.line,
      };
    if (accept("raise")) return { s: "raise", value: expression(), line: token.line };
    if (accept("assert")) {
      const test = expression();
      return { s: "assert", test, message: accept(",") ? expression() : null, line: token.line };
    }
    if (accept("import")) {
      const names = [];
      do {
        let name = take("name").v;
        while (accept(".")) name += "." + take("name").v;
        const as = accept("as") ? take("name").v : name.split(".")[0];
        names.push({ name, as });
      } while (accept(","));
      return { s: "import", names };
    }
    if (is("from")) throw new UnsupportedError(NOT_SUPPORTED.from);
    const first = expressionList();
    if (is(":") && first.e !== "tuple") {
      // an annotated name: `index: torch.Tensor = ...`
      k++;
      checkTarget(first);
      expression(); // the annotation, which Python does not check either
      if (!accept("=")) return { s: "pass" };
      return { s: "assign", targets: [first], value: expressionList(), line: token.line };
    }
    if (is("=")) {
      const targets = [first];
      let value;
      while (accept("=")) {
        value = expressionList();
        targets.push(value);
      }
      targets.pop();
      targets.forEach(checkTarget);
      return { s: "assign", targets, value, line: token.line };
    }
    const aug = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|="].find((o) => is(o));
    if (aug) {
      k++;
      checkTarget(first);
      return {
        s: "augassign",
        target: first,
        op: aug.slice(0, -1),
        value: expressionList(),
        line: token.line,
      };
    }
    return { s: "expr", value: first, line: token.line };
  }

  function checkTarget(node) {
    if (node.e === "name" || node.e === "subscript") return;
    if (node.e === "tuple" || node.e === "list") return node.items.forEach(checkTarget);
    if (node.e === "attr") throw new UnsupportedError("assigning to an attribute");
    throw new PyError("SyntaxError", "cannot assign to an expression");
  }

  function targetList() {
    const items = [primary()];
    while (accept(",")) {
      if (is("in")) break;
      items.push(primary());
    }
    const target = items.length === 1 ? items[0] : { e: "tuple", items };
    checkTarget(target);
    return target;
  }

  function expressionList() {
    const first = expression();
    if (!is(",")) return first;
    const items = [first];
    while (accept(",")) {
      if (["=", "nl", "end", ")", "]", ":"].includes(peek().k) || /=$/.test(peek().k)) break;
      items.push(expression());
    }
    return { e: "tuple", items };
  }

  function expression() {
    if (is("lambda")) throw new UnsupportedError(NOT_SUPPORTED.lambda);
    const value = orTest();
    if (accept("if")) {
      const test = orTest();
      take("else");
      return { e: "ifexp", test, body: value, orelse: expression() };
    }
    return value;
  }

  function orTest() {
    let left = andTest();
    while (accept("or")) left = { e: "bool", op: "or", left, right: andTest() };
    return left;
  }
  function andTest() {
    let left = notTest();
    while (accept("and")) left = { e: "bool", op: "and", left, right: notTest() };
    return left;
  }
  function notTest() {
    if (accept("not")) return { e: "not", value: notTest() };
    return comparison();
  }
  const COMPARE = ["<", "<=", ">", ">=", "==", "!="];
  function comparison() {
    const first = bitOr();
    const ops = [];
    const rest = [];
    for (;;) {
      let op = COMPARE.find((o) => is(o));
      if (op) k++;
      else if (is("in")) {
        k++;
        op = "in";
      } else if (is("not") && peek(1).k === "in") {
        k += 2;
        op = "not in";
      } else if (is("is")) {
        k++;
        op = accept("not") ? "is not" : "is";
      } else break;
      ops.push(op);
      rest.push(bitOr());
    }
    return ops.length ? { e: "compare", first, ops, rest } : first;
  }
  function binaryLevel(next, ops) {
    return () => {
      let left = next();
      for (;;) {
        const op = ops.find((o) => is(o));
        if (!op) return left;
        k++;
        left = { e: "bin", op, left, right: next() };
      }
    };
  }
  function unary() {
    for (const op of ["-", "+", "~"]) if (accept(op)) return { e: "unary", op, value: unary() };
    return power();
  }
  const term = binaryLevel(unary, ["*", "/", "//", "%", "@"]);
  const arith = binaryLevel(term, ["+", "-"]);
  const bitAnd = binaryLevel(arith, ["&"]);
  const bitOr = binaryLevel(bitAnd, ["|"]);
  function power() {
    const base = primary();
    if (accept("**")) return { e: "bin", op: "**", left: base, right: unary() };
    return base;
  }

  function primary() {
    let node = atom();
    for (;;) {
      if (accept(".")) node = { e: "attr", value: node, name: take("name").v };
      else if (accept("(")) node = { e: "call", func: node, ...callArguments() };
      else if (accept("[")) node = { e: "subscript", value: node, index: subscript() };
      else return node;
    }
  }

  function callArguments() {
    const args = [];
    const kwargs = [];
    while (!is(")")) {
      if (is("*") || is("**")) throw new UnsupportedError("*args and **kwargs in a call");
      if (is("name") && peek(1).k === "=") {
        const name = take("name").v;
        take("=");
        kwargs.push([name, expression()]);
      } else {
        if (kwargs.length)
          throw new PyError("SyntaxError", "positional argument follows keyword argument");
        args.push(comprehensionOr(expression()));
      }
      if (!accept(",")) break;
    }
    take(")");
    return { args, kwargs };
  }

  function subscript() {
    const items = [];
    let tuple = false;
    while (!is("]")) {
      items.push(sliceItem());
      if (!accept(",")) break;
      tuple = true;
    }
    take("]");
    if (!items.length) throw new PyError("SyntaxError", "empty subscript");
    return items.length === 1 && !tuple ? items[0] : { e: "tuple", items };
  }

  function sliceItem() {
    const part = () => (is(":") || is("]") || is(",") ? null : expression());
    const start = part();
    if (!accept(":")) return start;
    const stop = part();
    const step = accept(":") ? part() : null;
    return { e: "slice", start, stop, step };
  }

  function comprehensionOr(first) {
    if (!is("for")) return first;
    k++;
    const target = targetList();
    take("in");
    const iterable = orTest();
    const conditions = [];
    while (accept("if")) conditions.push(orTest());
    if (is("for")) throw new UnsupportedError("nested comprehensions");
    return { e: "comp", element: first, target, iterable, conditions };
  }

  function atom() {
    const token = peek();
    k++;
    switch (token.k) {
      case "num":
        return { e: "const", v: token.float ? { t: "float", v: token.v } : pyInt(token.v) };
      case "str": {
        let v = token.v;
        while (is("str")) v += take("str").v;
        return { e: "const", v: { t: "str", v } };
      }
      case "fstr":
        return {
          e: "fstr",
          parts: token.v
            .split(/(\{[^{}]*\})/)
            .flatMap((part) => (/^\{.*\}$/.test(part) ? fstringParts(part.slice(1, -1)) : [part])),
        };
      case "None":
        return { e: "const", v: NONE };
      case "True":
        return { e: "const", v: { t: "bool", v: true } };
      case "False":
        return { e: "const", v: { t: "bool", v: false } };
      case "...":
        return { e: "const", v: ELLIPSIS };
      case "name":
        return { e: "name", name: token.v, line: token.line };
      case "(": {
        if (accept(")")) return { e: "tuple", items: [] };
        const first = expression();
        if (is("for")) {
          const comp = comprehensionOr(first);
          take(")");
          return { ...comp, e: "comp" };
        }
        if (accept(")")) return first;
        const items = [first];
        while (accept(",")) {
          if (is(")")) break;
          items.push(expression());
        }
        take(")");
        return { e: "tuple", items };
      }
      case "[": {
        const items = [];
        while (!is("]")) {
          const item = expression();
          if (is("for")) {
            const comp = comprehensionOr(item);
            take("]");
            return comp;
          }
          items.push(item);
          if (!accept(",")) break;
        }
        take("]");
        return { e: "list", items };
      }
      default:
        k--;
        if (NOT_SUPPORTED[token.k]) throw new UnsupportedError(NOT_SUPPORTED[token.k]);
        throw new PyError(
          "SyntaxError",
          `line ${token.line ?? "?"}: unexpected ${token.k === "nl" ? "end of line" : token.k === "end" ? "end of the answer" : `'${token.v ?? token.k}'`}`,
        );
    }
  }

  const body = [];
  while (!is("end")) {
    if (accept("nl")) continue;
    if (is("indent"))
      throw new PyError("IndentationError", `line ${peek().line}: unexpected indent`);
    body.push(statement());
  }
  return body;
}
