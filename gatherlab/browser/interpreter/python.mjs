// Python's syntax as the book's browser code reads it: a tokenizer, a parser (statements
// and expressions into plain-object trees) and the errors they raise. It reads all of
// Python's grammar that a learner's answer uses; what it reads and the page does not run
// (classes, yield, async, decorators, with, dicts) is refused by name (UnsupportedError),
// never called a syntax error. evaluator.mjs runs the trees; core.mjs's parseTensor
// reads a literal from one (the explorers' text boxes), so both read Python's literals
// with one grammar. Nothing here evaluates anything.

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
    /** the writing op or subscript that raised it (torch.mjs's failedCall), null if none */
    this.failed = undefined;
    /** a TensorFlow tensor's [] given a tensor of positions (indexing.mjs's getItem) */
    this.tfSubscript = false;
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
  "<<=",
  ">>=",
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
  "^=",
  "@=",
  "->",
  ":=",
  "<<",
  ">>",
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

// A string literal's prefix (r, b, u, f and their pairs, any case) and its quotes.
const STRING_START = /^([rRbBuUfF]{0,2})('''|"""|'|")/;
const STRING_PREFIXES = new Set(["", "r", "u", "b", "br", "rb", "f", "fr", "rf"]);
const ESCAPES = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

// The escape sequence at text[j] (a backslash): [its characters, its length].
function escapeAt(text, j) {
  const c = text[j + 1];
  if (Object.hasOwn(ESCAPES, c)) return [ESCAPES[c], 2];
  const hex = { x: 2, u: 4, U: 8 }[c];
  if (hex) {
    const digits = text.slice(j + 2, j + 2 + hex);
    if (!new RegExp(`^[0-9a-fA-F]{${hex}}$`).test(digits))
      throw new PyError("SyntaxError", `(unicode error) truncated \\${c} escape`);
    return [String.fromCodePoint(parseInt(digits, 16)), 2 + hex];
  }
  const octal = text.slice(j + 1).match(/^[0-7]{1,3}/);
  if (octal) return [String.fromCodePoint(parseInt(octal[0], 8)), 1 + octal[0].length];
  if (c === "N") throw new UnsupportedError("\\N{...} escapes in strings");
  return ["\\" + c, 2]; // Python keeps an escape it does not know
}

function tokenize(source) {
  const tokens = [];
  const indents = [0];
  let depth = 0;
  let continued = false; // the line before ended with a backslash: one logical line
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n];
    let i = 0;
    if (depth === 0 && !continued) {
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
    continued = false;
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
        continued = true;
        break;
      }
      const at = { line: n + 1 };
      const rest = line.slice(i);
      const quoted = rest.match(STRING_START);
      if (quoted && STRING_PREFIXES.has(quoted[1].toLowerCase())) {
        const prefix = quoted[1].toLowerCase();
        const quote = quoted[2];
        const raw = prefix.includes("r");
        let text = line;
        let j = i + quoted[0].length;
        let body = "";
        for (;;) {
          if (j >= text.length) {
            // a line's end: only a triple-quoted string goes on to the next line
            if (quote.length === 1 || n + 1 >= lines.length)
              throw new PyError(
                "SyntaxError",
                `line ${at.line}: unterminated ${quote.length === 3 ? "triple-quoted " : ""}string literal`,
              );
            body += "\n";
            text = lines[++n];
            j = 0;
            continue;
          }
          if (text.startsWith(quote, j)) {
            j += quote.length;
            break;
          }
          if (text[j] === "\\") {
            if (j + 1 >= text.length) {
              // a backslash ending the line: the string goes on on the next one
              if (n + 1 >= lines.length)
                throw new PyError("SyntaxError", `line ${at.line}: unterminated string literal`);
              if (raw) body += "\\\n";
              text = lines[++n];
              j = 0;
              continue;
            }
            if (raw) {
              body += text.slice(j, j + 2);
              j += 2;
              continue;
            }
            const [chars, length] = escapeAt(text, j);
            body += chars;
            j += length;
            continue;
          }
          body += text[j++];
        }
        if (prefix.includes("b")) throw new UnsupportedError("bytes literals (b'...')");
        tokens.push({ k: prefix.includes("f") ? "fstr" : "str", v: body, ...at });
        line = text;
        i = j;
        continue;
      }
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
      const word = rest.match(/^[A-Za-z_][A-Za-z0-9_]*/);
      if (word) {
        tokens.push({ k: KEYWORDS.has(word[0]) ? word[0] : "name", v: word[0], ...at });
        i += word[0].length;
        continue;
      }
      const op = OPERATORS.find((o) => rest.startsWith(o));
      if (!op) throw new UnsupportedError(`the character ${JSON.stringify(c)}`);
      if ("([{".includes(op)) depth++;
      if (")]}".includes(op)) depth = Math.max(0, depth - 1);
      tokens.push({ k: op, ...at });
      i += op.length;
    }
    if (depth === 0 && !continued) tokens.push({ k: "nl", line: n + 1 });
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

// What Python reads and the page does not run: refused by name, never called a syntax
// error.
const NOT_SUPPORTED = {
  with: "with blocks",
  class: "classes",
  yield: "yield",
  async: "async",
  await: "await",
  from: "from … import",
  "{": "dicts and sets",
  "@": "decorators",
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

const AUGMENTED = [
  "+=",
  "-=",
  "*=",
  "/=",
  "//=",
  "%=",
  "**=",
  "&=",
  "|=",
  "^=",
  "<<=",
  ">>=",
  "@=",
];

// Python's syntax as plain-object trees: statements {s: ...} holding expressions
// {e: ...}; what Python cannot read raises a SyntaxError (or IndentationError) naming the
// line, what it reads and the page does not run an UnsupportedError naming it.
export function parse(source) {
  const tokens = tokenize(source);
  let k = 0;
  const peek = (o = 0) => tokens[k + o];
  const is = (kind) => tokens[k].k === kind;
  const take = (kind) => {
    const token = tokens[k];
    if (token.k !== kind) {
      if (NOT_SUPPORTED[token.k] && token.k !== "@")
        throw new UnsupportedError(NOT_SUPPORTED[token.k]);
      const shown =
        token.k === "nl"
          ? "the end of the line"
          : token.k === "end" || token.k === "dedent"
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
      const body = simpleStatements();
      if (!is("end")) take("nl");
      return body;
    }
    if (!is("indent"))
      throw new PyError(
        "IndentationError",
        `line ${peek().line ?? "?"}: expected an indented block`,
      );
    take("indent");
    const body = [];
    while (!is("dedent") && !is("end")) body.push(...statement());
    take("dedent");
    return body;
  }

  // A compound statement, or one line of simple statements (separated by ;).
  function statement() {
    const token = peek();
    if (token.k === "for") {
      k++;
      const target = targetList();
      take("in");
      const iterable = expressionList();
      const body = block();
      const orelse = accept("else") ? block() : [];
      return [{ s: "for", target, iterable, body, orelse, line: token.line }];
    }
    if (token.k === "while") {
      k++;
      const test = namedExpression();
      const body = block();
      const orelse = accept("else") ? block() : [];
      return [{ s: "while", test, body, orelse, line: token.line }];
    }
    if (token.k === "if") {
      k++;
      const test = namedExpression();
      const body = block();
      let orelse = [];
      if (is("elif")) {
        tokens[k] = { ...tokens[k], k: "if" };
        orelse = statement();
      } else if (accept("else")) orelse = block();
      return [{ s: "if", test, body, orelse, line: token.line }];
    }
    if (token.k === "def") return [functionDef()];
    if (token.k === "try") {
      k++;
      const body = block();
      const handlers = [];
      while (is("except")) {
        const at = take("except").line;
        if (accept("*")) throw new UnsupportedError("except* (exception groups)");
        const types = is(":") ? null : expression();
        const name = accept("as") ? take("name").v : null;
        handlers.push({ types, name, body: block(), line: at });
      }
      const orelse = handlers.length && accept("else") ? block() : [];
      const finalbody = accept("finally") ? block() : [];
      if (!handlers.length && !finalbody.length)
        throw new PyError(
          "SyntaxError",
          `line ${token.line}: expected 'except' or 'finally' block`,
        );
      return [{ s: "try", body, handlers, orelse, finalbody, line: token.line }];
    }
    if (token.k === "@") throw new UnsupportedError(NOT_SUPPORTED["@"]);
    if (NOT_SUPPORTED[token.k] && token.k !== "from" && token.k !== "{")
      throw new UnsupportedError(NOT_SUPPORTED[token.k]);
    const simple = simpleStatements();
    if (!is("end")) take("nl");
    return simple;
  }

  function functionDef() {
    const token = take("def");
    const name = take("name").v;
    take("(");
    const params = parameters(")", true);
    take(")");
    if (accept("->")) expression(); // the return annotation, which Python does not check
    return { s: "def", name, params, body: block(), line: token.line };
  }

  // A def's or lambda's parameters: {name, kind ("positional", "star", "keyword"),
  // fallback (its default's expression, or null)}; annotations read and dropped.
  function parameters(closing, annotated) {
    const params = [];
    let keywordOnly = false;
    while (!is(closing)) {
      if (accept("/")) {
        if (!accept(",")) break;
        continue;
      }
      if (accept("**")) throw new UnsupportedError("**kwargs in a def (dicts)");
      if (accept("*")) {
        keywordOnly = true;
        if (is("name")) {
          const name = take("name").v;
          if (annotated && accept(":")) expression();
          params.push({ name, kind: "star", fallback: null });
        }
        if (!accept(",")) break;
        continue;
      }
      const name = take("name").v;
      if (annotated && accept(":")) expression();
      const fallback = accept("=") ? expression() : null;
      if (
        fallback === null &&
        !keywordOnly &&
        params.some((p) => p.fallback && p.kind === "positional")
      )
        throw new PyError(
          "SyntaxError",
          "parameter without a default follows parameter with a default",
        );
      params.push({ name, kind: keywordOnly ? "keyword" : "positional", fallback });
      if (!accept(",")) break;
    }
    return params;
  }

  function simpleStatements() {
    const body = [simpleStatement()];
    while (accept(";")) {
      if (is("nl") || is("end")) break;
      body.push(simpleStatement());
    }
    return body;
  }

  function simpleStatement() {
    const token = peek();
    if (accept("pass")) return { s: "pass" };
    if (accept("break")) return { s: "break", line: token.line };
    if (accept("continue")) return { s: "continue", line: token.line };
    if (accept("return"))
      return {
        s: "return",
        value: is("nl") || is("end") || is(";") ? null : starredList(),
        line: token.line,
      };
    if (accept("raise")) {
      if (is("nl") || is("end") || is(";")) return { s: "raise", value: null, line: token.line };
      const value = expression();
      if (accept("from")) expression(); // the cause, which the page's messages do not show
      return { s: "raise", value, line: token.line };
    }
    if (accept("assert")) {
      const test = expression();
      return { s: "assert", test, message: accept(",") ? expression() : null, line: token.line };
    }
    if (accept("global") || accept("nonlocal")) {
      const names = [take("name").v];
      while (accept(",")) names.push(take("name").v);
      return { s: token.k, names, line: token.line };
    }
    if (accept("del")) {
      const targets = [];
      do {
        if (is("nl") || is("end")) break;
        const target = orTest();
        checkTarget(target);
        targets.push(target);
      } while (accept(","));
      return { s: "del", targets, line: token.line };
    }
    if (accept("import")) {
      const names = [];
      do {
        let name = take("name").v;
        while (accept(".")) name += "." + take("name").v;
        const as = accept("as") ? take("name").v : null;
        names.push({ name, as });
      } while (accept(","));
      return { s: "import", names };
    }
    if (is("from")) throw new UnsupportedError(NOT_SUPPORTED.from);
    const first = starredList();
    if (is(":") && first.e !== "tuple") {
      // an annotated name: `index: torch.Tensor = ...`
      k++;
      checkTarget(first);
      expression(); // the annotation, which Python does not check either
      if (!accept("=")) return { s: "pass" };
      return { s: "assign", targets: [first], value: starredList(), line: token.line };
    }
    if (is("=")) {
      const targets = [first];
      let value;
      while (accept("=")) {
        value = starredList();
        targets.push(value);
      }
      targets.pop();
      targets.forEach((target) => checkTarget(target, true));
      return { s: "assign", targets, value, line: token.line };
    }
    const aug = AUGMENTED.find((o) => is(o));
    if (aug) {
      k++;
      checkTarget(first);
      if (first.e === "tuple" || first.e === "list")
        throw new PyError(
          "SyntaxError",
          `line ${token.line}: '${first.e}' is an illegal expression for augmented assignment`,
        );
      return {
        s: "augassign",
        target: first,
        op: aug.slice(0, -1),
        value: starredList(),
        line: token.line,
      };
    }
    return { s: "expr", value: first, line: token.line };
  }

  function checkTarget(node, unpacking = false) {
    if (node.e === "name" || node.e === "subscript") return;
    if (node.e === "tuple" || node.e === "list") {
      if (node.items.filter((item) => item.e === "star").length > 1)
        throw new PyError("SyntaxError", "multiple starred expressions in assignment");
      return node.items.forEach((item) => checkTarget(item, true));
    }
    if (node.e === "star" && unpacking) return checkTarget(node.value);
    if (node.e === "attr") throw new UnsupportedError("assigning to an attribute");
    throw new PyError("SyntaxError", "cannot assign to an expression");
  }

  function targetList() {
    const one = () => (accept("*") ? { e: "star", value: bitOr() } : bitOr());
    const items = [one()];
    let tuple = false;
    while (accept(",")) {
      tuple = true;
      if (is("in") || is("=")) break;
      items.push(one());
    }
    const target = items.length === 1 && !tuple ? items[0] : { e: "tuple", items };
    checkTarget(target, true);
    return target;
  }

  // Expressions separated by commas, any of them *starred: a tuple where there is a comma.
  function starredList() {
    const item = () => (accept("*") ? { e: "star", value: bitOr() } : namedExpression());
    const first = item();
    if (!is(",")) {
      if (first.e === "star") throw new PyError("SyntaxError", "can't use starred expression here");
      return first;
    }
    const items = [first];
    while (accept(",")) {
      if (["=", "nl", "end", ")", "]", ":", ";"].includes(peek().k) || AUGMENTED.includes(peek().k))
        break;
      items.push(item());
    }
    return { e: "tuple", items };
  }

  function expressionList() {
    return starredList();
  }

  function namedExpression() {
    if (is("name") && peek(1).k === ":=") {
      const name = take("name").v;
      k++;
      return { e: "walrus", name, value: expression() };
    }
    return expression();
  }

  function expression() {
    if (accept("lambda")) {
      const params = parameters(":", false);
      take(":");
      return { e: "lambda", params, body: expression() };
    }
    if (is("yield")) throw new UnsupportedError(NOT_SUPPORTED.yield);
    if (is("await")) throw new UnsupportedError(NOT_SUPPORTED.await);
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
  const shift = binaryLevel(arith, ["<<", ">>"]);
  const bitAnd = binaryLevel(shift, ["&"]);
  const bitXor = binaryLevel(bitAnd, ["^"]);
  const bitOr = binaryLevel(bitXor, ["|"]);
  function power() {
    if (is("await")) throw new UnsupportedError(NOT_SUPPORTED.await);
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
      if (accept("**")) throw new UnsupportedError("**kwargs in a call (dicts)");
      if (accept("*")) args.push({ e: "star", value: expression() });
      else if (is("name") && peek(1).k === "=") {
        const name = take("name").v;
        take("=");
        kwargs.push([name, expression()]);
      } else {
        if (kwargs.length)
          throw new PyError("SyntaxError", "positional argument follows keyword argument");
        args.push(comprehensionOr(namedExpression()));
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
    const start = is(":") ? null : namedExpression();
    if (!accept(":")) return start;
    const stop = part();
    const step = accept(":") ? part() : null;
    return { e: "slice", start, stop, step };
  }

  // `element for target in iterable if condition ...`, one or more for clauses.
  function comprehensionOr(first) {
    if (!is("for")) return first;
    const clauses = [];
    while (accept("for")) {
      if (first.e === "star")
        throw new PyError("SyntaxError", "iterable unpacking cannot be used in comprehension");
      const target = targetList();
      take("in");
      const iterable = orTest();
      const conditions = [];
      while (accept("if")) conditions.push(orTest());
      clauses.push({ target, iterable, conditions });
    }
    if (is("async")) throw new UnsupportedError(NOT_SUPPORTED.async);
    return { e: "comp", element: first, clauses };
  }

  function displayItem() {
    return accept("*") ? { e: "star", value: bitOr() } : namedExpression();
  }

  function atom() {
    const token = peek();
    k++;
    switch (token.k) {
      case "num":
        return { e: "const", v: token.float ? { t: "float", v: token.v } : pyInt(token.v) };
      case "str":
      case "fstr": {
        // adjacent literals are one string; an f-string among them formats its part
        const parts = [];
        k--;
        while (is("str") || is("fstr")) {
          const part = tokens[k++];
          if (part.k === "str") parts.push(part.v);
          else
            parts.push(
              ...part.v
                .split(/(\{[^{}]*\})/)
                .flatMap((piece) =>
                  /^\{.*\}$/.test(piece) ? fstringParts(piece.slice(1, -1)) : [piece],
                ),
            );
        }
        if (parts.every((part) => typeof part === "string"))
          return { e: "const", v: { t: "str", v: parts.join("") } };
        return { e: "fstr", parts };
      }
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
        if (is("yield")) throw new UnsupportedError(NOT_SUPPORTED.yield);
        const first = displayItem();
        if (is("for")) {
          const comp = comprehensionOr(first);
          take(")");
          return comp;
        }
        if (accept(")")) {
          if (first.e === "star")
            throw new PyError("SyntaxError", "cannot use starred expression here");
          return first;
        }
        const items = [first];
        while (accept(",")) {
          if (is(")")) break;
          items.push(displayItem());
        }
        take(")");
        return { e: "tuple", items };
      }
      case "[": {
        const items = [];
        while (!is("]")) {
          const item = displayItem();
          if (is("for") && !items.length) {
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
        if (NOT_SUPPORTED[token.k] && token.k !== "@")
          throw new UnsupportedError(NOT_SUPPORTED[token.k]);
        if (token.k === "lambda" || token.k === "yield") return expression();
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
    body.push(...statement());
  }
  return body;
}
