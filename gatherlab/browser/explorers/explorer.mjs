// The explorers' one view: renders every explorer from its widget state, in JupyterLab
// (anywidget) and in the static book (book/static/explorers.js gives it a small model).
// Gathers, traces and rule messages are computed here by core.mjs; only what a library
// must run itself (PyTorch's and TensorFlow's own messages, TensorFlow's ops, autograd)
// comes from Python, as `library` entries for the inputs it has seen.
import {
  coords,
  diagnose,
  entry,
  formatTensor,
  formatValue,
  libraryOps,
  ParseError,
  parseTensor,
  RuleError,
  shapeText,
  trace,
  traceLine,
  valueAt,
} from "./core.mjs";
import {
  buttons,
  copyControl,
  dimButtons,
  esc,
  keepFocus,
  make,
  permalink,
  select,
  textBox,
} from "./dom.mjs";
import scatterView from "./scatter.mjs";

// What the legend calls each mark; its colours and border styles are in explorer.css
// (each role its own border style and bold text, so no mark relies on colour alone).
const MARKS = {
  out: "output chosen",
  index: "index entry it used",
  source: "source value it read",
  fault: "entry that breaks the rule",
};
const HEAT = [0, 158, 115]; // Okabe–Ito bluish green; its text stays black (gl-heat)
const MAX_SHOWN = 144;

const key = (at) => at.join(",");
// Equal values, whatever the order of object keys (saved notebooks sort them).
function same(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]))
  );
}

// ---- HTML pieces (strings)

// `pick`: the cell traces its output when clicked or focused (data-out, tabindex).
function cell(text, role, at, name, heat, width, pick = false) {
  const picked = pick ? ` data-out="${key(at)}" tabindex="0"` : "";
  const least = `${picked}${width ? ` style="box-sizing:content-box;width:${width}"` : ""}`;
  if (role)
    return `<td data-mark="${role}" data-at="${esc(entry(name, at))}"${least}>${esc(text)}</td>`;
  if (heat > 0) {
    const [r, g, b] = HEAT.map((c) => Math.round(255 - (255 - c) * heat));
    const size = width ? `;box-sizing:content-box;width:${width}` : "";
    return `<td class="gl-heat" style="background:rgb(${r},${g},${b})${size}">${esc(text)}</td>`;
  }
  return `<td${least}>${esc(text)}</td>`;
}

function grid(name, tensor, prefix, marks, labels, heat, width, pick) {
  const shape = tensor.shape;
  const rank = shape.length;
  const blockShape = rank === 1 ? [1, shape[0]] : shape.slice(-2);
  const [rows, cols] = blockShape;
  const first = rank - (rank === 1 ? 1 : 2);
  const across = `<th colspan="${cols}">dim ${rank - 1} →</th>`;
  let numbers = "";
  for (let c = 0; c < cols; c++) numbers += `<th>${c}</th>`;
  const head =
    rank === 1
      ? `<tr>${across}</tr><tr>${numbers}</tr>`
      : `<tr><th class="l">dim ${first} ↓</th>${across}</tr><tr><td class="gl-c"></td>${numbers}</tr>`;
  let body = "";
  for (let r = 0; r < rows; r++) {
    let cells = rank === 1 ? "" : `<th class="l" scope="row">${r}</th>`;
    for (let c = 0; c < cols; c++) {
      const at = rank === 1 ? [c] : [...prefix, r, c];
      const text = labels[key(at)] ?? formatValue(valueAt(tensor, at), tensor.dtype);
      cells += cell(text, marks[key(at)], at, name, heat ? heat[key(at)] : 0, width, pick);
    }
    body += `<tr>${cells}</tr>`;
  }
  return `<table class="gl-t">${head}${body}</table>`;
}

export function table(tensor, name, options = {}) {
  const { marks = {}, labels = {}, heat = null, note = "", even = false, pick = false } = options;
  const size = tensor.data.length;
  let width = "";
  if (even && size && size <= MAX_SHOWN) {
    const texts = coords(tensor.shape).map(
      (at) => labels[key(at)] ?? formatValue(valueAt(tensor, at), tensor.dtype),
    );
    width = `${Math.max(...texts.map((t) => t.length))}ch`;
  }
  const title =
    `<div class="gl-title"><b>${esc(name)}</b> <span class="gl-q">shape ` +
    `${esc(shapeText(tensor.shape))}${note ? ` ${esc(note)}` : ""}</span></div>`;
  let body;
  if (size === 0) body = '<div class="gl-q">(empty: no values)</div>';
  else if (size > MAX_SHOWN) body = `<div class="gl-q">(${size} values: too many to show)</div>`;
  else if (tensor.shape.length === 0)
    body = `<table class="gl-t"><tr>${cell(
      labels[""] ?? formatValue(tensor.data[0], tensor.dtype),
      marks[""],
      [],
      name,
      0,
      "",
    )}</tr></table>`;
  else if (tensor.shape.length <= 2)
    body = grid(name, tensor, [], marks, labels, heat, width, pick);
  else {
    const lead = tensor.shape.slice(0, -2);
    body = coords(lead)
      .map(
        (at) =>
          `<div class="gl-q">${esc(name)}[${at.join(", ")}]</div>` +
          grid(name, tensor, at, marks, labels, heat, width, pick),
      )
      .join("");
  }
  return `<div class="gl-tensor">${title}<div class="gl-scroll">${body}</div></div>`;
}

