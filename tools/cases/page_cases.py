"""The page's exercise cases: each exercise's payload, answers and Python's verdicts.

``tools/cases/generate.py`` writes ``tests/js/generated/page_exercise_cases.json.gz``
(gzip of JSON, git-ignored, in each ``make test``): ``{"payloads": {id:
payload}, "cases": [{"id", "text" | "code", "status", "verdict", "message"}],
"shape_advice": [[expected, got, template, fields]]}`` (compare.shape_advice on shape
pairs, which exercises.mjs's shapeAdvice must give too). A case
has ``text`` where the learner types a value or labels (predict, raises, choose; read as
``gatherlab.exercises.typed.typed_answer`` reads it) and ``code`` where the learner
writes code (implement: a function named ``answer``; fix: ``answer = <expression>`` over
the names the notebook defines, the payload's ``args``): the real mistakes of
``tests/data/real_mistakes.json`` (those of a raises or a choose as their labels
typed), the solution as the notebook shows it, the input returned unchanged, and for
a fix of the index, float indexes and indexes of the wrong shape. ``verdict`` is
``V`` and ``message`` its words (``gatherlab.exercises.page.verdict_for``; a fix's
lines that raise, as torch raises on a write into an expanded view, stop the
notebook's cell with that error: ``page.lines_raised``): the page, given the same
answer, must show the same words.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from gatherlab._arrays import to_numpy
from gatherlab.exercises import EXERCISES, Fix, Predict
from gatherlab.exercises.compare import shape_advice
from gatherlab.exercises.page import fix_names, lines_raised, payload, verdict_for
from gatherlab.exercises.typed import typed_answer
from gatherlab.exercises.verdict import render

ROOT = Path(__file__).resolve().parents[2]
MISTAKES_FILE = ROOT / "tests" / "data" / "real_mistakes.json"
# Texts any exercise may be given: stubs, words, odd literals, text Python cannot read.
COMMON_TEXTS = (
    "...",
    "prediction = ...",
    "None",
    "none",
    "no idea",
    "it raises",
    "IndexError: out of range",
    "It will ERROR",
    "True",
    "0",
    "-3",
    "1.5",
    "1e999",
    "-0.0",
    "[]",
    "()",
    "[[]]",
    "[[], []]",
    "[None]",
    "[...]",
    "['a', 'b']",
    "[1, 'a']",
    "('x',)",
    "{1: 2}",
    "{1, 2}",
    "1+2j",
    "3j",
    "b'x'",
    "u'abc'",
    "x",
    "--1",
    "-(1)",
    "+(2)",
    "-True",
    "[1, 2] [0]",
    "[1 2]",
    "[1,, 2]",
    "(,)",
    "9007199254740993",
    "[9007199254740991]",
    "0x1F",
    "0o17",
    "0b101",
    "1_000",
    "1__0",
    "012",
    "00",
    "1.e2",
    ".5",
    "1.2.3",
    "'a' 'b'",
    "'''abc'''",
    "'unclosed",
    "[1]\n# a comment",
    "# a comment\n[1]",
    "1,\n2",
    "[1,\n 2]",
    "a = [1]",
    "a == [1]",
    "[1] \\",
    "\u00a0[1]",
    "[[1, 2], [3]]",
    "[[1, 2], 3]",
    "[[[1]], [[1, 2]]]",
    "[[1], 'ab']",
    "[[], [1]]",
    "[[1, [2]], [[3], 4]]",
    "tensor([1, 2]).float()",
    "torch.tensor([[1.5], [-2.5]]).long()",
    "torch.tensor([1, 0]).to(torch.bool)",
    "tensor([2]).to(dtype=torch.float64)",
    "tensor([1]).float(2)",
)


# Random literals (nested lists and tuples of many spellings of numbers, strings and
# constants), half of them then broken by one inserted or deleted piece, so that the
# page reads odd text exactly as Python does.
FUZZ_ATOMS = (
    "0", "1", "-1", "+2", "- 3", "2.5", "-0.0", "1e3", "1E-2", ".5", "5.", "1_0",
    "0x1f", "0o7", "0b11", "True", "False", "None", "...", "'B'", '"a"', "'a' 'b'",
    "(4)", "-(4)", "1e999", "10", "21", "11.0",
)  # fmt: skip
FUZZ_PIECES = (
    "[", "]", "(", ")", ",", "-", "+", "1", ".", "_", " ", "\n", "# c", "j", "\\",
    "=", "x", "'", "0",
)  # fmt: skip
FUZZ_COUNT = 80


def _random_literal(rng: random.Random, depth: int = 0) -> str:
    if depth < 3 and rng.random() < 0.45:
        items = [_random_literal(rng, depth + 1) for _ in range(rng.randint(0, 3))]
        opening, closing = rng.choice([("[", "]"), ("[", "]"), ("(", ")")])
        separator = rng.choice([", ", ",", " , ", ",\n  "])
        trailing = rng.choice(["", "", ","])
        return opening + separator.join(items) + trailing + closing
    return rng.choice(FUZZ_ATOMS)


def _fuzz(exercise_id: str) -> list[str]:
    rng = random.Random(zlib.crc32(exercise_id.encode()))
    texts = []
    for _ in range(FUZZ_COUNT):
        text = _random_literal(rng)
        at = rng.randint(0, len(text))
        if rng.random() < 0.25:
            text = text[:at] + rng.choice(FUZZ_PIECES) + text[at:]
        elif rng.random() < 0.25:
            text = text[:at] + text[at + 1 :]
        texts.append(text)
    return texts


def _literal(value: Any) -> str:
    """Nested lists as a learner types them."""
    return repr(value)


def _as_tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_as_tuples(item) for item in value)
    return value


def _predict_texts(exercise: Predict) -> list[str]:
    expected = to_numpy(exercise.solution)
    is_float = expected.dtype.kind == "f"
    right = expected.tolist()
    flat = expected.reshape(-1)
    texts = [
        _literal(right),
        _literal(_as_tuples(right)),
        f"prediction = {_literal(right)}",
        _literal(right).replace(", ", ",\n  "),
        _literal(right) + "  # my guess",
        _literal(expected.astype(np.float64).tolist()),
        _literal((expected + 1e-7).tolist()),
        _literal((expected + 1).tolist()),
        _literal((expected - 1).tolist()),
        _literal(expected.reshape(-1).tolist()),
        _literal(expected[None].tolist()),
        _literal(expected[..., None].tolist()),
        _literal((expected != 0).tolist()),
        _literal((expected == expected).tolist()),
        _literal(np.zeros_like(expected).astype(bool).tolist()),
    ]
    if expected.size and expected.ndim:  # a row, a column short, a row short
        parts = (expected[0], expected[..., :-1], expected[:1])
        texts += [_literal(part.tolist()) for part in parts]
        texts.append(_literal(flat[0].item()))
    if expected.ndim >= 2:
        texts.append(_literal(np.swapaxes(expected, -1, -2).tolist()))
    for mistake in getattr(exercise, "mistakes", {}).values():  # known wrong answers
        values = to_numpy(mistake)
        texts += [_literal(values.tolist()), _literal(values.astype(float).tolist())]
    call = exercise.explain
    inputs = (
        [] if call is None else sorted(set(to_numpy(call.input).reshape(-1).tolist()))
    )
    for position in range(flat.size):
        here = flat[position].item()
        values = {here + 1, here - 1, 0, -here, 10**6, here + 0.5, *inputs}
        if is_float:
            values |= {here + 1e-7, here * 1.0001, here + 0.25, float("-0")}
        for value in sorted(values, key=repr):
            answer = flat.tolist()
            answer[position] = value
            texts.append(
                _literal(
                    np.reshape(np.array(answer, dtype=object), expected.shape).tolist()
                )
            )
    if expected.size and expected.ndim:  # a ragged answer: one row short
        rows = expected.tolist()
        rows[-1] = rows[-1][:-1] if isinstance(rows[-1], list) else [rows[-1], 0]
        texts.append(_literal(rows))
    return texts


def _label_texts(labels: list[str], solution: list[str]) -> list[str]:
    """Answers naming labels: every subset, in several spellings, and odd words."""
    texts = []
    for size in range(len(labels) + 1):
        for chosen in itertools.combinations(labels, size):
            texts.append(repr(list(chosen)))
            texts.append(", ".join(chosen).lower() or "none")
            texts.append("".join(chosen))
    texts += [
        f"raising = {solution!r}",
        repr(tuple(solution)),
        " ; ".join(solution),
        f"[{', '.join(solution)}]",
        "[]",
        "Z",
        "A, Z",
        "AZ",
        "zz, b",
        "nolabel9",
        "a\tb",
        "[1]",
        "(1,)",
        "['A', 1]",
        "[['A']]",
        "'" + "', '".join(solution) + "'",
        "NONE",
        "None of them",
        "a\u00a0b",
        "a\u2003b",
        "a\x1cb",
        "ä",
        "a\x01",
    ]
    return texts


def _misconception_texts(data: dict[str, Any]) -> list[str]:
    """Each misconception's output on the one case, typed as nested lists."""
    texts = []
    for entry in data["cases"][0]["misconceptions"]:
        output = entry["output"]
        if "data" in output:
            values = np.array(output["data"]).reshape(output["shape"])
            texts.append(_literal(values.tolist()))
    return texts


