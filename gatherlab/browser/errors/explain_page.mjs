// The "Explain my error" page (book/explain.md): reads the pasted text and the optional
// shapes, dim and op, explains them with explain.mjs (the table gatherlab.error_rules
// reads) and shows the rule, its meaning, the fix and a link to the section. The form's
// state is kept in the page's address (#text=...&dim=...), so an explanation can be
// linked; the examples fill the form with a stored error.
import { explain, sectionLink } from "./explain.mjs";

const EXAMPLES = {
  bounds: {
    text: "RuntimeError: index 3 is out of bounds for dimension 1 with size 3",
    input: "2, 3",
    index: "2, 2",
    dim: "1",
    op: "gather",
  },
  size: {
    text: "RuntimeError: Size does not match at dimension 1 expected index [32, 1] to be no larger than self [32, 0] apart from dimension 0",
    input: "",
    index: "",
    dim: "",
    op: "",
  },
  unknown: {
    text: "ValueError: expected sequence of length 3 at dim 1 (got 2)",
    input: "",
    index: "",
    dim: "",
    op: "",
  },
};
const FIELDS = ["text", "input", "index", "src", "dim", "op"];

function sizes(text) {
  const numbers = (text.match(/-?\d+/g) || []).map(Number);
  return text.trim() === "" ? null : numbers;
}

function element(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function root() {
  return document.documentElement.dataset.content_root || "../";
}

/** The answer for the form's values, as DOM. */
export function render(answer, values) {
  const box = element("div");
  if (!values.text.trim()) {
    box.append(element("p", "Paste an error text above, then press Explain."));
    return box;
  }
  if (!answer.recognised) {
    box.className = "gl-explain-unknown";
    box.append(element("h2", "Not recognised"));
    box.append(
      element(
        "p",
        "No rule of the book's table matches this text, so this page will not guess what went wrong.",
      ),
    );
    if (answer.closest) {
      const rule = element("p");
      rule.append("The rule whose words come closest, as a place to start reading: ");
      rule.append(element("strong", answer.closest_title));
      box.append(rule);
    }
    const checklist = sectionLink("checklist");
    const link = element("a", `Chapter 4, “${checklist.title}”`);
    link.href = root() + checklist.href;
    const read = element("p");
    read.append("The checks to run on any gather call: ", link, ".");
    box.append(read);
    return box;
  }
  box.className = "gl-explain-known";
  box.append(element("h2", answer.title));
  const lines = [
    ["What it means", answer.meaning],
    ["Fix", answer.fix],
  ];
  const list = element("dl");
  for (const [term, text] of lines) {
    if (!text) continue;
    list.append(element("dt", term), element("dd", text));
  }
  if (answer.section) {
    const chapter = Number(answer.section.page.match(/(\d+)_/)[1]);
    const link = element("a", `Chapter ${chapter}, “${answer.section.title}”`);
    link.href = root() + answer.section.href;
    const where = element("dd");
    where.append(link);
    list.append(element("dt", "Where the book teaches it"), where);
  }
  const from = element("dd", `${answer.library}, rule ${answer.rule}`);
  list.append(element("dt", "Recognised as"), from);
  box.append(list);
  return box;
}

function values(form) {
  return Object.fromEntries(FIELDS.map((name) => [name, form.elements[name].value]));
}

function show(form, out) {
  const v = values(form);
  const dim = v.dim.trim() === "" || Number.isNaN(Number(v.dim)) ? null : Number(v.dim);
  const shapes = { input: sizes(v.input), index: sizes(v.index), src: sizes(v.src) };
  const answer = explain(v.text, { shapes, dim, op: v.op.trim() || null });
  out.replaceChildren(render(answer, v));
  const kept = new URLSearchParams(Object.entries(v).filter(([, value]) => value.trim() !== ""));
  history.replaceState(
    null,
    "",
    kept.toString() ? `#${kept}` : location.pathname + location.search,
  );
}

function start() {
  const box = document.getElementById("gl-explain");
  if (!box) return;
  const form = box.querySelector("form");
  const out = box.querySelector(".gl-explain-answer");
  const saved = new URLSearchParams(location.hash.slice(1));
  for (const name of FIELDS) if (saved.has(name)) form.elements[name].value = saved.get(name);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    show(form, out);
  });
  const examples = /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll("[data-example]"));
  for (const button of examples) {
    button.addEventListener("click", () => {
      const example = EXAMPLES[button.dataset.example];
      for (const name of FIELDS) form.elements[name].value = example[name] || "";
      show(form, out);
    });
  }
  if (saved.has("text")) show(form, out);
}

if (typeof document !== "undefined") start();