const row = (...blocks) =>
  `<div class="gl-row">${blocks
    .filter(Boolean)
    .map((b) => `<div>${b}</div>`)
    .join("")}</div>`;
const code = (text) => `<div class="gl-code">${esc(text)}</div>`;
const codeBlock = (lines) => `<div class="gl-code gl-pre">${lines.map(esc).join("\n")}</div>`;
const heading = (text) => `<div class="gl-head">${esc(text)}</div>`;
const note = (text) => `<div class="gl-q">${esc(text)}</div>`;
const ok = (text) => `<div class="gl-ok"><b>✓</b> ${esc(text)}</div>`;
const failure = (title, text) => `<div class="gl-bad"><b>✗ ${esc(title)}:</b> ${esc(text)}</div>`;

// gl.diagnose's problems: which rule, its message (naming the entry), and the fix.
export function problemsBox(problems, title = "This call breaks a rule", hints = true) {
  const items = problems
    .map(
      (p) =>
        `<li data-rule="${esc(p.rule)}"><code>${esc(p.rule)}</code>: ${esc(p.message)}` +
        (p.hint && hints ? `<br><span class="gl-q">fix: ${esc(p.hint)}</span>` : "") +
        "</li>",
    )
    .join("");
  return `<div class="gl-bad" role="alert"><b>✗ ${esc(title)}</b><ul>${items}</ul></div>`;
}

function legend(roles, meanings = {}) {
  const swatches = roles.map(
    (role) =>
      `<span class="gl-swatch" data-mark="${role}">&#8203;</span> ${esc(meanings[role] ?? MARKS[role])}`,
  );
  return `<div class="gl-legend">${swatches.join(" &nbsp; ")}</div>`;
}

// ---- the explorers: each returns {controls, view} over its own state

const parseOr = (state, name, text, status) => {
  try {
    return parseTensor(text, name);
  } catch (error) {
    if (!(error instanceof ParseError)) throw error;
    status(
      failure("Not applied", `${name}: ${error.message}`) +
        note("The explorer still shows the last tensors it applied."),
    );
    return null;
  }
};

function run(input, dim, index, op = "gather") {
  try {
    return { traced: trace(input, dim, index, op), problems: [] };
  } catch (error) {
    if (!(error instanceof RuleError)) throw error;
    return { traced: null, problems: error.problems };
  }
}

function callLine(dim, rank, op = "gather") {
  const text = `torch.${op}(x, ${dim}, index)`;
  return dim < 0 ? `${text}  # dim ${dim} is dim ${((dim % rank) + rank) % rank} here` : text;
}

