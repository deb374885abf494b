// Exercises answered in the book's page, with no kernel. Each exercise's stub output
// holds <div data-exercise="ID" data-payload='JSON'> (written when the book is built,
// from gatherlab.exercises): its cases with their inputs and expected outputs, the
// misconceptions' outputs with their verdicts, and the verdict for a pass. The page
// reads the answer, computes its outputs (implement and fix: the safe evaluator runs
// the learner's lines on every case), and shows the verdict of the first thing that
// matches: the expected outputs, a misconception, or else what is known (the first
// wrong coordinate). Verdicts become words through the messages table
// (gatherlab/exercises/messages.json), by plain {field} substitution as in Python.
// Answers and verdicts stay in this browser (localStorage); nothing is sent anywhere.
// tests/js/page_exercises.test.mjs checks judge() and readTyped().

import { entry, formatValue, shapeText } from "./core.mjs";
import {
  ForbiddenError,
  PyError,
  UnsupportedError,
  family,
  fromPayload,
  literalScope,
  parse,
  repr,
  run,
} from "./evaluator.mjs";

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
const dottedName = (node) =>
  node.e === "name" ? node.name : node.e === "attr" ? `${dottedName(node.value)}.${node.name}` : "";

// Is the parsed answer a value: numbers, lists, tuples, a sign on a number, and
// tensor(...)/array(...) with an optional dtype? (typed.py's _value, the same rules.)
function literal(node) {
  switch (node.e) {
    case "const": return ["int", "float", "bool"].includes(node.v.t);
    case "list": case "tuple": return node.items.every(literal);
    case "unary": return node.op !== "~" && node.value.e === "const" && ["int", "float"].includes(node.value.v.t);
    case "call":
      return CALLS.has(dottedName(node.func)) && node.args.length === 1 && literal(node.args[0]) &&
        node.kwargs.every(([name, value]) => name === "dtype" && dottedName(value) !== "");
    default: return false;
  }
}

// {value} (an evaluator value) or {unreadable: why}.
export function readTyped(text) {
  const source = normalized(text);
  if (!source) return { unreadable: "the answer is empty" };
  try {
    const program = parse(source);
    if (program.length !== 1 || program[0].s !== "expr" || !literal(program[0].value))
      return { unreadable: "it is not a list of numbers, a tensor or an array" };
    return { value: run(source, literalScope()) };
  } catch (error) {
    if (error instanceof PyError || error instanceof UnsupportedError)
      return { unreadable: error.message };
    throw error;
  }
}

// ------------------------------------------------------------------ outputs

const CLOSE = 1e-6;

// An output: {tensor} | {error: {type, rule, message, hint}} | {other: value}.
function outputOf(value) {
  if (value.t === "tensor") return { tensor: value };
  return { other: value };
}

function errorOf(error) {
  if (error instanceof ForbiddenError) return { forbidden: error.name_ };
  if (error instanceof UnsupportedError) return { unsupported: error.message };
  if (error instanceof PyError)
    return { error: { type: error.type, rule: error.rule, message: error.message, hint: error.hint, call: error.call } };
  throw error;
}

const asTensor = (value) => {
  if (value.t === "tensor") return value;
  if (["list", "tuple", "int", "float", "bool"].includes(value.t)) {
    try {
      return run("tensor(v)", { ...literalScope(), v: value });
    } catch {
      return null;
    }
  }
  return null;
};

// Does `output` equal `want` (T or ERROR)? dtype counts when `strict`.
function equals(output, want, strict) {
  if (want.error) return Boolean(output.error) && output.error.type === want.error.type && (want.error.rule == null || output.error.rule === want.error.rule);
  const got = output.tensor ?? (strict ? null : output.other && asTensor(output.other));
  if (!got) return false;
  const w = fromPayload(want);
  if (strict && got.dtype !== w.dtype) return false;
  if (got.shape.length !== w.shape.length || got.shape.some((s, d) => s !== w.shape[d])) return false;
  return got.data.every((v, k) => same(Number(v), Number(w.data[k])));
}

