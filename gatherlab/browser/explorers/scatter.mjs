// Chapter 6's explorer: x.scatter_(dim, index, src) and its reductions, one write at a
// time. The pure functions (scatterProblems, scatterWrites, scatterResult) are the
// browser's copy of gl.reference.scatter_writes and its _apply loop; tests/js/
// scatter.test.mjs checks them against cases generated from Python and torch
// (tools/cases/scatter_agreement.py). The view marks, for every src entry, the output entry it
// writes, and the output entries written more than once.
import {
  coords,
  entry,
  formatTensor,
  formatValue,
  isFloat,
  ParseError,
  parseTensor,
  problem,
  ravel,
  valueAt,
} from "./core.mjs";
import * as dom from "./dom.mjs";

export const REDUCTIONS = ["sum", "prod", "mean", "amax", "amin"];
const key = (at) => at.join(",");

// ---- the rules and the writes: gatherlab.reference.scatter_writes

// gl.diagnose.scatter_problems's refusals, worded from rules.mjs (no hints).
const rule = (name, shape, fields, where = null) => {
  const { message } = problem(name, shape, "", fields);
  return { rule: name, message, where };
};

// Every rule the call breaks, in the order gl.diagnose.scatter_problems checks them
// (the first is the message the spec raises); [] for a call that runs. `scalar`: src
// was a Python number, filled to index's shape.
export function scatterProblems(x, dim, index, src, scalar = false) {
  if (!index.data.length)
    // torch writes nothing and checks only src's dtype
    return src.dtype === x.dtype
      ? []
      : [rule("src-dtype", "scatter", { src_dtype: src.dtype, input_dtype: x.dtype })];
  if (!index.dtype.startsWith("int"))
    return [rule("index-dtype", "scatter", { dtype: index.dtype })];
  if (src.dtype !== x.dtype)
    return [rule("src-dtype", "scatter", { src_dtype: src.dtype, input_dtype: x.dtype })];
  const rank = Math.max(x.shape.length, 1);
  if (index.shape.length === 1 && rank >= 2 && index.shape[0] === rank)
    // one entry per dim of x: a (row, column) coordinate, which no index is
    return [rule("rank-mismatch", "scatter-coordinate", { input_rank: rank })];
  if (scalar && index.shape.length !== rank)
    return [
      rule("rank-mismatch", "scatter-value", { index_rank: index.shape.length, input_rank: rank }),
    ];
  if (!scalar && !src.shape.length && index.shape.length === rank)
    return [rule("rank-mismatch", "scatter-0d-src", { index_rank: index.shape.length })];
  if (index.shape.length !== rank || src.shape.length !== rank)
    return [
      rule("rank-mismatch", "scatter", {
        index_rank: index.shape.length,
        input_rank: rank,
        src_rank: src.shape.length,
      }),
    ];
  const along = ((dim % rank) + rank) % rank;
  const target = x.shape.length ? x.shape : [1];
  for (let d = 0; d < rank; d++) {
    const size = index.shape[d];
    if (size > src.shape[d])
      return [
        rule("index-larger-than-src", "scatter", {
          axis: d,
          index_size: size,
          src_size: src.shape[d],
        }),
      ];
    if (d !== along && size > target[d])
      return [
        rule("index-larger-than-input", "scatter", {
          axis: d,
          index_size: size,
          input_size: target[d],
          dim: along,
        }),
      ];
  }
  const limit = target[along];
  for (const at of coords(index.shape)) {
    const position = valueAt(index, at);
    if (position < 0 || position >= limit)
      return [
        rule(
          "index-out-of-range",
          "outside",
          { entry: entry("index", at), value: position, high: limit - 1 },
          at,
        ),
      ];
  }
  return [];
}

// The writes in row-major order of index: {from: src coordinate, to: output coordinate,
// value}. Call only when scatterProblems found nothing.
export function scatterWrites(x, dim, index, src) {
  const rank = Math.max(x.shape.length, 1);
  const along = ((dim % rank) + rank) % rank;
  return coords(index.shape).map((at) => {
    const to = [...at];
    to[along] = valueAt(index, at);
    return { from: at, to, value: valueAt(src, at) };
  });
}