const EXPLORERS = {
  gather_2d(app) {
    const s = app.inputs; // x, index, dim
    let show = 0;
    let lastGood = null;
    let picks = []; // the output cells a click or focus traces (none while it raises)
    const view = () => {
      const rank = Math.max(s.x.shape.length, 1);
      const { traced, problems } = run(s.x, s.dim, s.index);
      const controls = [dimButtons(s, () => app.commit())];
      let html = codeBlock([callLine(s.dim, rank)]);
      if (problems.length) {
        const fault = Object.fromEntries(
          problems.filter((p) => p.where).map((p) => [key(p.where), "fault"]),
        );
        picks = [];
        controls.push(make("span", { class: "gl-q" }, "show: no output to pick (the call raises)"));
        html +=
          problemsBox(problems, "No output: the call raises because it breaks a rule") +
          row(table(s.x, "x"), table(s.index, "index", { marks: fault })) +
          (Object.keys(fault).length ? legend(["fault"]) : "");
        if (lastGood)
          html += `<div class="gl-last">${heading("The last call that ran")}${lastGood}</div>`;
        return { controls, html };
      }
      const outs = traced.steps.map((step) => step.out);
      picks = outs.map(key);
      show = Math.min(show, outs.length);
      controls.push(
        select("show", ["all", ...outs.map((at) => entry("out", at))], show, (k) => {
          show = k;
          app.refresh();
        }),
      );
      const tables = (step) =>
        row(
          table(s.x, "x", { marks: step ? { [key(step.source)]: "source" } : {} }),
          table(s.index, "index", { marks: step ? { [key(step.index_at)]: "index" } : {} }),
          table(traced.output, "out", {
            marks: step ? { [key(step.out)]: "out" } : {},
            pick: true,
          }),
        );
      const overview =
        codeBlock([callLine(s.dim, rank)]) +
        tables(null) +
        (traced.steps.length
          ? codeBlock(traced.steps.map((step) => traceLine(step, s.x.dtype)))
          : note("An empty index selects nothing: out is empty."));
      lastGood = overview;
      if (show === 0) return { controls, html: overview };
      const step = traced.steps[show - 1];
      html += tables(step) + code(traceLine(step, s.x.dtype)) + legend(["out", "index", "source"]);
      return { controls, html };
    };
    // An output cell clicked or focused: trace it, as the "show" list does.
    const pick = (at) => {
      const k = picks.indexOf(at) + 1;
      if (k > 0 && k !== show) {
        show = k;
        app.refresh();
      }
    };
    return { boxes: ["x", "index"], view, pick };
  },

  batched_selection(app) {
    const s = app.inputs; // features, positions
    let step = 0;
    let member = 0;
    let lastGood = null;
    const LABELS = ["positions", "unsqueeze(-1)", "expand", "gather"];
    const compute = () => {
      const { features, positions } = s;
      if (features.shape.length !== 3)
        return {
          problems: [
            {
              rule: "features-shape",
              message: `features has shape ${shapeText(features.shape)}, but the recipe needs (batch, time, feature)`,
              hint: "write a 3-D list",
              where: null,
            },
          ],
        };
      if (positions.shape.length !== 2)
        return {
          problems: [
            {
              rule: "positions-shape",
              message: `positions has shape ${shapeText(positions.shape)}, but the recipe needs one row of time positions per batch member: shape (batch, selected_time)`,
              hint: "write one list of time positions per batch member",
              where: null,
            },
          ],
        };
      const [batch, picks] = positions.shape;
      const size = features.shape[2];
      const unsqueezed = {
        shape: [batch, picks, 1],
        data: positions.data.slice(),
        dtype: positions.dtype,
      };
      const index = {
        shape: [batch, picks, size],
        data: positions.data.flatMap((p) => Array(size).fill(p)),
        dtype: positions.dtype,
      };
      const { traced, problems } = run(features, 1, index);
      return { problems, unsqueezed, index, traced, batch, picks, size };
    };
    const view = () => {
      const r = compute();
      const controls = [
        buttons("step", LABELS, step, (k) => {
          step = k;
          app.refresh();
        }),
      ];
      if (r.problems.length) {
        let html = problemsBox(r.problems, "Not applied: the recipe cannot run on these tensors");
        if (lastGood)
          html += `<div class="gl-last">${heading("The last positions that ran")}${lastGood}</div>`;
        return { controls, html };
      }
      member = Math.min(member, r.batch - 1);
      controls.push(
        buttons(
          "member",
          [...Array(r.batch).keys()].map((b) => `batch ${b}`),
          member,
          (k) => {
            member = k;
            app.refresh();
          },
        ),
      );
      const html = renderSelection(s, r, step, member);
      lastGood = renderSelection(s, r, 3, member);
      return { controls, html };
    };
    return { boxes: ["features", "positions"], view };
  },

  op_comparison(app) {
    const s = app.inputs; // x, index, dim
    let chosen = 0;
    const view = () => {
      const rank = Math.max(s.x.shape.length, 1);
      let moved = "";
      if (s.dim >= rank) {
        // a typed x with fewer dims: say so, never change the call silently
        moved = note(
          `dim ${s.dim} does not exist on this x (${rank} dim${rank === 1 ? "" : "s"}), so dim is now ${rank - 1}.`,
        );
        s.dim = rank - 1;
      }
      const dim = s.dim;
      const results = torchOps(s.x, s.index, dim).concat(
        app.library().ops ?? libraryOps(s.x, s.index, dim),
      );
      const names = ["side by side", ...results.map((r) => r.name)];
      chosen = Math.min(chosen, names.length - 1);
      const dims = [...Array(rank).keys()];
      const controls = [
        select(
          "dim",
          dims.map((d) => `dim ${d}`),
          dims.indexOf(dim),
          (k) => {
            s.dim = dims[k];
            app.commit();
          },
        ),
        buttons("op", names, chosen, (k) => {
          chosen = k;
          app.refresh();
        }),
      ];
      const html =
        moved +
        (chosen === 0
          ? overview(results, s, dim)
          : detail(s, results[chosen - 1], results[0], dim));
      return { controls, html };
    };
    return { boxes: ["x", "index"], view };
  },

  error_lab(app) {
    const s = app.inputs; // x, index, dim, code (how the index is written)
    const spec = app.spec;
    // The prepared call on show, if the inputs are one; else "your own call".
    let chosen = spec.cases.findIndex((c) => same(c.index, s.index) && c.dim === s.dim);
    if (chosen < 0) chosen = spec.cases.length;
    const view = () => {
      const dims = spec.dims;
      const labels = [...spec.cases.map((c) => c.label), spec.own_label];
      const controls = [
        select("call", labels, chosen, (k) => {
          chosen = k;
          if (k < spec.cases.length) {
            const picked = spec.cases[k];
            Object.assign(s, { index: picked.index, dim: picked.dim, code: picked.code });
            app.boxes.index.setValue(formatTensor(picked.index));
            app.commit();
          } else app.refresh();
        }),
        select("dim", dims.map(String), dims.indexOf(s.dim), (k) => {
          s.dim = dims[k];
          s.code = "";
          chosen = spec.cases.length;
          app.commit();
        }),
      ];
      return { controls, html: renderLab(s, app.library(), spec) };
    };
    app.onTyped = () => {
      s.code = "";
      chosen = spec.cases.length;
    };
    return { boxes: ["x", "index"], view };
  },

  gradient_accumulation(app) {
    const s = app.inputs; // x, index, weights, dim
    let preset = 0;
    let source = 0;
    let lastGood = null;
    const presets = () => {
      const n = s.index.data.length;
      const onlyFirst = Array(n).fill(0);
      if (n) onlyFirst[0] = 1;
      const first = entry(
        "out",
        s.index.shape.map(() => 0),
      );
      const like = (data) => ({ shape: s.index.shape, data, dtype: "float64" });
      return [
        [s.first ?? "chapter weights", s.weights],
        ["all ones", like(Array(n).fill(1))],
        [`only ${first}`, like(onlyFirst)],
      ];
    };
    const view = () => {
      const choices = presets();
      const weights = choices[preset][1];
      const { traced, problems } = run(s.x, s.dim, s.index);
      const mismatch =
        !problems.length && !same(weights.shape, s.index.shape)
          ? [
              {
                rule: "weights-shape",
                message: `weights has shape ${shapeText(weights.shape)}, but it multiplies the output, whose shape is the index's: ${shapeText(s.index.shape)}`,
                hint: `write weights of shape ${shapeText(s.index.shape)}`,
                where: null,
              },
            ]
          : [];
      const controls = [
        buttons(
          "weights",
          choices.map(([name]) => name),
          preset,
          (k) => {
            preset = k;
            app.boxes.weights.setValue(formatTensor(presets()[k][1]));
            app.refresh();
          },
        ),
      ];
      if (problems.length || mismatch.length) {
        let html = problemsBox(
          problems.length ? problems : mismatch,
          "Not applied: no gradient for this call",
        );
        if (lastGood)
          html += `<div class="gl-last">${heading("The last call that ran")}${lastGood}</div>`;
        return { controls, html };
      }
      const cells = coords(s.x.shape);
      source = Math.min(source, cells.length);
      controls.push(
        select("source", ["all", ...cells.map((at) => entry("x", at))], source, (k) => {
          source = k;
          app.refresh();
        }),
      );
      const autograd = app.library().gradients?.[preset];
      const html = renderGradient(s, traced, weights, source ? cells[source - 1] : null, autograd);
      lastGood = html;
      return { controls, html };
    };
    app.onTyped = (name) => {
      if (name === "weights") {
        s.first = "your weights";
        preset = 0;
      }
    };
    return { boxes: ["x", "index", "weights"], view };
  },
};

