// The explorers' DOM pieces, shared by explorer.mjs and scatter.mjs: elements, labelled
// controls, toggle buttons, lists, and the focus kept across a rebuild of the controls.
// Their looks are in explorer.css.
//
// An explorer's state in the page's address, and its call as code to copy.
//
// Each explorer keeps its inputs in the address's fragment under its own key (the
// explorer's kind, then -2, -3... for a second or third explorer of that kind on the
// page): #gather_2d=<the inputs as JSON>. Changing an explorer rewrites only its key,
// without a reload (history.replaceState); opening the link restores the inputs and
// scrolls the explorer into view. The fragment works the same on the published site
// and in the zipped site opened from disk (no server reads it).
//
// pythonCode() writes the explorer's current call as a runnable PyTorch program with
// its tensors typed in (and the NumPy and TensorFlow calls the explorer shows, where it
// shows them); tests/test_explorer_links.py runs what it writes.
import { checkedTensor } from "./core.mjs";
import { floatRepr } from "../interpreter/python.mjs";

export const esc = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function make(tag, attributes = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

// A control with its own <label for=...>: the label alone names it. One count for every
// explorer on the page, so no two controls share an id.
let controlCount = 0;
export function labelled(label, control) {
  const id = `gl-control-${++controlCount}`;
  control.id = id;
  const wrapper = make("span", { class: "gl-field" });
  wrapper.append(make("label", { for: id }, label), control);
  return wrapper;
}

// A row of toggle buttons (aria-pressed) named by `label`.
export function buttons(label, options, current, pick) {
  const group = make("div", { role: "group", "aria-label": label, class: "gl-buttons" });
  group.append(make("span", { class: "gl-label", "aria-hidden": "true" }, label));
  options.forEach((option, k) => {
    const button = make(
      "button",
      { type: "button", "aria-pressed": String(k === current) },
      option,
    );
    button.addEventListener("click", () => pick(k));
    group.append(button);
  });
  return group;
}

// The "dim" buttons of gather_2d and scatter: dims 0 to rank - 1 of x (at least 1) and
// -1; a click sets inputs.dim and commits.
export function dimButtons(inputs, commit) {
  const rank = Math.max(inputs.x.shape.length, 1);
  const dims = [...Array(rank).keys(), -1];
  return buttons(
    "dim",
    dims.map((d) => `dim ${d}`),
    dims.indexOf(inputs.dim),
    (k) => {
      inputs.dim = dims[k];
      commit();
    },
  );
}

export function select(label, options, current, pick) {
  const node = make("select");
  options.forEach((option, k) => {
    const item = make("option", { value: String(k) }, option);
    if (k === current) item.selected = true;
    node.append(item);
  });
  node.addEventListener("change", () => pick(Number(node.value)));
  return labelled(label, node);
}

// A labelled text box for a tensor; `commit` runs on Enter and when the box is left.
export function textBox(label, value, commit) {
  const input = make("input", { type: "text", spellcheck: "false", autocomplete: "off" });
  const wrapper = labelled(label, input);
  input.value = value;
  const fit = () => input.setAttribute("size", String(Math.max(12, input.value.length + 2)));
  fit();
  input.addEventListener("input", fit);
  // Enter applies the text (JupyterLab's notebook keys are off inside the explorer),
  // and so does leaving the box; the same text is applied once.
  let applied = value;
  const apply = () => {
    if (input.value === applied) return;
    applied = input.value;
    commit(input.value);
  };
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") apply();
  });
  input.addEventListener("change", apply);
  wrapper.setValue = (text) => {
    input.value = text;
    applied = text;
    fit();
  };
  return wrapper;
}

// The controls of `area` (its buttons and lists) are rebuilt on every change: call this
// before the rebuild and what it returns after it, and the focus goes back to the
// control at the same place with the same name, if one had it.
export function keepFocus(root, area) {
  const controls = () => [...area.querySelectorAll("button,select")];
  const named = (node) => node?.closest("[aria-label],.gl-field")?.textContent;
  const focused = root.contains(document.activeElement) ? document.activeElement : null;
  const position = focused ? controls().indexOf(focused) : -1;
  const label = named(focused);
  return () => {
    const again = controls()[position];
    if (position >= 0 && again && named(again) === label) again.focus();
  };
}