def _unchanged(data: dict[str, Any]) -> str:
    """A wrong answer for every exercise that writes code: its input unchanged (fix:
    the broken call's own index)."""
    args = data["args"]
    if data["kind"] == "fix":
        return f"answer = {args[1]}\n"
    return f"def answer({', '.join(args)}):\n    return {args[0]}\n"


def _float_answers(exercise: Fix, data: dict[str, Any]) -> list[str]:
    """Float (and truncated) indexes for a fix of the index, each branch of
    strategies.float_positions: the input's values, its truncation, the broken index
    and the solution as floats, with fractions and just off whole numbers."""
    if exercise.part != "index":
        return []
    source, index = data["args"][:2]
    name = exercise.answer_name
    solution = exercise.solution_source().rstrip("\n")
    return [
        f"answer = {source}.float()\n",
        f"answer = {source}.long()\n",
        f"answer = {index}.float()\n",
        f"answer = {index}.float() / 4\n",
        f"{solution}\n{name} = {name}.float()\n",
        f"{solution}\n{name} = {name}.float() - 0.0001\n",
        f"{solution}\n{name} = {name}.float() + 0.5\n",
    ]


def _shaped_answers(exercise: Fix, data: dict[str, Any]) -> list[str]:
    """Indexes of the wrong shape for a fix of the index (fix._expand_advice's
    branches): an axis added or dropped, the first row alone."""
    if exercise.part != "index":
        return []
    name, index = exercise.answer_name, data["args"][1]
    solution = exercise.solution_source().rstrip("\n")
    answers = [
        f"answer = {index}.unsqueeze(0)\n",
        f"answer = {index}.flatten()\n",
        f"{solution}\n{name} = {name}.unsqueeze(-1)\n",
        f"{solution}\n{name} = {name}[:1]\n",
        f"{solution}\n{name} = {name}.flatten()\n",
    ]
    if to_numpy(exercise.reference_answer).ndim >= 2:  # a row as a column
        answers.append(f"{solution}\n{name} = {name}[0].unsqueeze(1)\n")
    return answers


