/* Predict exercises answered in the static book, with no kernel.
 *
 * Each predict stub's output holds a hidden <div data-exercise="ID" data-payload="...">
 * written by gatherlab/exercises/page.py. This script gives it an answer box and a
 * Check button and answers with the feedback gl.exercises.check gives in Python: every
 * sentence comes from the payload, which the real check wrote; here the typed text is
 * read as Python reads it (page.py's typed_answer) and sorted into its case.
 * tests/js/page_exercises.test.mjs runs it against answers checked by Python.
 */
(function (factory) {
  "use strict";
  const api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else if (typeof document !== "undefined") {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", () => api.mountAll(document));
    } else {
      api.mountAll(document);
    }
  }
})(function () {
  "use strict";

  // ---------------------------------------------------------- reading typed text
  // Python's str.isspace() characters, for \s in Python patterns and for str.strip().
  const PY_SPACE =
    "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
  const PY_SPACE_RE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, "g");
  const NAME_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*[ \t\r\n]*=(?!=)/;
  const LARGEST_INT = 2n ** 53n - 1n;
  const DIGITS = "[0-9](?:_?[0-9])*";
  const FLOAT = new RegExp(
    `^(?:(?:(?:${DIGITS})?\\.${DIGITS}|${DIGITS}\\.)(?:[eE][+-]?${DIGITS})?` +
      `|${DIGITS}[eE][+-]?${DIGITS})`,
  );
  const INT =
    /^(?:0[xX](?:_?[0-9a-fA-F])+|0[oO](?:_?[0-7])+|0[bB](?:_?[01])+|[1-9](?:_?[0-9])*|0(?:_?0)*)/;
  const NAME_CHAR = /[A-Za-z0-9_]/;
  const WORDS = { True: { t: "bool", v: true }, False: { t: "bool", v: false }, None: { t: "none" } };

  class Unreadable extends Error {}

  function stripSpace(text) {
    return text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
  }

  function intValue(digits) {
    return BigInt(digits.replace(/_/g, "").toLowerCase()); // BigInt reads 0x, 0o, 0b
  }

  function tokenize(text) {
    const tokens = [];
    let i = 0;
    let depth = 0;
    while (i < text.length) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\f") {
        i += 1;
      } else if (c === "\n" || c === "\r") {
        if (depth === 0) tokens.push({ k: "nl" });
        i += 1;
      } else if (c === "#") {
        while (i < text.length && text[i] !== "\n" && text[i] !== "\r") i += 1;
      } else if (text.startsWith("...", i)) {
        tokens.push({ k: "value", v: { t: "ellipsis" } });
        i += 3;
      } else if ("[(".includes(c)) {
        depth += 1;
        tokens.push({ k: c });
        i += 1;
      } else if ("])".includes(c)) {
        depth = Math.max(depth - 1, 0);
        tokens.push({ k: c });
        i += 1;
      } else if (c === "," || c === "-" || c === "+") {
        tokens.push({ k: c });
        i += 1;
      } else if (/[0-9.]/.test(c)) {
        const rest = text.slice(i);
        const float = FLOAT.exec(rest);
        const int = float ? null : INT.exec(rest);
        if (!float && !int) throw new Unreadable("number");
        const match = (float || int)[0];
        i += match.length;
        if (i < text.length && (NAME_CHAR.test(text[i]) || text[i] === ".")) {
          throw new Unreadable("number"); // 1j, 012, 1.2.3
        }
        tokens.push(
          float
            ? { k: "number", v: { t: "float", v: Number(match.replace(/_/g, "")) } }
            : { k: "number", v: { t: "int", big: intValue(match) } },
        );
      } else if (/[A-Za-z_]/.test(c)) {
        let j = i;
        while (j < text.length && NAME_CHAR.test(text[j])) j += 1;
        const word = text.slice(i, j);
        const quote = text[j];
        if ((quote === "'" || quote === '"') && /^(?:[uUrR])$/.test(word)) {
          i = j; // u"..." and r"..." are plain strings (a backslash never gets here)
          continue;
        }
        if (!(word in WORDS)) throw new Unreadable("name");
        tokens.push({ k: "value", v: WORDS[word] });
        i = j;
      } else if (c === "'" || c === '"') {
        const triple = text.startsWith(c.repeat(3), i);
        const end = triple ? text.indexOf(c.repeat(3), i + 3) : text.indexOf(c, i + 1);
        if (end < 0) throw new Unreadable("string");
        const body = text.slice(i + (triple ? 3 : 1), end);
        if (!triple && /[\n\r]/.test(body)) throw new Unreadable("string");
        const last = tokens[tokens.length - 1];
        if (last && last.k === "string") last.v.v += body; // "a" "b" is "ab"
        else tokens.push({ k: "string", v: { t: "str", v: body } });
        i = end + (triple ? 3 : 1);
      } else {
        throw new Unreadable("character");
      }
    }
    return tokens;
  }

  function parseTokens(tokens) {
    let at = 0;
    const peek = () => tokens[at] || { k: "end" };
    const take = (kind) => {
      if (peek().k !== kind) throw new Unreadable(kind);
      at += 1;
    };

    function atom() {
      const token = peek();
      if (token.k === "value" || token.k === "number" || token.k === "string") {
        at += 1;
        return { node: token.v, bare: token.k === "number" };
      }
      if (token.k === "-" || token.k === "+") {
        at += 1;
        const operand = atom();
        if (!operand.bare) throw new Unreadable("sign"); // --5, -True, -[1]
        const v = operand.node;
        if (token.k === "+") return { node: v, bare: false };
        return {
          node: v.t === "int" ? { t: "int", big: -v.big } : { t: "float", v: -v.v },
          bare: false,
        };
      }
      if (token.k === "[") {
        at += 1;
        const items = sequence("]");
        take("]");
        return { node: { t: "list", items: items.items } };
      }
      if (token.k === "(") {
        at += 1;
        if (peek().k === ")") {
          at += 1;
          return { node: { t: "tuple", items: [] } };
        }
        const inner = sequence(")");
        take(")");
        if (inner.comma) return { node: { t: "tuple", items: inner.items } };
        return inner.first; // (5) is 5, still bare for a sign in front
      }
      throw new Unreadable("value");
    }

    function sequence(close) {
      const items = [];
      let comma = false;
      let first = null;
      while (peek().k !== close && peek().k !== "end") {
        const item = atom();
        if (!first) first = item;
        items.push(item.node);
        if (peek().k === ",") {
          at += 1;
          comma = true;
        } else {
          break;
        }
      }
      if (close === ")" && items.length === 0) throw new Unreadable("value");
      return { items, comma, first };
    }

    while (peek().k === "nl") at += 1; // a comment line first
    const top = sequence("end");
    while (peek().k === "nl") at += 1;
    if (peek().k !== "end" || top.items.length === 0) throw new Unreadable("end");
    if (top.comma) return { t: "tuple", items: top.items };
    return top.items[0];
  }

  function withinRange(node) {
    if (node.t === "list" || node.t === "tuple") return node.items.every(withinRange);
    if (node.t === "int") {
      if (node.big > LARGEST_INT || node.big < -LARGEST_INT) return false;
      node.v = Number(node.big);
    }
    return true;
  }

  /** The value Python's typed_answer (gatherlab/exercises/page.py) reads from text. */
  function typedAnswer(raw) {
    const asText = (value) => ({ t: "str", v: value });
    let text = stripSpace(raw);
    const prefix = NAME_PREFIX.exec(text);
    if (prefix) text = stripSpace(text.slice(prefix[0].length));
    if (text.includes("\\")) return asText(text);
    try {
      const value = parseTokens(tokenize(text));
      return withinRange(value) ? value : asText(text);
    } catch (error) {
      if (error instanceof Unreadable) return asText(text);
      throw error;
    }
  }

  // ---------------------------------------------------------- numbers as Python prints
  /** The decimal digits and exponent of x, rounded to `places` digits, ties to even. */
  function rounded(x, places) {
    const [mantissa, exponent] = Math.abs(x).toPrecision(100).split("e");
    let digits = mantissa.replace(".", "").replace(/^0+/, "");
    let exp = exponent === undefined ? mantissa.split(".")[0].length - 1 : Number(exponent);
    if (exponent === undefined && /^0\./.test(mantissa)) {
      exp = -(mantissa.slice(2).search(/[1-9]/) + 1);
    }
    const head = digits.slice(0, places).padEnd(places, "0");
    const rest = digits.slice(places);
    let up = rest[0] > "5" || (rest[0] === "5" && /[1-9]/.test(rest.slice(1)));
    if (rest[0] === "5" && !/[1-9]/.test(rest.slice(1))) up = Number(head[head.length - 1]) % 2 === 1;
    let value = BigInt(head) + (up ? 1n : 0n);
    if (value.toString().length > places) {
      value /= 10n;
      exp += 1;
    }
    digits = value.toString();
    return { digits, exp };
  }

  /** Python's f"{x:.4g}". */
  function formatG4(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    const sign = x < 0 || Object.is(x, -0) ? "-" : "";
    if (x === 0) return `${sign}0`;
    const { digits, exp } = rounded(x, 4);
    if (exp >= -4 && exp < 4) {
      let text;
      if (exp >= 0) text = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
      else text = `0.${"0".repeat(-exp - 1)}${digits}`;
      text = text.replace(/0+$/, "").replace(/\.$/, "");
      return sign + text;
    }
    const tail = digits.slice(1).replace(/0+$/, "");
    const power = `${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    return `${sign}${digits[0]}${tail ? `.${tail}` : ""}e${power}`;
  }

  /** Python's repr() of a float that is not a whole number. */
  function floatRepr(x) {
    const [mantissa, exponent] = x.toExponential().split("e");
    const exp = Number(exponent);
    const sign = mantissa.startsWith("-") ? "-" : "";
    const digits = mantissa.replace("-", "").replace(".", "");
    if (exp >= -4 && exp < 16) {
      if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
      const whole = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
      return `${sign}${whole}.${digits.slice(exp + 1) || "0"}`;
    }
    const tail = digits.slice(1);
    const power = `${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
    return `${sign}${digits[0]}${tail ? `.${tail}` : ""}e${power}`;
  }

  /** page.py's number_key: 21 for 21 and 21.0, else the float as Python prints it. */
  function numberKey(x) {
    return Number.isInteger(x) ? String(x) : floatRepr(x);
  }

  // ---------------------------------------------------------- values as NumPy reads them
  const isSequence = (node) => node.t === "list" || node.t === "tuple";

  function shapeOf(node) {
    if (!isSequence(node)) return [];
    if (node.items.length === 0) return [0];
    const shapes = node.items.map(shapeOf);
    const first = JSON.stringify(shapes[0]);
    if (shapes.some((s) => s === null || JSON.stringify(s) !== first)) return null;
    return [node.items.length, ...shapes[0]];
  }

  function leaves(node, found = []) {
    if (isSequence(node)) node.items.forEach((item) => leaves(item, found));
    else found.push(node);
    return found;
  }

  /** np.asarray(answer): its shape, dtype kind and values; null shape when ragged. */
  function asArray(node) {
    const shape = shapeOf(node);
    if (shape === null) return { shape: null };
    const all = leaves(node);
    const has = (...types) => all.some((leaf) => types.includes(leaf.t));
    let kind = "f"; // an empty array is float64
    if (has("none", "ellipsis")) kind = "O";
    else if (has("str")) kind = "U";
    else if (has("float")) kind = "f";
    else if (has("int")) kind = "i";
    else if (has("bool")) kind = "b";
    const values = all.map((leaf) => (leaf.t === "bool" ? Number(leaf.v) : leaf.v));
    return { shape, kind, values };
  }

  function entries(node) {
    if (!isSequence(node)) return "is a number";
    return node.items.length === 1 ? "has 1 entry" : `has ${node.items.length} entries`;
  }

  function place(path) {
    if (path.length === 1) return `row ${path[0]}`;
    return `entry ${path.map((i) => `[${i}]`).join("")}`;
  }

  function ragged(node, path = []) {
    if (!isSequence(node) || node.items.length === 0) return null;
    const first = entries(node.items[0]);
    for (let i = 0; i < node.items.length; i += 1) {
      const here = entries(node.items[i]);
      if (here !== first) return `${place([...path, i])} ${here} but ${place([...path, 0])} ${first}`;
    }
    for (let i = 0; i < node.items.length; i += 1) {
      const found = ragged(node.items[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }

  function shapeText(shape) {
    if (shape.length === 1) return `(${shape[0]},)`;
    return `(${shape.join(", ")})`;
  }

  const dims = (count) => (count === 1 ? "1 dim" : `${count} dims`);
  const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
  const without = (shape, d) => shape.filter((_, i) => i !== d);

  /** compare.shape_advice with hints="none": what differs between two shapes. */
  function shapeAdvice(expected, got) {
    if (got.length + 1 === expected.length) {
      for (let d = 0; d < expected.length; d += 1) {
        if (same(without(expected, d), got)) return `dim ${d} (size ${expected[d]}) is missing`;
      }
    }
    if (got.length === expected.length + 1) {
      for (let d = 0; d < got.length; d += 1) {
        if (got[d] === 1 && same(without(got, d), expected)) return `dim ${d} (size 1) is extra`;
      }
    }
    if (got.length !== expected.length) {
      return `it has ${dims(got.length)} but should have ${dims(expected.length)}`;
    }
    const n = got.length;
    if (n >= 2 && same(got, [...expected.slice(0, -2), expected[n - 1], expected[n - 2]])) {
      return "the last two dims are swapped";
    }
    const d = got.findIndex((size, i) => size !== expected[i]);
    return `dim ${d} has size ${got[d]} but should have size ${expected[d]}`;
  }

  function isClose(got, want) {
    if (Number.isNaN(got) || Number.isNaN(want)) return Number.isNaN(got) && Number.isNaN(want);
    if (!Number.isFinite(got) || !Number.isFinite(want)) return got === want;
    return Math.abs(got - want) <= 1e-6 + 1e-5 * Math.abs(want);
  }

  function formatValue(value, kind) {
    if (kind === "b") return value ? "True" : "False";
    if (kind === "f") return formatG4(value);
    return String(value);
  }

  // ---------------------------------------------------------- the two checks
  const result = (shown) => ({ status: shown[0], message: shown[1], details: shown[2] });
  const failed = (message) => ({ status: "not yet", message, details: [] });
  const filled = (shown, hole, text) =>
    result([shown[0], shown[1].split(hole).join(text), shown[2].map((d) => d.split(hole).join(text))]);

  function checkPredict(payload, answer) {
    const shown = payload.results;
    if (answer.t === "ellipsis") return result(shown.unanswered);
    if (answer.t === "str" && new RegExp(payload.raise_words, "iu").test(answer.v)) {
      return result(shown.raises);
    }
    if (answer.t === "none") return result(shown.none);
    const array = asArray(answer);
    if (array.shape === null) {
      const why = ragged(answer);
      const reason = why ? `: ${why} (every row needs the same length)` : "";
      return failed(`Your answer cannot be read as an array of numbers${reason}.`);
    }
    if (!"biuf".includes(array.kind)) return result(shown.unreadable[answer.t]);
    const equals = (target) =>
      same(array.shape, target.shape) &&
      array.values.every((got, i) =>
        target.float || array.kind === "f" ? isClose(got, target.values[i]) : got === target.values[i],
      );
    if (equals({ shape: payload.shape, values: payload.expected, float: payload.float })) {
      return result(shown.passed);
    }
    const mistake = (payload.mistakes || []).find(equals); // a known wrong prediction
    if (mistake) return result(mistake.result);
    if (!same(array.shape, payload.shape)) {
      return failed(
        `Your answer has shape ${shapeText(array.shape)}, but it should have shape ` +
          `${shapeText(payload.shape)}: ${shapeAdvice(payload.shape, array.shape)}` +
          `${payload.shape_reason}.`,
      );
    }
    const loose = payload.float || array.kind === "f";
    const where = array.values.findIndex((got, i) => {
      const want = payload.expected[i];
      return loose ? !isClose(got, want) : got !== want;
    });
    const got = array.values[where];
    const wrong = payload.wrong[where];
    const known = wrong.known[(array.kind === "b" ? "b:" : "") + numberKey(got)];
    if (typeof known === "string") return result([wrong.template[0], known, wrong.template[2]]);
    if (known) return result(known);
    return filled(wrong.template, "{got}", formatValue(got, array.kind));
  }

  /** Python's repr() of a label the learner wrote. */
  function strRepr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let out = "";
    for (const c of text) {
      const code = c.codePointAt(0);
      if (c === quote || c === "\\") out += `\\${c}`;
      else if (c === "\t") out += "\\t";
      else if (c === "\n") out += "\\n";
      else if (c === "\r") out += "\\r";
      else if (c !== " " && /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(c)) {
        const [prefix, width] = code < 0x100 ? ["x", 2] : code < 0x10000 ? ["u", 4] : ["U", 8];
        out += `\\${prefix}${code.toString(16).padStart(width, "0")}`;
      } else out += c;
    }
    return quote + out + quote;
  }

  const byCodePoint = (a, b) => {
    const x = [...a].map((c) => c.codePointAt(0));
    const y = [...b].map((c) => c.codePointAt(0));
    for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
      if (x[i] !== y[i]) return x[i] - y[i];
    }
    return x.length - y.length;
  };

  /** PredictRaises._labels: the labels an answer names; null when it is not text. */
  function labelsOf(payload, answer) {
    let words;
    if (answer.t === "str") words = [answer.v];
    else if (isSequence(answer) && answer.items.every((item) => item.t === "str")) {
      words = answer.items.map((item) => item.v);
    } else return null;
    const separators = new RegExp(payload.separators.split("\\s").join(PY_SPACE));
    const known = new Map(payload.labels.map((label) => [label.toUpperCase(), label]));
    const labels = new Set();
    for (const word of words) {
      for (const part of word.replace(PY_SPACE_RE, "").split(separators)) {
        const upper = part.toUpperCase();
        if (!part || upper === "NONE") continue;
        if (known.has(upper)) labels.add(known.get(upper));
        else if ([...upper].every((letter) => known.has(letter))) {
          for (const letter of upper) labels.add(known.get(letter));
        } else labels.add(part);
      }
    }
    return labels;
  }

  const TYPE_NAMES = { none: "None", int: "int", float: "float", bool: "bool", list: "list", tuple: "tuple" };

  function checkRaises(payload, answer) {
    const shown = payload.results;
    if (answer.t === "ellipsis") return result(shown.unanswered);
    const labels = labelsOf(payload, answer);
    if (labels === null) return result(shown.not_text[TYPE_NAMES[answer.t]]);
    const unknown = [...labels].filter((label) => !payload.labels.includes(label)).sort(byCodePoint);
    if (unknown.length) return filled(shown.unknown, "{word}", strRepr(unknown[0]));
    const missed = payload.solution.filter((label) => !labels.has(label));
    const extra = payload.labels.filter((label) => labels.has(label) && !payload.solution.includes(label));
    if (!missed.length && !extra.length) return result(shown.passed);
    return result(payload.first_wrong[[...missed, ...extra][0]]);
  }

  function checkChoice(payload, answer) {
    const shown = payload.results;
    if (answer.t === "ellipsis") return result(shown.unanswered);
    const labels = labelsOf(payload, answer);
    if (labels === null || labels.size !== 1) return result(shown.pick_one);
    const [label] = labels;
    if (!payload.labels.includes(label)) return filled(shown.unknown, "{word}", strRepr(label));
    return result(shown.by_label[label]);
  }

  const CHECKS = { predict: checkPredict, predict_raises: checkRaises, choose: checkChoice };

  /** gl.exercises.check(payload.id, <the typed text, read as Python>). */
  function check(payload, text) {
    return CHECKS[payload.kind](payload, typedAnswer(text));
  }

  // ---------------------------------------------------------- the page
  const STYLE = `
.gl-page-check { margin: 0.6em 0 0.2em 0; }
.gl-page-check label { display: block; font-weight: 600; margin-bottom: 0.25em; }
.gl-page-check .gl-page-row { display: flex; gap: 0.5em; flex-wrap: wrap; }
.gl-page-check input { flex: 1 1 18em; font-family: var(--pst-font-family-monospace, monospace);
  font-size: 0.95em; padding: 0.3em 0.45em; border: 1px solid #808080; border-radius: 3px;
  color: inherit; background: transparent; }
.gl-page-check button { padding: 0.3em 1em; border: 1px solid #0b4f8a; border-radius: 3px;
  background: #0b4f8a; color: #ffffff; font-weight: 600; cursor: pointer; }
.gl-page-check button:hover { background: #083a66; }
.gl-page-check input:focus-visible, .gl-page-check button:focus-visible {
  outline: 3px solid #b35900; outline-offset: 1px; }
.gl-page-check .gl-page-feedback:not(:empty) { margin-top: 0.5em; }
.gl-live-note { margin: 0.4em 0 0 0; font-style: italic; }
`;

  function codeSpans(parent, message) {
    message.split(/`([^`]+)`/).forEach((part, i) => {
      if (i % 2) {
        const code = document.createElement("code");
        code.textContent = part;
        parent.append(code);
      } else parent.append(part);
    });
  }

  /** The same box Result._repr_html_ draws in a notebook. */
  function render(payload, outcome) {
    const box = document.createElement("div");
    box.className = `gl-check gl-check-${outcome.status.replace(/ /g, "-")}`;
    box.style.cssText = `border-left:4px solid ${payload.colours[outcome.status]};padding:0.3em 0.7em`;
    const head = document.createElement("strong");
    head.textContent = `${payload.id}: ${outcome.status}.`;
    box.append(`${payload.marks[outcome.status]} `, head, " ");
    codeSpans(box, outcome.message);
    if (outcome.details.length) {
      const pre = document.createElement("pre");
      pre.style.cssText = "margin:0.3em 0 0 0;white-space:pre-wrap;overflow-wrap:anywhere";
      pre.textContent = outcome.details.join("\n");
      box.append(pre);
    }
    return box;
  }

  const ASK = {
    predict: ["type the value, as a number or as nested lists such as [[1, 2], [3, 4]]", "Your prediction"],
    predict_raises: ["type the labels of the calls that raise (such as A, C), or none", "Calls that raise"],
    choose: ["type the label of the true statement", "The true statement"],
  };

  function mount(block) {
    const payload = JSON.parse(block.dataset.payload);
    const field = `gl-answer-${payload.id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
    const [ask, name] = ASK[payload.kind];
    const intro = document.createElement("p");
    intro.textContent = `Or check it here, no kernel needed: ${ask}, and press Check.`;
    const label = document.createElement("label");
    label.htmlFor = field;
    label.textContent = `${name} (${payload.id})`;
    const input = document.createElement("input");
    Object.assign(input, { id: field, type: "text", spellcheck: false, autocomplete: "off" });
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Check";
    button.setAttribute("aria-label", `Check ${payload.id}`);
    const feedback = document.createElement("div");
    feedback.className = "gl-page-feedback";
    feedback.setAttribute("role", "status");
    feedback.setAttribute("aria-live", "polite");
    const row = document.createElement("div");
    row.className = "gl-page-row";
    row.append(input, button);
    const answer = () => {
      feedback.replaceChildren();
      if (!stripSpace(input.value)) {
        feedback.append(render(payload, { status: "not attempted yet", message: "Type your answer in the box first.", details: [] }));
        return;
      }
      feedback.append(render(payload, check(payload, input.value)));
    };
    button.addEventListener("click", answer);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        answer();
      }
    });
    block.replaceChildren(intro, label, row, feedback);
    block.hidden = false;
  }

  function mountAll(root) {
    if (!root.querySelector("[data-exercise], [data-exercise-note]")) return;
    const style = document.createElement("style");
    style.textContent = STYLE;
    document.head.append(style);
    root.querySelectorAll("[data-exercise][data-payload]").forEach(mount);
    root.querySelectorAll("[data-exercise-note]").forEach((note) => {
      note.hidden = false; // hidden twice over, for notebooks that drop the attribute
      note.style.display = "";
    });
  }

  return { typedAnswer, check, formatG4, floatRepr, strRepr, mountAll };
});