// ---- an explorer's state in the address, and its call as code

const TENSOR_KEYS = ["shape", "data", "dtype"];
const isTensor = (value) =>
  value !== null && typeof value === "object" && TENSOR_KEYS.every((k) => k in value);

/** The fragment key of the n-th (from 0) explorer of `kind` on the page. */
export function stateKey(kind, n = 0) {
  return n ? `${kind}-${n + 1}` : kind;
}

/** The inputs stored under `key` in `hash` (location.hash), or null if none is
 * stored or what is stored is not an explorer's inputs like `current`. */
export function readState(hash, key, current) {
  const text = new URLSearchParams(hash.replace(/^#/, "")).get(key);
  if (!text) return null;
  let state;
  try {
    state = JSON.parse(text);
  } catch {
    return null;
  }
  if (state === null || typeof state !== "object") return null;
  for (const [name, value] of Object.entries(current)) {
    if (!(name in state)) return null;
    if (isTensor(value)) {
      const tensor = state[name];
      if (!isTensor(tensor) || !Array.isArray(tensor.shape) || !Array.isArray(tensor.data))
        return null;
      const size = tensor.shape.reduce((a, b) => a * b, 1);
      if (size !== tensor.data.length) return null;
      try {
        checkedTensor(tensor, name);
      } catch {
        return null;
      }
    } else if (typeof value !== typeof state[name]) return null;
  }
  return state;
}

/** `hash` with `key` set to `inputs` (every other key kept), as "#..." or "". */
export function withState(hash, key, inputs) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  params.set(key, JSON.stringify(inputs));
  return `#${params}`;
}

function literal(values, shape, dtype) {
  const one = (v) => {
    if (dtype === "bool") return v ? "True" : "False";
    if (dtype.startsWith("float")) return floatRepr(Number(v));
    return String(v);
  };
  if (!shape.length) return one(values[0]);
  const step = values.length / shape[0];
  const parts = [];
  for (let k = 0; k < shape[0]; k++)
    parts.push(literal(values.slice(k * step, (k + 1) * step), shape.slice(1), dtype));
  return `[${parts.join(", ")}]`;
}

// The dtype torch.tensor infers from a list of such values.
const inferred = (dtype) =>
  dtype === "bool" ? "bool" : dtype.startsWith("float") ? "float32" : "int64";

/** `torch.tensor(...)` for a tensor of the explorers: {shape, data, dtype}. */
export function torchTensor(tensor, requiresGrad = false) {
  const options = [];
  const empty = tensor.shape.includes(0);
  if (empty || tensor.dtype !== inferred(tensor.dtype)) options.push(`dtype=torch.${tensor.dtype}`);
  if (requiresGrad) options.push("requires_grad=True");
  const sizes = tensor.shape.join(", ") + (tensor.shape.length === 1 ? "," : "");
  const made = empty
    ? `torch.empty((${sizes})`
    : `torch.tensor(${literal(tensor.data, tensor.shape, tensor.dtype)}`;
  return `${made}${options.length ? `, ${options.join(", ")}` : ""})`;
}

const CALLS = {
  gather_2d: (s) => [`print(torch.gather(x, ${s.dim}, index))`],
  error_lab: (s) => [`print(torch.gather(x, ${s.dim}, index))`],
  batched_selection: () => [
    "index = positions.unsqueeze(-1).expand(-1, -1, features.shape[-1])",
    "print(torch.gather(features, 1, index))",
  ],
  op_comparison: (s) => {
    const d = s.dim;
    const calls = [
      [`torch.gather(x, ${d}, index)`, `torch.gather(x, ${d}, index)`],
      [`torch.take_along_dim(x, index, dim=${d})`, `torch.take_along_dim(x, index, dim=${d})`],
      [`torch.index_select(x, ${d}, index)`, `torch.index_select(x, ${d}, index)`],
      ["torch.take(x, index)", "torch.take(x, index)"],
      [
        `tf.gather(x, index, axis=${d}, batch_dims=${d})`,
        `tf.gather(x.numpy(), index.numpy(), axis=${d}, batch_dims=${d})`,
      ],
      [`tf.gather(x, index, axis=${d})`, `tf.gather(x.numpy(), index.numpy(), axis=${d})`],
    ];
    return [
      "calls = {",
      ...calls.map(([text, call]) => `    ${JSON.stringify(text)}: lambda: ${call},`),
      "}",
      "for text, call in calls.items():",
      '    if text.startswith("tf.") and tf is None:',
      "        continue",
      "    try:",
      '        print(text, "->", call().numpy().tolist())',
      "    except Exception as error:  # each op's own error, as the explorer shows it",
      '        print(text, "->", f"{type(error).__name__}: {error}".splitlines()[0])',
    ];
  },
  gradient_accumulation: (s) => [
    `out = torch.gather(x, ${s.dim}, index)`,
    "(out * weights).sum().backward()",
    "print(x.grad)",
  ],
  scatter: (s) => [
    s.reduce === "none"
      ? `print(x.scatter_(${s.dim}, index, src))`
      : `print(x.scatter_reduce_(${s.dim}, index, src, "${s.reduce}", include_self=${s.include_self ? "True" : "False"}))`,
  ],
};
const TENSORS = {
  gather_2d: ["x", "index"],
  error_lab: ["x", "index"],
  batched_selection: ["features", "positions"],
  op_comparison: ["x", "index"],
  gradient_accumulation: ["x", "index", "weights"],
  scatter: ["x", "index", "src"],
};

/** The explorer's current call as a runnable program, tensors typed in. */
export function pythonCode(kind, inputs) {
  const imports = ["import torch"];
  if (kind === "op_comparison")
    imports.push(
      "",
      "try:",
      "    import tensorflow as tf",
      "except ModuleNotFoundError:  # the TensorFlow lines are skipped",
      "    tf = None",
    );
  const lines = [...imports, ""];
  for (const name of TENSORS[kind] ?? []) {
    const grad = kind === "gradient_accumulation" && name === "x";
    const tensor =
      grad && !inputs.x.dtype.startsWith("float")
        ? { ...inputs.x, dtype: "float64" }
        : inputs[name];
    lines.push(`${name} = ${torchTensor(tensor, grad)}`);
  }
  const calls = CALLS[kind] ? CALLS[kind](inputs) : [];
  if (kind === "op_comparison") lines.push(...calls);
  else
    lines.push(
      "try:",
      ...calls.map((line) => `    ${line}`),
      "except Exception as error:  # the call's own error, as the explorer shows it",
      '    print(f"{type(error).__name__}: {error}".splitlines()[0])',
    );
  return `${lines.join("\n")}\n`;
}

// ---- in the page

const STATE_SCRIPT = 'script[type="application/vnd.jupyter.widget-state+json"]';

/** The explorer `root`'s place in the address, in the book only (a page with saved
 * widget state; JupyterLab's address is the lab's own): {restore(current), save(inputs)},
 * or null. */
export function permalink(root, kind) {
  if (typeof document === "undefined" || !document.querySelector(STATE_SCRIPT)) return null;
  const n = [...document.querySelectorAll(`.gl-x[data-explorer="${kind}"]`)].indexOf(root);
  const key = stateKey(kind, Math.max(n, 0));
  return {
    key,
    restore: (current) => readState(location.hash, key, current),
    save: (inputs) =>
      history.replaceState(history.state, "", withState(location.hash, key, inputs)),
  };
}

/** A "Copy as code" button and, folded under it, the code it copies: {node, update(inputs)}. */
export function copyControl(kind) {
  const node = document.createElement("div");
  node.className = "gl-copy";
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", "code");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Copy as code";
  const said = document.createElement("span");
  said.className = "gl-q";
  said.setAttribute("aria-live", "polite");
  const fold = document.createElement("details");
  const summary = document.createElement("summary");
  summary.textContent = "The call as runnable PyTorch";
  const pre = document.createElement("pre");
  pre.className = "gl-code gl-copy-code";
  fold.append(summary, pre);
  node.append(button, said, fold);
  button.addEventListener("click", () => {
    const text = pre.textContent;
    const copied = navigator.clipboard?.writeText(text);
    if (!copied) {
      fold.open = true;
      said.textContent = " Select the code below and copy it.";
      return;
    }
    copied.then(
      () => (said.textContent = " Copied."),
      () => {
        fold.open = true;
        said.textContent = " Select the code below and copy it.";
      },
    );
  });
  return { node, update: (inputs) => (pre.textContent = pythonCode(kind, inputs)) };
}