# Code as learners write it, beyond the collected mistakes: renamed parameters, a
# default, a one-line def, print calls and f-strings left in, type hints, no return,
# writes through x[i][j], range indexes, lists and other dtypes or frameworks as
# results (the page must word each as the notebook does).
IDIOMS = {
    # a loop's output made by torch.zeros without a dtype (float32), and one given it
    "01.gather_loop": [
        "def answer(input, dim, index):\n"
        "    out = torch.zeros(index.shape)\n"
        "    for i in range(index.shape[0]):\n"
        "        for j in range(index.shape[1]):\n"
        "            p = index[i, j]\n"
        "            out[i, j] = input[p, j] if dim % 2 == 0 else input[i, p]\n"
        "    return out\n",
        "def answer(input, dim, index):\n"
        "    out = torch.zeros(index.shape, dtype=input.dtype)\n"
        "    for i in range(index.shape[0]):\n"
        "        for j in range(index.shape[1]):\n"
        "            p = index[i, j]\n"
        "            out[i, j] = input[p, j] if dim % 2 == 0 else input[i, p]\n"
        "    return out\n",
    ],
    "01.pick_columns": [
        "def pick_columns(a, b):\n    return a.gather(1, b)\n",
        "def pick_columns(x: torch.Tensor, columns: torch.Tensor, dim: int = 1):\n"
        "    return x.gather(dim, columns)\n",
        "def pick_columns(x, columns): return torch.gather(x, 1, columns)\n",
        "def pick_columns(x, columns):\n    print(f'{x.shape=}', x)\n"
        "    return x.gather(1, columns)\n",
        "def pick_columns(x, columns):\n    x.gather(1, columns)\n",
        "def pick_columns(x, columns):\n    return x.gather(1, columns).float()\n",
        "def pick_columns(x, columns):\n    return x.gather(1, columns).tolist()\n",
        "def pick_columns(x, columns):\n    return x[range(x.shape[0]), columns.T].T\n",
        "def pick_columns(x):\n    return x\n",
        # a float index from a true division two steps earlier, named by that step
        "def pick_columns(x, columns):\n    half = columns * 2 / 2\n"
        "    return x.gather(1, half)\n",
        "def pick_columns(x, columns):\n    return x.gather(1, columns.float())\n",
        # a float index along the wrong dim: the dtype error, then (repaired) the dim
        "def pick_columns(x, columns):\n    return x.gather(0, columns.float())\n",
        "def pick_columns(x, columns):\n    return torch.gather(x, 0, columns / 1)\n",
        # arguments out of the signature's order
        "def pick_columns(x, columns):\n    return x.gather(columns, 1)\n",
        "def pick_columns(x, columns):\n    return torch.gather(x, columns, 1)\n",
        "def pick_columns(x, columns):\n"
        "    out = torch.zeros(columns.shape, dtype=x.dtype)\n"
        "    for i in range(columns.shape[0]):\n"
        "        for j in range(columns.shape[1]):\n"
        "            out[i][j] = x[i][columns[i][j]]\n"
        "    return out\n",
    ],
    "06.one_hot": [
        "def one_hot(labels, classes):\n"
        "    rows = torch.zeros(labels.shape[0], classes)\n"
        "    return rows.scatter_(1, labels[:, None], 1)\n",
        "def one_hot(labels, classes):\n"
        "    return labels.unsqueeze(1) == torch.arange(classes)\n",
        "def one_hot(labels, classes):\n"
        "    rows = torch.zeros(labels.shape[0], classes, dtype=torch.bool)\n"
        "    rows |= labels[:, None] == torch.arange(classes)\n"
        "    return rows.long()\n",
        # torch.empty's memory believed zeros: right only while it happens to hold them
        "def one_hot(labels, classes):\n"
        "    rows = torch.empty(len(labels), classes, dtype=torch.int64)\n"
        "    return rows.scatter_(1, labels.unsqueeze(1), 1)\n",
        "def one_hot(labels, classes):\n"
        "    rows = labels.new_empty(len(labels), classes)\n"
        "    return rows.scatter_(1, labels.unsqueeze(1), 1)\n",
        # the ids present taken for every id: a label's rank among them as its column
        # (implement._counted_slots, uniqueSlots)
        "def one_hot(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        "    for k, c in enumerate(labels.unique()):\n"
        "        rows[labels == c, k] = 1\n"
        "    return rows\n",
        # whole rows set, a buffer of ones, flat positions without a row offset
        "def one_hot(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        "    rows[labels] = 1\n"
        "    return rows\n",
        "def one_hot(labels, classes):\n"
        "    rows = torch.ones(len(labels), classes, dtype=torch.int64)\n"
        "    return rows.scatter_(1, labels.unsqueeze(1), 1)\n",
        "def one_hot(labels, classes):\n"
        "    rows = torch.zeros(len(labels), classes, dtype=torch.int64)\n"
        "    rows.view(-1)[labels] = 1\n"
        "    return rows\n",
    ],
    "06.segment_means": [
        # counts started at 1 against a division by 0; sums over the segment count;
        # two bincounts without minlength and unclamped
        "def segment_means(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums.index_add_(0, segments, values)\n"
        "    sizes = torch.ones(count, dtype=values.dtype)\n"
        "    sizes.index_add_(0, segments, torch.ones_like(values))\n"
        "    return sums / sizes\n",
        "def segment_means(values, segments, count):\n"
        "    sums = torch.zeros(count, dtype=values.dtype)\n"
        "    sums.index_add_(0, segments, values)\n"
        "    return sums / count\n",
        "def segment_means(values, segments, count):\n"
        "    sums = torch.bincount(segments, weights=values)\n"
        "    return sums / torch.bincount(segments)\n",
    ],
    # every row read every label, then the diagonal: each row's own label
    "05.label_scores": [
        "def label_scores(log_probs, labels):\n"
        "    return log_probs[:, labels].diagonal()\n",
        "def label_scores(log_probs, labels):\n"
        "    return log_probs[:, labels].diagonal().unsqueeze(1)\n",
        "def label_scores(log_probs, labels):\n"
        "    return torch.diagonal(log_probs[:, labels]).unsqueeze(1)\n",
    ],
    "02.tf_select_steps": [
        # an axis other than batch_dims: the features' axis (argreads' read_axis)
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    return tf.gather(features, positions, axis=-1, batch_dims=1)\n",
        # a Python float times integer positions, a torch dtype given to TensorFlow, a
        # keyword the TensorFlow op lacks
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    return tf.gather(features, 1.5 * positions, axis=1, batch_dims=1)\n",
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    out = tf.zeros(positions.shape, dtype=torch.float32)\n"
        "    return out\n",
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    return tf.gather_nd(features, positions[..., None], axis=1,"
        " batch_dims=1)\n",
        "import tensorflow as tf\n\ndef tf_select_steps(features, positions):\n"
        "    return tf.gather(features, positions, axis=1, batch_dims=1)\n",
        "def tf_select_steps(features, positions):\n    pass\n",
    ],
    # (batch, position) pairs read with batch_dims=1: each is read inside params[b]
    # (argreads' tf.gather_nd batch_dims, misreadArgument alike)
    "02.tf_gather_nd_pairs": [
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    n = tf.shape(positions)\n"
        "    first = tf.range(n[0], dtype=positions.dtype)[:, None]\n"
        "    rows = tf.broadcast_to(first, n)\n"
        "    pairs = tf.stack([rows, positions], axis=-1)\n"
        "    return tf.gather_nd(features, pairs, batch_dims=1)\n",
        # tf.gather where gather_nd is asked: no coordinates (gatherNotNd)
        "def answer(features, positions):\n    import tensorflow as tf\n"
        "    return tf.gather(features, positions[..., None], axis=1, batch_dims=1)\n",
    ],
    "02.select_steps": [
        "def answer(features, positions):\n"
        "    index = positions.unsqueeze(-1).repeat(-1, -1, features.shape[2])\n"
        "    return torch.gather(features, 1, index)\n",
    ],
    # an index built by writing into zeros through a tensor index: the write reaches a
    # copy and the index stays 0s (fix.index_all_zeros); an assignment reaches it
    "06.fix_write_as_read": [
        "fixed_index = torch.zeros_like(destination)\n"
        "fixed_index[destination].copy_(torch.arange(len(destination)))\n",
        "fixed_index = torch.zeros(len(destination), dtype=torch.int64)\n"
        "fixed_index[destination].add_(torch.arange(len(destination)))\n",
        "fixed_index = torch.zeros_like(destination)\n"
        "fixed_index[destination] = torch.arange(len(destination))\n",
    ],
    "01.fix_missing_axis": [
        "fixed_index: torch.Tensor = labels.unsqueeze(1)\nprint(fixed_index)\n",
        "fixed_index = [[2], [1], [0]]\n",
    ],
    # flat_index is an expanded view (its 4 columns share memory): a write into it
    # raises in torch, one into a column of it goes to every column, a copy is free
    "02.fix_beam_rows": [
        "fixed_index = flat_index\n"
        "fixed_index += (torch.arange(flat_index.shape[0]) // beam * beam)[:, None]\n",
        "fixed_index = flat_index\nfixed_index[beam:] += beam\n",
        "fixed_index = flat_index.long()\n"
        "fixed_index[beam:] = fixed_index[beam:] + beam\n",
        "fixed_index = flat_index.clone()\nfixed_index[beam:] += beam\n",
        "fixed_index = flat_index.contiguous()\nfixed_index[beam:] += beam\n",
        "flat_index[beam:, 0] += beam\nfixed_index = flat_index\n",
        "fixed_index = flat_index.T\nfixed_index[0, beam:] += beam\n"
        "fixed_index = flat_index\n",
        "fixed_index = flat_index.clone()\nfixed_index[1:] += fixed_index[:-1]\n",
    ],
    # lengths where lengths - 1 belongs: gather's rule names the off-by-one, the
    # IndexError of advanced indexing names none (on the page as in the notebook)
    "02.last_valid_step": [
        "def last_valid_step(features, lengths):\n"
        "    index = lengths.view(-1, 1, 1).expand(-1, 1, features.shape[-1])\n"
        "    return torch.gather(features, 1, index).squeeze(1)\n",
        "def last_valid_step(features, lengths):\n"
        "    return features[torch.arange(features.shape[0]), lengths]\n",
        "def last_valid_step(features, lengths):\n"
        "    batch, _, width = features.shape\n"
        "    out = torch.empty(batch, width, dtype=features.dtype)\n"
        "    for b in range(features.shape[0]):\n"
        "        out[b] = features[b, lengths[b]]\n"
        "    return out\n",
    ],
    # clamping where an invalid case must raise: the notebook's must-raise words, the
    # reference's error, and why wrapping hides it where a position is out of range
    "04.gather_python_style": [
        "def gather_python_style(input, dim, index):\n"
        "    size = input.size(dim)\n"
        "    index = torch.where(index < 0, index + size, index)\n"
        "    return torch.gather(input, dim, index.clamp(0, size - 1))\n",
        "def gather_python_style(input, dim, index):\n"
        "    size = input.size(dim)\n"
        "    index = torch.where(index < 0, index + size, index)\n"
        "    return torch.gather(input, dim, index.clamp(max=size - 1))\n",
    ],
    "02.fix_wrong_axis": [
        "fixed_index = wrong_index\nfixed_index[0] = positions[0].unsqueeze(-1)\n",
    ],
    # flat positions off the end: a swapped pair is named by the index itself (the
    # notebook's misconceptions.Raised.index), another stride by its error alone
    "03.fix_pairs_for_take": [
        "answer = pairs[:, 1] * grid.shape[1] + pairs[:, 0]\n",
        "answer = pairs[:, 0] * 6 + pairs[:, 1]\n",
        "answer = pairs[:, 0] * grid.shape[0] + pairs[:, 1]\n",
    ],
    # values no misconception explains: the rule of the op first (oprules)
    "01.fix_shared_columns": [
        "answer = torch.tensor([[2, 0], [0, 2]])\n",
    ],
    "06.class_loss_sums": [
        # the ids present taken for every id; a buffer of ones
        "def class_loss_sums(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
        "    for k, c in enumerate(labels.unique()):\n"
        "        sums[k] = (losses * (labels == c)).sum()\n"
        "    return sums\n",
        "def class_loss_sums(losses, labels, classes):\n"
        "    sums = torch.ones(classes, dtype=losses.dtype)\n"
        "    return sums.index_add_(0, labels, losses)\n",
        # a buffer of torch.zeros' default dtype: the write keeps it
        "def answer(losses, labels, classes):\n"
        "    out = torch.zeros(classes)\n"
        "    return out.index_add_(0, labels, losses.float())\n",
        "def answer(losses, labels, classes):\n"
        "    out = torch.zeros(classes, dtype=losses.dtype)\n"
        "    return out.index_add_(0, labels, losses) * 2\n",
        # a write lost, told where it went: into a copy (an in-place op on a read, a
        # write through two indexings), or an out-of-place op's result dropped
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
        "    sums[labels].add_(losses)\n    return sums\n",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
        "    sums.scatter_add(0, labels, losses)\n    return sums\n",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype)\n"
        "    sums.index_add(0, labels, losses)\n    return sums\n",
        # arguments out of the signature's order or of the wrong type, torch's checks
        # in torch's order, and the writes the error table explains (scatter_reduce,
        # put_, index_put_, masked_fill)
        *(
            "def answer(losses, labels, classes):\n"
            f"    out = torch.zeros(classes, dtype=losses.dtype)\n    return {call}\n"
            for call in (
                "out.index_add_(labels, 0, losses)",
                "out.index_add_(0, labels, 1.0)",
                "out.scatter_add(losses, labels, 0)",
                "out.scatter_(labels, 0, losses)",
                "out.scatter_add(0, labels, losses, out_size=classes)",
                "out.scatter_reduce(0, labels.float(), losses, 'sum')",
                "out.scatter_reduce(0, labels[:, None], losses, 'sum')",
                "out.scatter_reduce(0, labels, losses.float(), 'sum')",
                "out.put_(labels, losses[:1], accumulate=True)",
                "out.put_(labels.float(), losses, accumulate=True)",
                "out.put_(labels, losses, accumulate=True)",
                "out.index_put_((labels,), 1.0, accumulate=True)",
                "out.masked_fill(losses, labels)",
                "out.masked_fill_(labels, 1.0)",
                "out.scatter(0, labels, losses, dim_size=classes)",
            )
        ),
        # values of another shape written through positions past the end: the shape
        # is checked first
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype).unsqueeze(0)\n"
        "    sums[labels] = losses\n"
        "    return sums\n",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=losses.dtype).unsqueeze(0)\n"
        "    sums[labels] += losses\n"
        "    return sums\n",
        "def answer(losses, labels, classes):\n"
        "    sums = torch.zeros(classes, dtype=torch.float64).unsqueeze(0)\n"
        "    sums.index_put_((labels,), losses.float(), accumulate=True)\n"
        "    return sums\n",
        # one write per entry: a 0-d index and src are one entry to torch
        "def answer(losses, labels, classes):\n"
        "    out = torch.zeros(classes, dtype=losses.dtype)\n"
        "    for k in range(len(labels)):\n"
        "        out.scatter_add_(0, labels[k], losses[k])\n"
        "    return out\n",
    ],
}