// int64 arithmetic as PyTorch does it (wrapping at 64 bits), exact past 2**53.
const wrap64 = (value) => BigInt.asIntN(64, value);

function reduced(values, reduce, dtype) {
  if (isFloat(dtype)) {
    if (reduce === "sum" || reduce === "mean") {
      const total = values.reduce((a, b) => a + b, 0);
      return reduce === "sum" ? total : total / values.length;
    }
    if (reduce === "prod") return values.reduce((a, b) => a * b, 1);
    return reduce === "amax" ? Math.max(...values) : Math.min(...values);
  }
  const big = values.map(BigInt);
  if (reduce === "amax") return Number(big.reduce((a, b) => (b > a ? b : a)));
  if (reduce === "amin") return Number(big.reduce((a, b) => (b < a ? b : a)));
  if (reduce === "prod") return Number(big.reduce((a, b) => wrap64(a * b), 1n));
  const total = big.reduce((a, b) => wrap64(a + b), 0n);
  if (reduce === "sum") return Number(total);
  const count = BigInt(values.length);
  const quotient = total / count; // floor division, as torch's integer mean
  return Number(total % count !== 0n && total < 0n ? quotient - 1n : quotient);
}

// The output: x with the writes applied. reduce "none" keeps the last write (PyTorch
// promises no winner); otherwise each written position holds the reduction of its
// values, with its old value when includeSelf. Also returns, per written position, the
// values it received, in order.
export function scatterResult(x, writes, reduce = "none", includeSelf = true) {
  const shape = x.shape.length ? x.shape : [1];
  const data = [...x.data];
  const received = new Map();
  for (const write of writes) {
    const k = key(write.to);
    if (!received.has(k)) received.set(k, { at: write.to, values: [] });
    received.get(k).values.push(write.value);
  }
  for (const { at, values } of received.values()) {
    const flat = ravel(at, shape);
    if (reduce === "none") data[flat] = values[values.length - 1];
    else data[flat] = reduced(includeSelf ? [x.data[flat], ...values] : values, reduce, x.dtype);
  }
  return { output: { shape: x.shape, data, dtype: x.dtype }, received: [...received.values()] };
}

// The call as Python would write it.
export function callText(dim, reduce, includeSelf) {
  if (reduce === "none") return `x.scatter_(${dim}, index, src)`;
  const self = includeSelf ? "" : ", include_self=False";
  return `x.scatter_reduce_(${dim}, index, src, "${reduce}"${self})`;
}

// What a position written more than once holds, in words.
export function collisionLine(at, values, old, result, reduce, includeSelf, dtype) {
  const show = (v) => formatValue(v, dtype);
  const written = values.map(show).join(", ");
  const head = `${entry("out", at)} ← ${written}`;
  if (reduce === "none")
    return `${head}: one write stays (${show(result)} here); PyTorch promises none of them`;
  const parts = (includeSelf ? [old, ...values] : values).map(show).join(", ");
  const self = includeSelf ? `old ${show(old)} included` : "old value left out";
  return `${head}: ${reduce}(${parts}) = ${show(result)} (${self})`;
}

// ---- the view

// What the legend calls each mark; its colours and border styles are in explorer.css
// (Okabe–Ito hues, each with its own border style and bold text, so no mark relies on
// colour alone).
const MARKS = {
  src: "src entry chosen",
  index: "index entry it used",
  target: "output entry it writes",
  collision: "written more than once",
  fault: "entry that breaks the rule",
};

