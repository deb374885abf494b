"""Chapter 4 exercises: error cases, loud and silent, in the chapter's order."""

from __future__ import annotations

import numpy as np
import torch

from gatherlab.exercises import (
    Call,
    cases,
    choose,
    fix,
    implement,
    predict,
    predict_raises,
)
from gatherlab.exercises.call import Op

x = torch.tensor([[10, 11, 12], [20, 21, 22]])


def gather_python_style(
    input: torch.Tensor, dim: int, index: torch.Tensor
) -> torch.Tensor:
    """Positions -size..-1 count from the end: add size, then gather."""
    size = input.size(dim)
    if ((index < -size) | (index >= size)).any():
        raise IndexError(f"positions must lie in -{size}..{size - 1}")
    from_start = torch.where(index < 0, index + size, index)
    return torch.gather(input, dim, from_start)


def _python_style_case(rng: np.random.Generator) -> dict:
    ndim = int(rng.integers(1, 4))
    shape = cases.shape(rng, ndim)
    dim = int(rng.integers(-ndim, ndim))
    along = dim % ndim
    index_shape = tuple(
        int(rng.integers(1, size + 3)) if d == along else int(rng.integers(1, size + 1))
        for d, size in enumerate(shape)
    )
    index = cases.positions(rng, shape[along], index_shape)
    negative = torch.as_tensor(rng.random(index_shape) < 0.4)
    return {
        "input": cases.values(rng, shape),
        "dim": dim,
        "index": torch.where(negative, index - shape[along], index),
    }


def _out_of_range_case(rng: np.random.Generator) -> dict:
    """A valid case with one position outside -size..size-1: gather must raise."""
    case = _python_style_case(rng)
    size = case["input"].size(case["dim"])
    beyond = int(rng.integers(0, 3))
    wrong = size + beyond if rng.random() < 0.5 else -size - 1 - beyond
    index = case["index"].clone()
    index.view(-1)[int(rng.integers(0, index.numel()))] = wrong
    return {**case, "index": index}


def _from_start(input: torch.Tensor, dim: int, index: torch.Tensor) -> torch.Tensor:
    """The positions the learner's negative ones stand for, counted from the start."""
    return torch.where(index < 0, index + input.size(dim), index)


implement(
    "04.gather_python_style",
    "Gather with Python-style negative positions",
    solution=gather_python_style,
    example={"input": x, "dim": 1, "index": torch.tensor([[0, -1], [-3, 2]])},
    generate=_python_style_case,
    call=Call("gather", "input", "dim", _from_start, index_name="index"),
    generate_invalid=_out_of_range_case,
)


def _labelled(op: Op, dim: int | None, index: torch.Tensor, text: str) -> Call:
    return Call(op, x, dim, index, index_name=text)


predict_raises(
    "04.which_calls_raise",
    "Which of these calls raise?",
    calls={
        "A": _labelled(
            "gather",
            -1,
            torch.tensor([[2, 0], [1, 1]]),
            "torch.tensor([[2, 0], [1, 1]])",
        ),
        "B": _labelled(
            "gather",
            0,
            torch.tensor([[1], [0], [1]]),
            "torch.tensor([[1], [0], [1]])",
        ),
        "C": _labelled("gather", 1, torch.empty((3, 0)), "torch.empty((3, 0))"),
        "D": _labelled(
            "take_along_dim",
            1,
            torch.tensor([[2], [0]], dtype=torch.int32),
            "torch.tensor([[2], [0]], dtype=torch.int32)",
        ),
        "E": _labelled(
            "gather",
            1,
            torch.tensor([[2], [0]], dtype=torch.int32),
            "torch.tensor([[2], [0]], dtype=torch.int32)",
        ),
        "F": _labelled(
            "gather", 1, torch.tensor([[0], [-3]]), "torch.tensor([[0], [-3]])"
        ),
    },
)


logits = torch.tensor([[10, 11, 12, 13], [20, 21, 22, 23], [30, 31, 32, 33]])
targets = torch.tensor([3, 0, 2])