# Shapes for compare.shape_advice against exercises.mjs's shapeAdvice: each expected
# shape with shapes that differ from it in every way the advice names.
ADVICE_SHAPES = ((1,), (2,), (2, 1), (1, 3), (2, 3), (3, 2), (2, 3, 4), (3, 1, 2))


def _shape_pairs() -> list[list[Any]]:
    pairs = []
    for expected in ADVICE_SHAPES:
        rank = len(expected)
        wrong = [expected[:d] + expected[d + 1 :] for d in range(rank)]
        wrong += [expected[:d] + (1,) + expected[d:] for d in range(rank + 1)]
        wrong += [expected[:-2] + expected[-1:] + expected[-2:-1], (*expected, 2, 2)]
        for d in range(rank):
            for size in (1, expected[d] + 1):
                wrong.append(expected[:d] + (size,) + expected[d + 1 :])
        wrong.append(tuple(s + 1 for s in expected))
        for got in dict.fromkeys(w for w in wrong if w != expected):
            template, fields = shape_advice(expected, got)
            pairs.append([list(expected), list(got), template, fields])
    return pairs


def _fresh(value: Any) -> Any:
    """A copy of a notebook's name for one answer's lines (which may write into it),
    laid out in memory as the name is: an expanded view stays one, its entries
    sharing memory, so a write into it raises or goes through as in the notebook."""
    import torch

    if not isinstance(value, torch.Tensor):
        return value
    if value.is_contiguous():
        return value.clone()
    stride = value.stride()
    pairs = zip(value.shape, stride, strict=True)
    where = sum((size - 1) * step for size, step in pairs)
    storage = torch.zeros(where + 1 if value.numel() else 0, dtype=value.dtype)
    places = torch.arange(storage.numel()).as_strided(value.shape, stride)
    storage[places.reshape(-1)] = value.reshape(-1)
    return storage.as_strided(value.shape, stride)