// ---- chapter 2

function renderSelection(s, r, step, member) {
  const { features, positions } = s;
  const { picks, size } = r;
  const memberPositions = positions.data.slice(member * picks, (member + 1) * picks);
  const read = {};
  if (step > 0)
    for (const p of memberPositions)
      for (let f = 0; f < (step === 1 ? 1 : size); f++) read[key([member, p, f])] = "source";
  const rows = {};
  const cells = {};
  const firsts = {};
  for (let k = 0; k < picks; k++) {
    rows[key([member, k])] = "index";
    firsts[key([member, k, 0])] = "index";
    for (let f = 0; f < size; f++) cells[key([member, k, f])] = "index";
  }
  const outs = Object.fromEntries(Object.keys(cells).map((c) => [c, "out"]));
  const produced = [
    () => table(positions, "positions", { marks: rows }),
    () => table(r.unsqueezed, "positions.unsqueeze(-1)", { marks: firsts }),
    () => table(r.index, "index", { marks: cells }),
    () => table(r.traced.output, "out", { marks: outs }),
  ][step]();
  const lines = [
    ["positions", shapeText([r.batch, picks])],
    ["positions.unsqueeze(-1)", shapeText([r.batch, picks, 1])],
    [`index = positions.unsqueeze(-1).expand(-1, -1, ${size})`, shapeText([r.batch, picks, size])],
    ["out = torch.gather(features, 1, index)", shapeText([r.batch, picks, size])],
  ].slice(0, step + 1);
  const width = Math.max(...lines.map(([c]) => c.length));
  const recipe = codeBlock(lines.map(([c, shape]) => `${c.padEnd(width)}  # shape ${shape}`));
  const tables = row(
    table(features, "features", { marks: read, note: "(batch, time, feature)" }),
    produced,
  );
  const asks = `Batch member ${member} asks for time positions [${memberPositions.join(", ")}].`;
  if (step === 3) {
    const steps = r.traced.steps.filter((t) => t.out[0] === member);
    return (
      recipe +
      tables +
      codeBlock(steps.map((t) => traceLine(t, features.dtype, "features"))) +
      legend(["out", "source"], { out: `batch member ${member}'s output` })
    );
  }
  const words = [
    `${asks} Nothing is read yet: positions has 2 dims and features 3, so torch.gather would refuse it as an index.`,
    `${asks} Used as it is, this (${r.batch}, ${picks}, 1) index would read only feature 0 of each chosen step; expand repeats it over all ${size} features (a stride-0 view, no copy).`,
    `${asks} The expanded index reads the whole feature vectors.`,
  ][step];
  const meanings = {
    index: `batch member ${member}'s positions`,
    source: step === 1 ? "what this index alone would read" : "what gather will read with it",
  };
  return (
    recipe + tables + note(words) + legend(step === 0 ? ["index"] : ["index", "source"], meanings)
  );
}