def one_label_per_row(logits: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """The targets run down the rows: shape (batch, 1), one per row."""
    return targets.unsqueeze(1)


fix(
    "04.fix_label_axis",
    "Read each row's score for its own label",
    broken=Call(
        "gather",
        logits,
        1,
        targets.unsqueeze(0),
        input_name="logits",
        index_name="index",
    ),
    solution=one_label_per_row,
    positions="targets",
)


def take_along_dim_wraps() -> torch.Tensor:
    """With a dim, torch 2.13 reads each position modulo the size."""
    positions = torch.tensor([[4, -2], [3, 1]])
    return torch.take_along_dim(x, positions, dim=1)


predict(
    "04.predict_wrap",
    "Predict take_along_dim with out-of-range positions",
    code=take_along_dim_wraps,
    explain=Call("take_along_dim", x, 1, torch.tensor([[4, -2], [3, 1]])),
)


vector = torch.tensor([10, 11, 12])


def gather_with_a_0d_index() -> torch.Tensor:
    """A 0-d index is one position; gather keeps the index's shape."""
    return torch.gather(vector, 0, torch.tensor(2))


predict(
    "04.predict_scalar_index",
    "Predict gather with a 0-d index",
    code=gather_with_a_0d_index,
    explain=Call("gather", vector, 0, torch.tensor(2), input_name="vector"),
    runs_because=(
        "a 0-d index counts as a 1-D index with one entry, so the sizes agree, and "
        "gather returns the shape of its index, (): one value"
    ),
    mistakes={
        "you wrote a list of one value, shape (1,); the index torch.tensor(2) is "
        "0-d (shape ()), and gather returns the shape of its index, so the result "
        "is a 0-d tensor: write the number alone": [12],
    },
)

choose(
    "04.tf_negative_coordinate",
    "What does tf.gather_nd do with a -1 on each device?",
    options={
        "A": "It raises InvalidArgumentError on the CPU, on a GPU and under XLA.",
        "B": "It reads the last column everywhere, as Python's x[1][-1] would.",
        "C": "The CPU raises InvalidArgumentError; a GPU writes 0 for that coordinate "
        "and carries on; XLA (jit_compile=True) clamps -1 to 0 and reads a real entry.",
        "D": "The CPU raises InvalidArgumentError; a GPU and XLA both read the last "
        "column.",
    },
    right="C",
    why={
        "A": "only the CPU kernel checks the coordinates; the GPU kernel has no "
        "check and stores 0, and XLA's gather clamps every coordinate into range",
        "B": "tf.gather_nd does not count from the end on any device: on the CPU "
        "-1 is outside [0, size) and raises, a GPU writes 0 for that coordinate, "
        "and XLA clamps -1 to 0, the first column",
        "C": "each backend treats the bad coordinate its own way, and only the CPU "
        "tells you (XLA on a CPU, tensorflow-cpu 2.21, read [1, 0] for [1, -1])",
        "D": "nothing wraps -1 to the end: the GPU stores 0, and XLA clamps -1 to 0, "
        "the first column, not the last",
    },
)

choose(
    "04.device_side_assert",
    "When does an out-of-range position on CUDA fail?",
    options={
        "A": "torch.gather raises at once, with the CPU's message "
        "(index 3 is out of bounds for dimension 1 with size 3).",
        "B": "Nothing fails: the output holds 0 (or garbage) where the bad position "
        "was, and the program carries on.",
        "C": "torch.gather returns; a later call that waits for the GPU (such as "
        ".tolist()) raises 'CUDA error: device-side assert triggered', and every "
        "CUDA call after it fails until the process restarts.",
        "D": "The position is clamped to size - 1, as take_along_dim wraps it.",
    },
    right="C",
    why={
        "A": "that is the CPU's check; on CUDA the launch returns before the kernel "
        "runs, and the next call that waits for the GPU reports its device-side "
        "assert",
        "B": "silent zeros are TensorFlow's GPU gather; PyTorch's CUDA gather kernel "
        "asserts, it does not write a value: the next call that waits for the GPU "
        "reports the assert",
        "C": "the launch is asynchronous, so the kernel's assert is reported at the "
        "next synchronising call, possibly far from the gather, and it leaves the "
        "CUDA context unusable: restart, then find the position on the CPU",
        "D": "eager gather does not wrap or clamp; on CUDA a bad position trips the "
        "kernel's assert",
    },
)

choose(
    "04.device_mismatch",
    "What happens when input and index are on different devices?",
    options={
        "A": "PyTorch refuses before launching anything: a RuntimeError that names "
        "both devices (cuda:0 and cpu); the CUDA context stays usable.",
        "B": "PyTorch copies the index to the GPU for you and returns "
        "[[12, 10], [21, 21]].",
        "C": "A device-side assert, reported at a later call.",
        "D": "It returns the result on the CPU, where the index is.",
    },
    right="A",
    why={
        "A": "the device check runs on the host, before any kernel starts, so it "
        "raises at the call and breaks nothing: move the index with "
        "index.to(x.device)",
        "B": "gather never moves a tensor to another device: input and index must "
        "already be on the same one, and the call raises a RuntimeError that names "
        "both devices (cuda:0 and cpu); move the index with index.to(x.device)",
        "C": "a device-side assert comes from a kernel that ran; the devices are "
        "checked on the host first, so the call raises a RuntimeError naming both "
        "(cuda:0 and cpu)",
        "D": "the op never runs: torch checks that input and index share a device "
        "before any kernel starts, and raises a RuntimeError naming both (cuda:0 "
        "and cpu); a result would live on its input's device",
    },
)