function grid(name, tensor, marks) {
  const shape = tensor.shape;
  if (!tensor.data.length) return `<div class="gl-q">${dom.esc(name)}: (empty)</div>`;
  const blocks = shape.length <= 2 ? [[]] : coords(shape.slice(0, -2));
  const [rows, cols] = shape.length === 1 ? [1, shape[0]] : shape.slice(-2);
  let html = `<div class="gl-tensor"><div class="gl-title"><b>${dom.esc(name)}</b> <span class="gl-q">shape (${shape.join(", ")}${shape.length === 1 ? "," : ""})</span></div>`;
  for (const lead of blocks) {
    if (lead.length) html += `<div class="gl-q">${dom.esc(name)}[${lead.join(", ")}]</div>`;
    html += '<table class="gl-t">';
    for (let r = 0; r < rows; r++) {
      html += "<tr>";
      for (let c = 0; c < cols; c++) {
        const at = shape.length === 1 ? [c] : [...lead, r, c];
        const role = marks[key(at)];
        const text = dom.esc(formatValue(valueAt(tensor, at), tensor.dtype));
        if (!role) {
          html += `<td>${text}</td>`;
          continue;
        }
        html += `<td data-mark="${role}" data-at="${dom.esc(entry(name, at))}">${text}</td>`;
      }
      html += "</tr>";
    }
    html += "</table>";
  }
  return `${html}</div>`;
}

function legend(roles) {
  return (
    '<div class="gl-legend">' +
    roles
      .map(
        (role) =>
          `<span class="gl-swatch" data-mark="${role}">&#8203;</span> ${dom.esc(MARKS[role])}`,
      )
      .join(" &nbsp; ") +
    "</div>"
  );
}

const MODES = ["none", ...REDUCTIONS];

// The view of the inputs: {html, writes, ran} (ran: whether the call runs); a refused
// call shows its rule above `lastGood`, the view of the last call that ran.
function view(s, chosen, lastGood) {
  const shown = s.x.shape.length ? s.x : { ...s.x, shape: [1] };
  const early = ["x", "index", "src"].find((name) => s[name].shape.length === 0);
  const problems = early
    ? [rule("rank-mismatch", "scalar-explorer", { name: early })]
    : scatterProblems(shown, s.dim, s.index, s.src);
  const includeSelf = Boolean(s.include_self);
  let html = `<div class="gl-code">${dom.esc(callText(s.dim, s.reduce, includeSelf))}</div>`;
  if (problems.length) {
    const fault = Object.fromEntries(
      problems.filter((p) => p.where).map((p) => [key(p.where), "fault"]),
    );
    const items = problems
      .map(
        (p) =>
          `<li data-rule="${dom.esc(p.rule)}"><code>${dom.esc(p.rule)}</code>: ${dom.esc(p.message)}</li>`,
      )
      .join("");
    html +=
      `<div class="gl-bad" role="alert"><b>✗ No output: the call breaks a rule</b><ul>${items}</ul></div>` +
      `<div class="gl-row"><div>${grid("x", shown, {})}</div><div>${grid("index", s.index, fault)}</div>` +
      `<div>${grid("src", s.src, {})}</div></div>` +
      (Object.keys(fault).length ? legend(["fault"]) : "");
    if (lastGood)
      html += `<div class="gl-last"><div class="gl-head">The last call that ran</div>${lastGood}</div>`;
    return { html, writes: [], ran: false };
  }
  const writes = scatterWrites(shown, s.dim, s.index, s.src);
  const { output, received } = scatterResult(shown, writes, s.reduce, includeSelf);
  const repeated = received.filter((r) => r.values.length > 1);
  const outMarks = Object.fromEntries(repeated.map((r) => [key(r.at), "collision"]));
  const srcMarks = {};
  const indexMarks = {};
  const pick = writes[chosen - 1];
  if (pick) {
    srcMarks[key(pick.from)] = "src";
    indexMarks[key(pick.from)] = "index";
    outMarks[key(pick.to)] = "target";
  }
  html +=
    `<div class="gl-row"><div>${grid("src", s.src, srcMarks)}</div><div>${grid("index", s.index, indexMarks)}</div>` +
    `<div>${grid("x", shown, {})}</div><div>${grid("out", output, outMarks)}</div></div>` +
    legend(
      pick
        ? ["src", "index", "target", ...(repeated.length ? ["collision"] : [])]
        : repeated.length
          ? ["collision"]
          : [],
    );
  const lines = writes.map(
    (w) =>
      `${entry("src", w.from)} = ${formatValue(w.value, s.src.dtype)} → ${entry("out", w.to)}` +
      `  (${entry("index", w.from)} = ${valueAt(s.index, w.from)})`,
  );
  html += `<div class="gl-code gl-lines" aria-label="writes">${lines.map(dom.esc).join("\n")}</div>`;
  if (repeated.length) {
    const said = repeated.map((r) =>
      collisionLine(
        r.at,
        r.values,
        valueAt(shown, r.at),
        valueAt(output, r.at),
        s.reduce,
        includeSelf,
        shown.dtype,
      ),
    );
    html += `<div class="gl-code gl-lines" aria-label="collisions">${said.map(dom.esc).join("\n")}</div>`;
  } else html += '<div class="gl-q">No output entry is written twice.</div>';
  return { html, writes, ran: true };
}