def _code_answer(exercise_id: str, code: str) -> Any:
    """The answer a learner's code gives, run with the notebook's names: the function
    it defines (implement), the part it binds (fix: ``answer`` or the notebook's
    ``fixed_index``, with copies of the names the fix reads)."""
    import torch

    exercise = EXERCISES[exercise_id]
    names: dict[str, Any] = {"torch": torch}
    if isinstance(exercise, Fix):
        names.update({k: _fresh(v) for k, v in fix_names(exercise).items()})
    exec(code, names)  # the collected mistakes' code, as learners wrote it
    if isinstance(exercise, Fix):
        return names.get("answer", names.get(exercise.answer_name))
    if "answer" in names:
        return names["answer"]
    return names[exercise.solution.__name__]


def _case(exercise_id: str, key: str, shown: str, answer: Any) -> dict[str, Any]:
    verdict, message = verdict_for(exercise_id, answer)
    status = "passed" if verdict["passed"] else "not yet"
    if answer is ...:
        status = "not attempted yet"
    return {
        "id": exercise_id,
        key: shown,
        "status": status,
        "verdict": verdict,
        "message": message,
    }


def build() -> dict[str, Any]:
    """Every exercise's payload and its cases: the answer, Python's verdict."""
    mistakes = json.loads(MISTAKES_FILE.read_text(encoding="utf-8"))
    payloads, cases = {}, []
    for exercise_id in EXERCISES:
        exercise = EXERCISES[exercise_id]
        data = payload(exercise)
        payloads[exercise_id] = data
        codes = [m["code"] for m in mistakes if m["exercise"] == exercise_id]
        # the page takes a choice's or a raises' labels as typed text, not as code
        labelled = data["kind"] in ("choose", "raises")
        typed = [repr(_code_answer(exercise_id, code)) for code in codes if labelled]
        codes = [] if labelled else codes
        codes += IDIOMS.get(exercise_id, [])
        if data["kind"] in ("implement", "fix"):  # the solution, as shown, and the
            codes += [exercise.solution_source(), _unchanged(data)]  # input unchanged
        if isinstance(exercise, Fix):
            codes += _float_answers(exercise, data) + _shaped_answers(exercise, data)
        for code in codes:
            try:
                answer = _code_answer(exercise_id, code)
            except Exception as error:  # a fix's lines that raise in the notebook
                if not isinstance(exercise, Fix):
                    raise
                said = lines_raised(error)
                cases.append(
                    {
                        "id": exercise_id,
                        "code": code,
                        "status": "not yet",
                        "verdict": said.to_json(),
                        "message": render(said),
                    }
                )
                continue
            cases.append(_case(exercise_id, "code", code, answer))
        if data["kind"] in ("implement", "fix"):
            continue
        if data["kind"] == "predict":
            assert isinstance(exercise, Predict)
            own = [*_predict_texts(exercise), *_misconception_texts(data)]
        else:
            labels = [choice["label"] for choice in data["choices"]]
            right = exercise.reference_answer
            own = _label_texts(labels, [right] if isinstance(right, str) else right)
        texts = [*own, *typed, *COMMON_TEXTS, *_fuzz(exercise_id)]
        for text in dict.fromkeys(texts):  # each text once, in order
            cases.append(_case(exercise_id, "text", text, typed_answer(text)))
    return {"payloads": payloads, "cases": cases, "shape_advice": _shape_pairs()}


def dumped(data: dict[str, Any]) -> str:
    """One line per payload and per case, so a change shows as a short diff."""
    lines = ['{"payloads": {']
    items = sorted(data["payloads"].items())
    for number, (key, value) in enumerate(items):
        comma = "," if number < len(items) - 1 else ""
        text = json.dumps(value, sort_keys=True, ensure_ascii=False)
        lines.append(f"{json.dumps(key)}: {text}{comma}")
    lines.append('}, "cases": [')
    for number, case in enumerate(data["cases"]):
        comma = "," if number < len(data["cases"]) - 1 else ""
        lines.append(json.dumps(case, sort_keys=True, ensure_ascii=False) + comma)
    lines.append('], "shape_advice": [')
    pairs = data["shape_advice"]
    for number, pair in enumerate(pairs):
        comma = "," if number < len(pairs) - 1 else ""
        lines.append(json.dumps(pair, sort_keys=True) + comma)
    lines.append("]}")
    return "\n".join(lines) + "\n"


def write(path: Path) -> str:
    data = build()
    # mtime=0: the same cases give the same bytes
    path.write_bytes(gzip.compress(dumped(data).encode("utf-8"), mtime=0))
    return f"{len(data['cases'])} cases for {len(data['payloads'])} exercises"