// ---- chapter 3

function torchOps(x, index, dim) {
  const calls = [
    ["gather", `torch.gather(x, ${dim}, index)`, dim],
    ["take_along_dim", `torch.take_along_dim(x, index, dim=${dim})`, dim],
    ["index_select", `torch.index_select(x, ${dim}, index)`, dim],
    ["take", "torch.take(x, index)", null],
  ];
  return calls.map(([name, text, opDim]) => {
    const { traced, problems } = run(x, opDim, index, name);
    if (problems.length) return { name, code: text, problems };
    const wrapped = traced.steps.filter((t) => t.position !== t.used);
    return {
      name,
      code: text,
      output: traced.output,
      reads: traced.steps.map((t) => t.source),
      wrapped: wrapped.map(
        (t) => `${entry("index", t.index_at)} = ${t.position} read as ${t.used}`,
      ),
    };
  });
}

// What an op's output does not say by itself: the positions take_along_dim wrapped
// (gather raises on them), the coordinates tf.gather_nd is given, and batch_dims
// following dim.
function remarks(result, s, dim) {
  const parts = [];
  if (result.wrapped?.length)
    parts.push(
      failure(
        "wrapped",
        `take_along_dim wrapped ${[...new Set(result.wrapped)].join(", ")} (modulo dim ${dim}'s size ` +
          `${s.x.shape[dim]}) without a word, where torch.gather raises`,
      ),
    );
  if (result.name === "tf.gather batch_dims") {
    const paired =
      dim === 0
        ? "with dim 0 no leading dim pairs up, so this is plain tf.gather"
        : dim === 1
          ? "dim 0 of x and of index pair up (a row of positions per row of x)"
          : `dims 0..${dim - 1} of x and of index pair up`;
    parts.push(note(`batch_dims=${dim} follows dim: ${paired}.`));
  }
  if (result.name === "tf.gather_nd" && result.output) {
    const rank = s.x.shape.length;
    const data = coords(s.index.shape).flatMap((at) =>
      at.map((c, d) => (d === dim ? valueAt(s.index, at) : c)),
    );
    const coordinates = { shape: [...s.index.shape, rank], data, dtype: "int64" };
    parts.push(
      note(
        `coordinates[..., ${dim}] is index; on every other dim d, coordinates[..., d] is the output's own position on d.`,
      ) + table(coordinates, "coordinates"),
    );
  }
  return parts.join("");
}