function render({ model, el }) {
  const s = structuredClone(model.get("inputs"));
  let chosen = 0;
  let lastGood = "";
  const root = dom.make("div", {
    class: "gl-x",
    "data-explorer": "scatter",
    "data-lm-suppress-shortcuts": "true",
  });
  const controlsArea = dom.make("div", { class: "gl-controls" });
  const viewArea = dom.make("div", { class: "gl-view" });
  const boxesArea = dom.make("div", { class: "gl-controls" });
  const status = dom.make("div", { class: "gl-status", "aria-live": "polite" });
  const copy = dom.copyControl("scatter");
  root.append(controlsArea, viewArea, boxesArea, status, copy.node);
  el.replaceChildren(root);
  // A link to this explorer's state (dom.mjs's permalink): its inputs replace the saved ones.
  const link = dom.permalink(root, "scatter");
  const restored = link?.restore(s);
  if (restored) Object.assign(s, restored);

  // The controls are rebuilt on every change: the focus goes back to the same control.
  const refresh = () => {
    const restoreFocus = dom.keepFocus(root, controlsArea);
    const rank = Math.max(s.x.shape.length, 1);
    const dims = [...Array(rank).keys(), -1];
    if (!dims.includes(s.dim)) s.dim = 0;
    const { html, writes, ran } = view(s, chosen, lastGood);
    if (ran) lastGood = html;
    chosen = Math.min(chosen, writes.length);
    const controls = [
      dom.dimButtons(s, commit),
      dom.select(
        "reduce",
        MODES.map((m) => (m === "none" ? "none (scatter_)" : m)),
        MODES.indexOf(s.reduce),
        (k) => {
          s.reduce = MODES[k];
          commit();
        },
      ),
    ];
    if (s.reduce !== "none")
      controls.push(
        dom.buttons("include_self", ["True", "False"], s.include_self ? 0 : 1, (k) => {
          s.include_self = k === 0 ? 1 : 0;
          commit();
        }),
      );
    if (writes.length)
      controls.push(
        dom.select("show", ["all", ...writes.map((w) => entry("src", w.from))], chosen, (k) => {
          chosen = k;
          refresh();
        }),
      );
    controlsArea.replaceChildren(...controls);
    restoreFocus();
    copy.update(s);
    viewArea.innerHTML =
      (chosen
        ? `<div class="gl-q">${dom.esc(entry("src", writes[chosen - 1].from))} writes ${dom.esc(entry("out", writes[chosen - 1].to))}</div>`
        : "") + html;
  };
  const commit = () => {
    refresh();
    model.set("inputs", structuredClone(s));
    model.save_changes();
    link?.save(s);
  };
  for (const name of ["x", "index", "src"]) {
    const box = dom.textBox(name, formatTensor(s[name]), (text) => {
      status.innerHTML = "";
      try {
        s[name] = parseTensor(text, name);
      } catch (error) {
        if (!(error instanceof ParseError)) throw error;
        status.innerHTML = `<div class="gl-bad"><b>✗ Not applied:</b> ${dom.esc(`${name}: ${error.message}`)}</div>`;
        return;
      }
      chosen = 0;
      commit();
    });
    boxesArea.append(box);
  }
  refresh();
  if (restored) root.scrollIntoView({ block: "start" });
}

export default { render };