function same(a, b) {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  return Math.abs(a - b) <= CLOSE * Math.max(1, Math.abs(b));
}

// The learner's lines: a whole `def name(args):` is accepted too (its body is run).
export function body(code) {
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const head = lines.findIndex((line) => line.trim() && !line.trim().startsWith("#"));
  if (head < 0 || !/^\s*def\s+\w+\s*\(/.test(lines[head])) return code;
  const end = lines.findIndex((line, k) => k >= head && /\)\s*(->[^:]*)?:\s*(#.*)?$/.test(line));
  if (end < 0) return code;
  const rest = lines.slice(end + 1);
  const indent = Math.min(...rest.filter((l) => l.trim()).map((l) => l.match(/^\s*/)[0].length));
  return rest.map((l) => l.slice(Number.isFinite(indent) ? indent : 0)).join("\n");
}

// The outputs of an answer on every case of the payload (predict and raises: one).
export function outputs(payload, answer) {
  const kind = payload.kind;
  if (kind === "predict") {
    const read = readTyped(answer);
    if (read.unreadable) return { unreadable: read.unreadable };
    return { outputs: [outputOf(read.value)] };
  }
  if (kind === "raises") {
    const chosen = labelsIn(answer, payload.choices.map((c) => c.label));
    if (chosen.unknown) return { unknown: chosen.unknown };
    const flags = payload.choices.map((c) => (chosen.labels.has(c.label) ? 1 : 0));
    return { outputs: [{ tensor: { t: "tensor", dtype: "bool", shape: [flags.length], data: flags } }], labels: chosen.labels };
  }
  const code = body(answer);
  const calls = new Set();
  const results = [];
  for (const testCase of payload.cases) {
    const inputs = Object.fromEntries(Object.entries(testCase.inputs).map(([k, v]) => [k, fromPayload(v)]));
    try {
      const value = run(code, inputs, { tf: true, forbid: payload.forbid, calls });
      if (kind === "fix" && payload.call) {
        const { op, input, dim } = payload.call;
        try {
          results.push(outputOf(family(op, inputs[input], dim, value.t === "tensor" ? value : asTensor(value) ?? value)));
        } catch (error) {
          results.push(errorOf(error));
        }
      } else results.push(outputOf(value));
    } catch (error) {
      const out = errorOf(error);
      if (out.unsupported || out.forbidden) return out;
      if (out.error && out.error.type === "SyntaxError") return { syntax: out.error.message };
      results.push(out);
    }
  }
  const missing = (payload.require ?? []).length && !(payload.require ?? []).some((name) => calls.has(name));
  return { outputs: results, missing: missing ? payload.require : null };
}

const LABEL_SPLIT = /[\s,;]+|\band\b/;

function labelsIn(text, known) {
  const cleaned = text.replace(NAME_PREFIX, "").replace(/[[\]()'"]/g, " ").trim();
  if (/^(none|nothing|no call|\[\])$/i.test(cleaned) || cleaned === "") return { labels: new Set() };
  const labels = new Set(cleaned.split(LABEL_SPLIT).filter(Boolean).map((l) => l.toUpperCase()));
  const unknown = [...labels].find((l) => !known.includes(l));
  return unknown ? { unknown } : { labels };
}

// ------------------------------------------------------------------ verdicts

const text = (words, passed = false) => ({ passed, template: "text", fields: { text: words }, misconception: null });

// The verdict on `answer` (typed text, code, or a chosen label) for `payload`.
export function judge(payload, answer) {
  if (payload.kind === "choose") {
    const choice = payload.choices.find((c) => c.label === answer);
    return choice ? choice.verdict : text("Pick one of the statements.");
  }
  if (!answer.trim()) return text(payload.kind === "implement" || payload.kind === "fix" ? "Write your lines in the box first." : "Write your answer in the box first.");
  const found = outputs(payload, answer);
  if (found.unreadable)
    return text(`Your answer does not read as a value (${found.unreadable}): write it as nested lists such as [[1, 2], [3, 4]], or paste a printed tensor or array.`);
  if (found.unknown) return text(`There is no call ${found.unknown}: the calls are ${payload.choices.map((c) => c.label).join(", ")}.`);
  if (found.unsupported)
    return text(`The page cannot run this: ${found.unsupported} is not supported here. Open this chapter's notebook to run it, or write it with the ops the chapter uses.`);
  if (found.forbidden) return text(`Your code calls ${found.forbidden}, and this exercise asks you not to use it.`);
  if (found.syntax) return text(`Python cannot read your lines: ${found.syntax}.`);
  const strict = payload.kind === "implement" || payload.kind === "fix";
  const mine = found.outputs;
  const cases = payload.kind === "predict" || payload.kind === "raises" ? payload.cases.slice(0, 1) : payload.cases;
  const right = cases.every((c, k) => equals(mine[k], c.expected, strict));
  if (right && found.missing) return text(`Your function never calls ${found.missing.join(" or ")}, which this exercise asks for.`);
  if (right) return payload.passed;
  if (payload.kind === "raises") return raisesVerdict(payload, found.labels);
  const ids = (cases[0].misconceptions ?? []).map((m) => m.id);
  for (const id of ids) {
    const all = cases.every((c, k) => {
      const m = (c.misconceptions ?? []).find((x) => x.id === id);
      return m && equals(mine[k], m.output, strict);
    });
    if (all) return cases[0].misconceptions.find((m) => m.id === id).verdict;
  }
  return fallback(payload, cases, mine, strict);
}

function raisesVerdict(payload, labels) {
  const expected = payload.cases[0].expected.data;
  const k = payload.choices.findIndex((c, i) => Boolean(expected[i]) !== labels.has(c.label));
  const choice = payload.choices[k];
  if (choice.verdict) return choice.verdict;
  const m = payload.cases[0].misconceptions.find((x) => x.id === `misjudged ${choice.label}`);
  return m ? m.verdict : text(`Call ${choice.label} ${expected[k] ? "raises" : "runs"}.`);
}

// What is known when nothing matches: the first case that differs, and there the error,
// the shape, or the first wrong coordinate (templates <kind>.raised, .wrong_shape,
// .wrong_value of the payload's fallback family).
function fallback(payload, cases, mine, strict) {
  const family_ = payload.fallback.template.split(".")[0];
  const k = cases.findIndex((c, i) => !equals(mine[i], c.expected, strict));
  const testCase = cases[k];
  const got = mine[k];
  const want = testCase.expected;
  const base = { case: testCase.name, part: payload.part ?? "index" };
  const v = (template, fields) => ({ passed: false, template, fields: { ...base, ...fields }, misconception: null });
  if (want.error) {
    return text(`${testCase.name || "Here"}, your ${payload.kind === "fix" ? "call" : "function"} returned a result, but this case must raise ${want.error.type}, as the reference does.`);
  }
  if (got.error) {
    const error = `${got.error.type}${got.error.message ? `: ${got.error.message}` : ""}`;
    const hint = got.error.hint ? ` (${got.error.hint})` : "";
    if (payload.kind === "fix")  // the fixed call still breaks a rule (or raises)
      return text(`Still broken: ${got.error.rule ? got.error.message : error}${hint}.`);
    if (got.error.rule)
      return v("implement.raised_rule", { error, call: got.error.call, problem: got.error.message, hint });
    return v("implement.raised", { error });
  }
  const tensor = got.tensor ?? (!strict && got.other ? asTensor(got.other) : null);
  if (!tensor) return text(`${testCase.name || "Your answer"}: ${payload.kind === "predict" ? "write a value" : "the result"} is ${repr(got.other)}, not a tensor.`);
  const w = fromPayload(want);
  if (tensor.shape.length !== w.shape.length || tensor.shape.some((s, d) => s !== w.shape[d]))
    return v(`${family_}.wrong_shape`, { got_shape: shapeText(tensor.shape), expected_shape: shapeText(w.shape) });
  if (strict && tensor.dtype !== w.dtype)
    return text(`${testCase.name ? `${testCase.name}, your` : "Your"} result has dtype ${tensor.dtype}, but it should have dtype ${w.dtype}.`);
  const flat = tensor.data.findIndex((x, i) => !same(Number(x), Number(w.data[i])));
  const at = unravel(flat, w.shape);
  return v(`${family_}.wrong_value`, {
    where: entry("out", at),
    expected: shown(w.data[flat], w.dtype),
    got: shown(tensor.data[flat], tensor.dtype),
  });
}

// gatherlab.trace.format_value: ints as ints, floats as .4g, bools as True/False.
function shown(value, dtype) {
  if (dtype === "bool") return value ? "True" : "False";
  return formatValue(Number(value), dtype);
}

function unravel(flat, shape) {
  const at = new Array(shape.length);
  for (let d = shape.length - 1; d >= 0; d--) {
    at[d] = flat % shape[d];
    flat = Math.floor(flat / shape[d]);
  }
  return at;
}

// A verdict in words: its template with every {field} substituted (verdict.render).
export function render(verdict, messages) {
  const template = messages[verdict.template] ?? (verdict.fields.text !== undefined ? "{text}" : null);
  if (template === null) return verdict.passed ? "Passed." : "Not yet.";
  return template.replace(/\{([a-z_]+)\}/g, (whole, name) => verdict.fields[name] ?? whole);
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
    else if (key.startsWith("aria-") || key.startsWith("data-") || ["for", "rows", "spellcheck", "autocomplete", "autocapitalize", "role", "type", "name", "value", "id", "placeholder"].includes(key)) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) node.append(child);
  return node;
}

// `code` spans as <code>, as the notebook shows them (result.as_html).
function withCode(words) {
  return words.split(/`([^`]+)`/).map((part, k) => (k % 2 ? element("code", { text: part }) : part));
}

function prompt(payload) {
  if (payload.kind === "implement")
    return `Write the body of the function: its arguments ${payload.args.join(", ")} are given; end with return … (Ctrl+Enter checks).`;
  if (payload.kind === "fix")
    return `Write the lines that build the corrected ${payload.part ?? "index"} from ${payload.args.join(" and ")}; end with return … (Ctrl+Enter checks).`;
  if (payload.kind === "predict") return "Type the value it returns: nested lists, or paste a printed tensor or array.";
  if (payload.kind === "raises") return "Type the labels of the calls that raise, e.g. A, C (or none).";
  return "Pick the true statement.";
}

function mount(block, messages, state) {
  const payload = JSON.parse(block.dataset.payload);
  if (!Array.isArray(payload.cases) || !ASK[payload.kind]) return null;  // another schema
  const id = payload.id;
  const output = block.closest(".output") ?? block.parentElement;
  // the stored "not attempted yet … run the cell again" of the notebook gives way to
  // the page's own state
  for (const stored of output.querySelectorAll(".gl-check-not-attempted-yet, .gl-live-note")) stored.hidden = true;
  const label = `${ASK[payload.kind]} (${id})`;
  const ui = element("div", { class: `gl-ex gl-ex-${payload.kind}` });
  const help = element("p", { class: "gl-ex-help", id: `gl-ex-help-${id}`, text: prompt(payload) });
  let read;
  let input;
  if (payload.kind === "choose") {
    const group = element("fieldset", { class: "gl-ex-choices" }, [element("legend", { text: label })]);
    for (const choice of payload.choices) {
      const radio = element("input", { type: "radio", name: `gl-ex-${id}`, value: choice.label, id: `gl-ex-${id}-${choice.label}` });
      group.append(element("label", { class: "gl-ex-choice", for: radio.id }, [radio, element("span", { class: "gl-ex-choice-label", text: `${choice.label}. ` }), choice.text ?? ""]));
    }
    read = () => group.querySelector("input:checked")?.value ?? "";
    input = group;
    ui.append(group);
  } else {
    const code = payload.kind === "implement" || payload.kind === "fix";
    input = element("textarea", {
      class: code ? "gl-ex-code" : "gl-ex-answer",
      rows: code ? 6 : 3,
      spellcheck: "false",
      autocomplete: "off",
      autocapitalize: "off",
      "aria-label": label,
      "aria-describedby": help.id,
      placeholder: code ? `# ${payload.args.join(", ")} are given\nreturn …` : "",
    });
    read = () => input.value;
    ui.append(help, input);
  }
  const button = element("button", { type: "button", class: "gl-ex-check", text: "Check", "aria-label": `Check ${id}` });
  const feedback = element("div", { class: "gl-ex-feedback", role: "status", "aria-live": "polite" });
  ui.append(element("div", { class: "gl-ex-actions" }, [button]), feedback);
  const show = (verdict) => {
    feedback.className = `gl-ex-feedback ${verdict.passed ? "gl-ex-passed" : "gl-ex-failed"}`;
    feedback.replaceChildren(
      element("strong", { text: `${verdict.passed ? "✔" : "✘"} ${id}: ${verdict.passed ? "passed" : "not yet"}.` }),
      " ",
      ...withCode(render(verdict, messages)),
    );
  };
  const check = () => {
    const answer = read();
    const verdict = judge(payload, answer);
    show(verdict);
    state.record(id, answer, verdict);
  };
  button.addEventListener("click", check);
  if (input.tagName === "TEXTAREA")
    input.addEventListener("keydown", (event) => {
      const multiline = payload.kind === "implement" || payload.kind === "fix";
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey || (!multiline && !event.shiftKey))) {
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
    show(saved.verdict);
  }
  block.replaceChildren(ui);
  block.hidden = false;
  block.removeAttribute("style");
  return { id, reset: () => {
    if (payload.kind === "choose") input.querySelectorAll("input").forEach((r) => { r.checked = false; });
    else input.value = "";
    feedback.className = "gl-ex-feedback";
    feedback.replaceChildren();
  } };
}