function verdict(result, reference) {
  if (!result.output || !reference.output) return "";
  return same(result.output.shape, reference.output.shape) &&
    same(result.output.data, reference.output.data)
    ? "✓ same shape and values as torch.gather"
    : "✗ differs from torch.gather";
}

// A library's own refusal: its words when Python ran it (the saved start, or a kernel),
// else what this page knows (it refuses), never a guessed message.
function outcome(result) {
  if (result.problems) return problemsBox(result.problems, "breaks a rule");
  if (result.error) return failure("raises", result.error);
  if (result.raises)
    return failure(
      "raises",
      `${result.raises}; its own message shows with a running notebook (make lab)`,
    );
  return note(
    "This index dtype is checked by the library itself: run it in a notebook (make lab).",
  );
}

function overview(results, s, dim) {
  return row(
    ...results.map(
      (r) =>
        `<div class="gl-op">${code(r.code)}${
          r.output ? table(r.output, "out") + note(verdict(r, results[0])) : outcome(r)
        }${remarks(r, s, dim)}</div>`,
    ),
  );
}

function detail(s, result, reference, dim) {
  if (!result.output)
    return (
      code(result.code) +
      outcome(result) +
      remarks(result, s, dim) +
      row(table(s.x, "x"), table(s.index, "index"))
    );
  const read = Object.fromEntries(result.reads.map((at) => [key(at), "source"]));
  return (
    code(result.code) +
    row(table(s.x, "x", { marks: read }), table(s.index, "index"), table(result.output, "out")) +
    note(verdict(result, reference)) +
    remarks(result, s, dim) +
    legend(["source"], { source: "a source value this op read" })
  );
}

// ---- chapter 4

function renderLab(s, library, spec) {
  const problems = diagnose(s.x, s.dim, s.index);
  const fault = Object.fromEntries(
    problems.filter((p) => p.where).map((p) => [key(p.where), "fault"]),
  );
  const written = s.code || `torch.tensor(${formatTensor(s.index)})`;
  const parts = [
    codeBlock([`index = ${written}`, `torch.gather(x, ${s.dim}, index)`]),
    row(table(s.x, "x"), table(s.index, "index", { marks: fault, note: `dtype ${s.index.dtype}` })),
    Object.keys(fault).length ? legend(["fault"]) : "",
    heading("The rule (gl.diagnose, checked in this page)"),
  ];
  if (problems.length) parts.push(problemsBox(problems, "This call breaks a rule", false));
  else if (!s.index.data.length)
    parts.push(ok("no rule is broken: an empty index skips every check but dim's"));
  else parts.push(ok("no rule is broken"));
  if (library.torch) {
    parts.push(
      heading("PyTorch on the CPU (run by PyTorch itself)"),
      libraryOutcome(library.torch),
    );
    parts.push(heading("TensorFlow on the CPU (run by TensorFlow itself)"));
    if (library.tf) {
      parts.push(code(library.tf.code), libraryOutcome(library.tf));
      if (library.tf.note) parts.push(note(library.tf.note));
    } else parts.push(note("No one-call TensorFlow form for this dim (see chapter 3)."));
  } else {
    const { traced } = run(s.x, s.dim, s.index);
    if (traced)
      parts.push(
        heading("PyTorch on the CPU (its output, computed in this page)"),
        ok("runs") + table(traced.output, "out"),
      );
    else parts.push(heading("PyTorch on the CPU"), note(spec.no_kernel));
  }
  if (!problems.length) return parts.join("");
  const first = problems[0];
  const valueRule = ["negative-index", "index-out-of-range"].includes(first.rule);
  parts.push(heading(spec.gpu_title), note(valueRule ? spec.gpu_value : spec.gpu_other));
  if (valueRule)
    parts.push(
      `<div class="gl-q">Sources: ${spec.gpu_sources
        .map(
          ([text, url]) => `<a href="${esc(url)}" target="_blank" rel="noopener">${esc(text)}</a>`,
        )
        .join(", ")}</div>`,
    );
  parts.push(heading("A suggested fix"));
  if (first.hint) parts.push(note(`fix: ${first.hint}`));
  const pastEnd = problems.find((p) => p.rule === "index-out-of-range");
  if (pastEnd) {
    const value = pastEnd.where ? ` ${valueAt(s.index, pastEnd.where)}` : "";
    parts.push(
      note(
        `No automatic fix: clamping or wrapping the position${value} would turn a loud bug ` +
          `into a silent one. Correct the arithmetic that produced${value} (an off-by-one, a ` +
          `size taken from another tensor), and call gl.check_gather(x, ${s.dim}, index) ` +
          "before the gather to stop at the first bad position.",
      ),
    );
  } else if (library.fixes) parts.push(renderFixes(library.fixes));
  else if (!library.torch) parts.push(note(spec.no_kernel_fix));
  else if (first.rule === "negative-index" && library.below_range)
    parts.push(note(library.below_range));
  else parts.push(note("No automatic fix for this call."));
  return parts.join("");
}

