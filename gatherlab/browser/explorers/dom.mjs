// The explorers' DOM pieces, shared by explorer.mjs and scatter.mjs: elements, labelled
// controls, toggle buttons, lists, and the focus kept across a rebuild of the controls.
// Their looks are in explorer.css.

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