function progressBar(doc, total) {
  const count = element("span", { class: "gl-ex-count", role: "status" });
  const reset = element("button", { type: "button", class: "gl-ex-reset", text: "Reset my answers" });
  const bar = element("div", { class: "gl-ex-progress" }, [count, " ", reset, element("span", { class: "gl-ex-private", text: " (kept in this browser only)" })]);
  const article = doc.querySelector("article.bd-article") ?? doc.querySelector("main") ?? doc.body;
  // the chapter's own title (not the print-only header the theme also puts there)
  const firstHeading = [...article.querySelectorAll("h1")].find((h) => !h.closest(".onlyprint"));
  if (firstHeading) firstHeading.after(bar);
  else article.prepend(bar);
  const update = (progress) => {
    const passed = Object.values(progress).filter((p) => p.verdict.passed).length;
    const tried = Object.keys(progress).length - passed;
    count.textContent = `${passed} of ${total} exercises checked on this page` + (tried ? ` (${tried} more tried, not passed yet)` : "");
  };
  return { reset, update };
}

export async function loadMessages(url) {
  try {
    const response = await fetch(url);
    if (!response.ok) return {};
    return await response.json();
  } catch {
    return {};  // no table: verdicts worded by the check itself still show
  }
}

export function mountAll(doc, messages, storage = globalThis.localStorage, page = doc.location?.pathname ?? "") {
  const blocks = [...doc.querySelectorAll("[data-exercise][data-payload]")].filter((block) => {
    try {
      return Array.isArray(JSON.parse(block.dataset.payload).cases);
    } catch {
      return false;
    }
  });
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
  const mounted = blocks.map((block) => mount(block, messages, state));
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
  const start = async () => mountAll(document, await loadMessages(new URL("./messages.json", import.meta.url)));
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