function libraryOutcome(result) {
  return result.error ? failure("raises", result.error) : ok("runs") + table(result.output, "out");
}

function renderFixes(fixes) {
  const parts = [];
  if (fixes.length === 2)
    parts.push(
      note("Two readings of this index, two repairs: pick the one that selects what you meant."),
    );
  for (const fix of fixes) {
    if (fix.reading) parts.push(heading(`Read as ${fix.reading}:`));
    parts.push(
      codeBlock([
        ...fix.steps,
        `torch.gather(x, ${fix.dim}, torch.tensor(${formatTensor(fix.index)}))`,
      ]),
    );
    if (fixes.length === 1)
      parts.push(note("One possible repair: check it selects what you meant."));
    parts.push(libraryOutcome(fix));
  }
  return parts.join("");
}

// ---- chapter 5

function renderGradient(s, traced, weights, chosen, autograd) {
  const contributions = {};
  const byHand = Array(s.x.data.length).fill(0);
  for (const step of traced.steps) {
    const weight = valueAt(weights, step.out);
    byHand[coordsIndex(s.x.shape, step.source)] += weight;
    (contributions[key(step.source)] ??= []).push([step.out, weight]);
  }
  const grad = { shape: s.x.shape, data: byHand, dtype: "float64" };
  const f = (v) => formatValue(v, "float64");
  const labels = {};
  const heat = {};
  const largest = Math.max(0, ...byHand.map(Math.abs));
  coords(s.x.shape).forEach((at, k) => {
    const parts = contributions[key(at)] ?? [];
    const total = f(parts.reduce((sum, [, w]) => sum + w, 0));
    labels[key(at)] =
      parts.length > 1
        ? `${parts
            .map(([, w]) => f(w))
            .join("+")
            .replace(/\+-/g, "−")}=${total}`
        : parts.length
          ? total
          : "0";
    heat[key(at)] = largest ? Math.abs(byHand[k]) / largest : 0;
  });
  const lines = codeBlock([
    `out = torch.gather(x, ${s.dim}, index)`,
    "(out * weights).sum().backward()",
  ]);
  const parts = chosen ? (contributions[key(chosen)] ?? []) : [];
  const outs = Object.fromEntries(parts.map(([out]) => [key(out), "x"]));
  const tables = [
    table(s.index, "index", {
      marks: Object.fromEntries(Object.keys(outs).map((o) => [o, "index"])),
    }),
    table(weights, "weights", {
      marks: Object.fromEntries(Object.keys(outs).map((o) => [o, "out"])),
    }),
    table(grad, "x.grad by hand", {
      marks: chosen ? { [key(chosen)]: "source" } : {},
      labels,
      heat,
      note: "(sums of weights)",
      even: true,
    }),
  ];
  let html;
  if (!chosen)
    html =
      lines +
      row(table(s.x, "x"), ...tables) +
      note(
        "Each source cell's gradient is the sum of the weights of the outputs that read it. Choose a source cell to see them.",
      );
  else {
    const name = entry("x", chosen);
    const words = parts.length
      ? `${name} is read by ${parts.map(([out, w]) => `${entry("out", out)} (weight ${f(w)})`).join(", ")}: its gradient is ${parts.map(([, w]) => f(w)).join(" + ")} = ${f(parts.reduce((a, [, w]) => a + w, 0))}.`
      : `${name} is never read, so its gradient is 0.`;
    html =
      lines +
      row(...tables) +
      code(words) +
      legend(["index", "out", "source"], {
        out: "weights that reach it",
        index: "index entries that point at it",
        source: "source cell chosen",
      });
  }
  return html + renderAutograd(autograd, grad);
}

const coordsIndex = (shape, at) => at.reduce((flat, c, d) => flat * shape[d] + c, 0);

function renderAutograd(autograd, byHand) {
  const title = heading("Autograd's own gradients");
  if (!autograd)
    return (
      title +
      note(
        "PyTorch's and TensorFlow's autograd run only with a running notebook (make lab); the sums above are computed in this page.",
      )
    );
  const blocks = autograd.map(([name, result]) =>
    result.error ? failure(name, result.error) : table(result.output, name),
  );
  const agrees = autograd.every(
    ([, r]) =>
      r.output &&
      r.output.data.every(
        (v, k) => Math.abs(v - byHand.data[k]) <= 1e-8 + 1e-5 * Math.abs(byHand.data[k]),
      ),
  );
  return (
    title +
    row(...blocks) +
    (agrees
      ? ok("both autograd gradients equal the sums by hand")
      : failure("Check", "the gradients disagree"))
  );
}

// ---- the widget

export function render({ model, el }) {
  const kind = model.get("kind");
  if (kind === "scatter") return scatterView.render({ model, el }); // chapter 6's writing view
  const spec = model.get("spec");
  const inputs = structuredClone(model.get("inputs"));
  // data-lm-suppress-shortcuts: in JupyterLab, keys typed here edit the boxes instead
  // of running notebook commands (Enter, A, B, D D...).
  const root = make("div", {
    class: "gl-x",
    "data-explorer": kind,
    "data-lm-suppress-shortcuts": "true",
  });
  const controlsArea = make("div", { class: "gl-controls" });
  const viewArea = make("div", { class: "gl-view" });
  const boxesArea = make("div", { class: "gl-controls" });
  // The one error box while typed text is not applied: the view's own rule boxes
  // (the last applied call's) hide meanwhile (explorer.css, data-unapplied).
  const status = make("div", { class: "gl-status", "aria-live": "polite" });
  root.append(controlsArea, status, viewArea, boxesArea);
  if (spec.note) root.append(make("div", { class: "gl-q" }, spec.note));
  const copy = copyControl(kind);
  root.append(copy.node);
  el.replaceChildren(root);
  // A link to this explorer's state (dom.mjs's permalink): its inputs replace the saved ones.
  const link = permalink(root, kind);
  const restored = link?.restore(inputs);
  if (restored) Object.assign(inputs, restored);

  const app = {
    inputs,
    spec,
    boxes: {},
    onTyped: (/** @type {string} */ _name) => {},
    // What Python computed for exactly these inputs (the libraries' own results).
    library() {
      const found = (model.get("library") ?? []).find((item) => same(item.inputs, app.key()));
      return found ? found.result : {};
    },
    key() {
      return Object.fromEntries(spec.library_keys.map((name) => [name, app.inputs[name]]));
    },
    refresh() {
      const focused = document.activeElement;
      const cellFocused = viewArea.contains(focused)
        ? /** @type {HTMLElement} */ (focused).dataset.out
        : undefined;
      const restoreFocus = keepFocus(root, controlsArea);
      const { controls, html } = explorer.view();
      controlsArea.replaceChildren(...controls);
      viewArea.innerHTML = html;
      copy.update(app.inputs);
      if (cellFocused !== undefined) viewArea.querySelector(`[data-out="${cellFocused}"]`)?.focus();
      restoreFocus();
    },
    // New inputs: show them, and tell the kernel (if one listens) so that it can add
    // what only the libraries compute.
    commit() {
      // A new call applies: a box whose text was refused shows what applies again.
      const refused = root.getAttribute("data-unapplied");
      if (refused) {
        app.boxes[refused].setValue(formatTensor(app.inputs[refused]));
        root.removeAttribute("data-unapplied");
        status.innerHTML = "";
      }
      app.refresh();
      model.set("inputs", structuredClone(app.inputs));
      model.save_changes();
      link?.save(app.inputs);
    },
  };
  const explorer = EXPLORERS[kind](app);
  for (const name of explorer.boxes) {
    const box = textBox(name, formatTensor(inputs[name]), (text) => {
      status.innerHTML = "";
      root.removeAttribute("data-unapplied");
      const parsed = parseOr(app, name, text, (html) => {
        status.innerHTML = html;
        root.setAttribute("data-unapplied", name);
      });
      if (!parsed) return;
      app.inputs[name] = parsed;
      app.onTyped(name);
      app.commit();
    });
    app.boxes[name] = box;
    boxesArea.append(box);
  }
  if (explorer.pick) {
    const picked = (event) => {
      const at = event.target.closest?.("[data-out]")?.dataset.out;
      if (at !== undefined) explorer.pick(at);
    };
    viewArea.addEventListener("click", picked);
    viewArea.addEventListener("focusin", picked);
  }
  app.refresh();
  if (restored) root.scrollIntoView({ block: "start" });
  const onLibrary = () => app.refresh();
  model.on("change:library", onLibrary);
  return () => model.off("change:library", onLibrary);
}

export default { render };
