"""Expressions a learner might write, with what torch and TensorFlow give for them.

``tests/js/evaluator.test.mjs`` (in ``make test``) runs the page's safe evaluator
(``gatherlab/browser/interpreter/evaluator.mjs``) on every case and wants the same
value, dtype and shape, or the same exception type and, for a gather-family call, the
same ``gatherlab.diagnose`` rule. ``tools/cases/generate.py`` writes the cases into
``tests/js/generated/`` (git-ignored) in each ``make test``, again whenever this file,
gatherlab, torch or TensorFlow changed.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf  # noqa: E402
import torch  # noqa: E402

from gatherlab.diagnose import diagnose  # noqa: E402

SEED = 22
TORCH_DTYPES = {
    torch.int64: "int64",
    torch.int32: "int32",
    torch.float32: "float32",
    torch.float64: "float64",
    torch.bool: "bool",
}
TF_DTYPES = {
    tf.int64: "int64",
    tf.int32: "int32",
    tf.float32: "float32",
    tf.float64: "float64",
    tf.bool: "bool",
}
FAMILY = ("gather", "index_select", "take", "take_along_dim")


def encode(value: Any) -> Any:
    """[dtype, shape, flat data] for a tensor (inf and nan as the strings Python
    prints); {"py": repr} for anything else."""
    if isinstance(value, torch.Tensor):
        dtype, array = TORCH_DTYPES[value.dtype], value.numpy()
    elif isinstance(value, tf.Tensor):
        dtype, array = TF_DTYPES[value.dtype], value.numpy()
    else:
        return {"py": repr(value)}
    flat = [
        v if isinstance(v, (bool, int)) or np.isfinite(v) else repr(v)
        for v in array.reshape(-1).tolist()
    ]
    return [dtype, list(array.shape), flat]


class Generator:
    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.cases: list[dict[str, Any]] = []

    def int(self, low: int, high: int) -> int:
        """A whole number in low..high, both ends included."""
        return int(self.rng.integers(low, high + 1))

    def pick(self, options: Any) -> Any:
        return options[self.int(0, len(options) - 1)]

    def shape(self, rank: int, low: int = 0, high: int = 3) -> tuple[int, ...]:
        # size-0 and size-1 axes are common on purpose
        return tuple(self.int(low, high) for _ in range(rank))

    def values(self, shape: tuple[int, ...], dtype: str = "int64") -> torch.Tensor:
        if dtype.startswith("float"):
            data = self.rng.integers(-20, 21, size=shape) / 4
            return torch.tensor(data, dtype=getattr(torch, dtype))
        if dtype == "bool":
            return torch.tensor(self.rng.random(shape) < 0.5)
        return torch.tensor(
            self.rng.integers(-9, 10, size=shape), dtype=getattr(torch, dtype)
        )

    def positions(
        self, size: int, shape: tuple[int, ...], wild: float = 0.15
    ) -> torch.Tensor:
        """Positions in 0..size-1, some negative or too large."""
        high = max(size, 1)
        data = self.rng.integers(0, high, size=shape)
        bad = self.rng.random(shape) < wild
        data = np.where(bad, self.rng.integers(-high - 1, high + 2, size=shape), data)
        return torch.tensor(data, dtype=torch.int64)

    def index_dtype(self, index: torch.Tensor) -> torch.Tensor:
        roll = self.rng.random()
        if roll < 0.08:
            return index.int()
        if roll < 0.12:
            return index.float()
        return index

    def add(self, expr: str, env: dict[str, Any], family: tuple | None = None) -> None:
        """Evaluate expr; record the value or the exception (and diagnose's rule)."""
        names = {"torch": torch, "tf": tf, **env}
        case: dict[str, Any] = {
            "expr": expr,
            "env": {k: encode(v) for k, v in env.items()},
        }
        if any(isinstance(v, tf.Tensor) for v in env.values()) or "tf." in expr:
            case["tf"] = True
        if "softmax" in expr or "weights=" in expr:  # exp and log (torch's kernels
            case["approx"] = True  # and JavaScript's Math), sums in another order

        try:
            value = eval(expr, {"__builtins__": __builtins__}, names)  # noqa: S307
        except Exception as error:  # every library error is a case to agree on
            case["error"] = type(error).__name__
            if family is not None:
                op, input_text, dim, index_text = family
                try:  # the call's arguments; building them may be what raised
                    input = eval(input_text, {}, names)  # noqa: S307
                    index = eval(index_text, {}, names)  # noqa: S307
                except Exception:  # noqa: BLE001
                    problems = []
                else:
                    problems = diagnose(input, dim, index, op)
                if problems:
                    case["rule"] = problems[0].rule
        else:
            case["value"] = encode(value)
        self.cases.append(case)

    def program(self, code: str, env: dict[str, Any], *, tf_too: bool = False) -> None:
        """Lines, then an expression (the last line): its value or the exception."""
        *lines, last = code.split("\n")
        names = {"torch": torch, **env}
        case: dict[str, Any] = {
            "expr": code,
            "env": {k: encode(v) for k, v in env.items()},
        }
        if tf_too:  # TensorFlow's module too, and the env's tensors are TensorFlow's
            names["tf"] = tf
            case["tf"] = True
        try:
            exec("\n".join(lines), names)  # noqa: S102
            case["value"] = encode(eval(last, names))  # noqa: S307
        except Exception as error:  # every library error is a case to agree on
            case["error"] = type(error).__name__
        self.cases.append(case)

    def memory(self) -> None:
        """Views share their tensor's memory: writes through them (in place, item
        assignment, the in-place methods) go to it, and torch's checks raise on a write
        into an expanded view's shared entries or from a partly overlapping input."""
        x = torch.arange(6)
        p = torch.tensor([2, 2, 1, 0, 1, 1])
        expanded = "f = p.reshape(-1, 1).expand(-1, 4)\n"
        for code in (
            "f += 1\nf",
            "f[3:] += 3\nf",
            "f[3:] = f[3:] + 3\nf",
            "f[3:, 0] += 3\ntorch.cat([f.flatten(), p])",
            "f[3:, 0] = 9\ntorch.cat([f.flatten(), p])",
            "f[0, 0] = 9\ntorch.cat([f.flatten(), p])",
            "f[0] = 9\nf",
            "f[:, :1] += 1\nf",
            "f[[0, 1]] = 5\ntorch.cat([f.flatten(), p])",
            "f[torch.tensor([0, 1])] += 5\nf",
            "f.scatter_(1, torch.zeros(6, 1, dtype=torch.long), f[:, :1])\nf",
            "f.index_add_(0, torch.tensor([0]), torch.ones(1, 4, dtype=torch.long))\nf",
            "g = f.long()\ng += 1\ng",
            "g = f.contiguous()\ng += 1\ntorch.cat([g.flatten(), p])",
            "g = f.clone()\ng[0, 0] = 9\ntorch.cat([g.flatten(), p])",
            "g = f.reshape(24)\ng += 1\ntorch.cat([g, p])",
            "g = f.view(24)\ng",
            "g = f.reshape(6, 2, 2)\ng += 1\ng",
            "g = f.reshape(6, 2, 2)[:, 0, 1]\ng += 1\ntorch.cat([g, p])",
            "g = f.T\ng[0] += 1\ntorch.cat([f.flatten(), p])",
            "g = f[:, 0]\ng += 1\ntorch.cat([f.flatten(), p])",
            "g = f.unsqueeze(0)\ng += 1\ng",
            "g = f.flatten()\ng += 1\ntorch.cat([g, p])",
            "g = f.expand(2, 6, 4)[0, :, 0]\ng += 1\ntorch.cat([g, p])",
            "g = f.detach()\ng[1, 1] = 7\np",
        ):
            self.program(expanded + code, {"p": p.clone()})
        for code in (
            "x[1:] += x[:-1]\nx",
            "x[1:] = x[:-1]\nx",
            "x[:3] += x[3:]\nx",
            "x[:3] = x[3:]\nx",
            "x += x\nx",
            "x[::2] += x[1::2]\nx",
            "x[1:] += x[:-1].clone()\nx",
            "x[1:] += x[:-1] * 1\nx",
            "x[1:4] += x[1:4]\nx",
            "y = x\ny += 1\nx",
            "y = x[1:]\ny += 1\nx",
            "y = x[1:3].contiguous()\ny += 1\nx",
            "y = x.view(2, 3)\ny[0] += 10\nx",
            "y = x.view(2, 3)\ny.T[1, 0] = 50\nx",
            "y = x.view(2, 3)\nz = y[:, 1]\ny[1, 1] = 40\nz",
            "y = x.view(2, 3)\nz = y.expand(2, 2, 3)\ny[0, 0] = 70\nz",
            "y = x.view(2, 3)\nfor row in y:\n    row += 1\nx",
            "y = x.view(2, 3)\ny[0] += y[1]\nx",
            "y = x.view(2, 3)\ny[:, 0] += y[:, 1]\nx",
            "y = x.view(2, 3)\ny[:, 1:] = y[:, :2].clone()\nx",
            "y = x.view(2, 3)\ny += y.T.reshape(2, 3)\nx",
            "y = x[:4].view(2, 2)\ny += y.T\ny",
            "y = x.view(2, 3).T\ny.view(-1)",
            "y = x.view(2, 3).T\nz = y.reshape(-1)\nz += 1\nx",
            "x[:2][0] = 9\nx",
            "x[[0, 1]][0] = 9\nx",
            "x.scatter_(0, torch.tensor([1, 2]), x[2:4])\nx",
            "x.index_add_(0, torch.tensor([1, 2]), x[:2])\nx",
            "x.index_add_(0, torch.tensor([0]), x[5:])\nx",
            "x[torch.tensor([1, 2])] = x[0:2]\nx",
            "x[torch.tensor([1, 2])] += x[0:2]\nx",
            "x += torch.ones(2, 6, dtype=torch.long)\nx",
            "x += 0.5\nx",
            "x[0] += 0.5\nx",
            "x /= 2\nx",
            "x //= 2\nx",
            "x += True\nx",
            "y = x.int()\ny += x\ny",
            "y = x.double()\ny += x.float()\ny",
            "y = x > 2\ny += 1\ny",
            "y = x.float()\ny -= y[[5, 4, 3, 2, 1, 0]]\ny",
        ):
            self.program(code, {"x": x.clone()})

    def diagonals_and_bitwise(self) -> None:
        """Tensor.diagonal (a view: writes through it reach the tensor), the bitwise
        operators on every dtype and their in-place forms `&=` and `|=`."""
        rank = self.int(0, 4)
        shape = self.shape(rank, 0, 4)
        x = self.values(shape, self.pick(["int64", "float32", "bool"]))
        offset = self.int(-3, 3)
        d1, d2 = self.int(-rank - 1, rank), self.int(-rank, rank)
        trailing = x.shape[self.int(0, rank) :]
        y = self.values(trailing, self.pick(["int64", "int32", "bool"]))
        op = self.pick(["&", "|"])
        self.add(
            self.pick(
                [
                    "x.diagonal()",
                    f"x.diagonal({offset})",
                    f"x.diagonal({offset}, {d1}, {d2})",
                    f"torch.diagonal(x, offset={offset}, dim1={d1}, dim2={d2})",
                    f"x.diagonal(dim1={d1}, dim2={d2})",
                    f"x {op} y",
                    f"x {op} {self.pick(['1', '6', 'True'])}",
                ]
            ),
            {"x": x, "y": y},
        )
        for code in (
            "d = x.diagonal()\nd += 100\nx",
            f"d = x.diagonal({offset}, {d1}, {d2})\nd[...] = 7\nx",
            f"y {op}= x\ny",
            f"z = x.clone()\nz {op}= y\nz",
            f"n = {self.int(0, 9)}\nn {op}= {self.int(0, 9)}\nn",
        ):
            self.program(code, {"x": x.clone(), "y": y.clone()})

    # ---- families of expressions

    def gather_family(self) -> None:
        rank = self.int(1, 4)
        shape = self.shape(rank)
        x = self.values(shape, self.pick(["int64", "int64", "float32", "float64"]))
        op = self.pick(FAMILY)
        dim = self.int(
            -rank - (1 if self.rng.random() < 0.1 else 0),
            rank - 1 + (1 if self.rng.random() < 0.1 else 0),
        )
        along = dim % rank if -rank <= dim < rank else 0
        if self.rng.random() < 0.06:  # a 0-d input: one value, which a 0-d rank allows
            self.scalar_input(op)
            return
        if op == "index_select":
            index_shape: tuple[int, ...] = (
                (self.int(0, 4),) if self.rng.random() < 0.9 else self.shape(2, 1, 2)
            )
        elif op == "take":
            index_shape = self.shape(self.int(0, 3), 0, 3)
        else:
            index_shape = tuple(
                self.int(0, 4)
                if d == along
                else self.int(
                    0 if self.rng.random() < 0.2 else 1,
                    max(s, 1) + (1 if self.rng.random() < 0.1 else 0),
                )
                for d, s in enumerate(shape)
            )
            if self.rng.random() < 0.08:
                index_shape = (
                    index_shape[1:] if len(index_shape) > 1 else (*index_shape, 1)
                )
        size = x.numel() if op == "take" else (shape[along] if shape else 1)
        if op == "take_along_dim":
            index_shape = tuple(
                1 if self.rng.random() < 0.2 and d != along else s
                for d, s in enumerate(index_shape)
            )
        index = self.index_dtype(self.positions(size, index_shape))
        env = {"x": x, "i": index}
        if op == "gather":
            text = self.pick(
                [
                    "torch.gather(x, {d}, i)",
                    "x.gather({d}, i)",
                    "torch.gather(x, dim={d}, index=i)",
                ]
            )
        elif op == "index_select":
            text = self.pick(
                ["torch.index_select(x, {d}, i)", "x.index_select({d}, i)"]
            )
        elif op == "take":
            text = self.pick(["torch.take(x, i)", "x.take(i)"])
        else:
            text = self.pick(
                [
                    "torch.take_along_dim(x, i, dim={d})",
                    "x.take_along_dim(i, {d})",
                    "torch.take_along_dim(x, i)",
                ]
            )
        expr = text.format(d=dim)
        flat = "{d}" not in text  # take, and take_along_dim without a dim
        self.add(expr, env, (op, "x", None if flat else dim, "i"))

    def scalar_input(self, op: str) -> None:
        """A 0-d input: dims -1 and 0 name its one value; index_select wants exactly
        one position."""
        x = self.values((), self.pick(["int64", "float32"]))
        dim = self.int(-2, 1)
        index = self.positions(1, self.shape(self.int(0, 1), 0, 3), 0.2)
        text = {
            "gather": f"torch.gather(x, {dim}, i)",
            "index_select": f"torch.index_select(x, {dim}, i)",
            "take": "torch.take(x, i)",
            "take_along_dim": f"torch.take_along_dim(x, i, dim={dim})",
        }[op]
        self.add(
            text, {"x": x, "i": index}, (op, "x", None if op == "take" else dim, "i")
        )

    def built_index(self) -> None:
        """The chapters' index recipes: unsqueeze/expand, view, repeat, offsets."""
        batch, time, width = self.shape(3, 1, 3)
        x = self.values((batch, time, width), self.pick(["int64", "float32"]))
        picks = self.int(1, 4)
        p = self.positions(time, (batch, picks), 0.1)
        env = {"x": x, "p": p}
        # (expression, the gather-family call's op, dim and index expression)
        exprs = [
            (
                "torch.gather(x, 1, p.unsqueeze(-1).expand(-1, -1, x.shape[-1]))",
                "gather",
                1,
                "p.unsqueeze(-1).expand(-1, -1, x.shape[-1])",
            ),
            (
                "torch.gather(x, 1, p.unsqueeze(-1).expand(-1, -1, {w}))",
                "gather",
                1,
                "p.unsqueeze(-1).expand(-1, -1, {w})",
            ),
            (
                "torch.gather(x, 1, p.unsqueeze(1).expand(-1, -1, x.shape[2]))",
                "gather",
                1,
                "p.unsqueeze(1).expand(-1, -1, x.shape[2])",
            ),
            (
                "torch.gather(x, 1, p[:, :, None].expand({b}, {k}, {w}))",
                "gather",
                1,
                "p[:, :, None].expand({b}, {k}, {w})",
            ),
            (
                "torch.gather(x, 1, p.view({b}, {k}, 1).expand(-1, -1, {w}))",
                "gather",
                1,
                "p.view({b}, {k}, 1).expand(-1, -1, {w})",
            ),
            (
                "torch.gather(x, 1, p.unsqueeze(-1).repeat(1, 1, {w}))",
                "gather",
                1,
                "p.unsqueeze(-1).repeat(1, 1, {w})",
            ),
            ("x[torch.arange({b})[:, None], p]", None, None, None),
            ("x[torch.arange(x.shape[0]).unsqueeze(1), p]", None, None, None),
            ("x[torch.arange({b}), p[:, 0]]", None, None, None),
            (
                "x.reshape(-1, {w})[(p + torch.arange({b})[:, None] * {t}).flatten()]",
                None,
                None,
                None,
            ),
            (
                "torch.index_select(x.flatten(0, 1), 0, (p + {t} * torch.arange({b}).unsqueeze(1)).reshape(-1))",  # noqa: E501
                "index_select",
                0,
                "(p + {t} * torch.arange({b}).unsqueeze(1)).reshape(-1)",
            ),
            ("torch.take(x, p * {w})", "take", None, "p * {w}"),
            (
                "torch.take_along_dim(x, p.unsqueeze(-1), dim=1)",
                "take_along_dim",
                1,
                "p.unsqueeze(-1)",
            ),
            ("torch.gather(x, 1, p)", "gather", 1, "p"),
            (
                "torch.gather(x, 2, p.unsqueeze(1).expand(-1, {t}, -1))",
                "gather",
                2,
                "p.unsqueeze(1).expand(-1, {t}, -1)",
            ),
            ("p.unsqueeze(-1).expand(-1, -1, {w}).shape", None, None, None),
            ("p.repeat_interleave({w}, dim=1)", None, None, None),
            ("p.repeat_interleave({w})", None, None, None),
            ("(p - 1).view(-1, 1, 1)", None, None, None),
            ("p.flatten()", None, None, None),
            ("torch.stack([p, p + 1], dim=-1)", None, None, None),
            ("torch.cat([p, p], dim=1)", None, None, None),
            (
                "torch.gather(x, 1, (p - 1).view(-1, 1, 1).expand(-1, 1, x.shape[-1])).squeeze(1)",  # noqa: E501
                "gather",
                1,
                "(p - 1).view(-1, 1, 1).expand(-1, 1, x.shape[-1])",
            ),
            ("torch.gather(x.sum(-1), 1, p)", "gather", 1, "p"),
            ("x.size(1)", None, None, None),
            ("x.size()", None, None, None),
            ("x.shape[-1]", None, None, None),
        ]
        text, op, dim, index_text = self.pick(exprs)
        fill = {"b": batch, "t": time, "w": width, "k": picks}
        family = None
        if op is not None:
            source = {"x.flatten(0, 1)": "x.flatten(0, 1)", "x.sum(-1)": "x.sum(-1)"}
            input_text = next((v for k, v in source.items() if k in text), "x")
            family = (op, input_text, dim, index_text.format(**fill))
        self.add(text.format(**fill), env, family)

    def shape_op(self) -> None:
        rank = self.int(0, 4)
        shape = self.shape(rank)
        x = self.values(shape, self.pick(["int64", "float32", "bool", "int32"]))
        n = x.numel()
        d = self.int(-rank - 1, rank)
        sizes = [
            self.pick([-1, 1, 2, 3, 0])
            for _ in range(self.int(max(rank - 1, 0), rank + 1))
        ]
        sizes_text = ", ".join(map(str, sizes))
        exprs = [
            f"x.unsqueeze({d})",
            f"torch.unsqueeze(x, {d})",
            f"x.expand({sizes_text})",
            f"x.expand(({sizes_text}{',' if len(sizes) == 1 else ''}))",
            f"x.expand([{sizes_text}])",
            f"x.reshape({sizes_text})" if sizes else "x.reshape(())",
            f"x.reshape(-1, {self.pick([1, 2, 3])})",
            f"x.view({n})",
            "x.view(-1)",
            f"x.repeat({sizes_text.replace('-1', '2')})" if sizes else "x.repeat(())",
            f"x.repeat_interleave({self.int(0, 3)}, dim={d})",
            "x.flatten()",
            f"x.flatten({self.int(-rank, max(rank - 1, 0))})",
            f"x.flatten(0, {d})",
            f"x.squeeze({d})",
            "x.squeeze()",
            f"x.permute({', '.join(str(k) for k in self.rng.permutation(rank))})"
            if rank
            else "x.permute()",
            f"x.transpose(0, {d})",
            f"torch.stack([x, x], {d})",
            f"torch.stack([x, x.long()], dim={d})",
            f"torch.cat([x, x], {d})",
            f"torch.cat([x, x[:1]], {d})",
            "x.long()",
            "x.int()",
            "x.float()",
            "x.shape",
            "x.dim()",
            "x.numel()",
            f"x.size({d})",
            "x.t()",
        ]
        self.add(self.pick(exprs), {"x": x})

    def indexing(self) -> None:
        rank = self.int(1, 4)
        shape = self.shape(rank, 0, 4)
        x = self.values(shape, self.pick(["int64", "float32"]))
        size = shape[0]

        def one() -> str:
            roll = self.rng.random()
            if roll < 0.3:
                return str(self.int(-size - 1, size))
            if roll < 0.55:
                start = self.pick(["", str(self.int(-3, 3))])
                stop = self.pick(["", str(self.int(-3, 4))])
                step = self.pick(["", "", ":2", ":1", ":0"])
                return f"{start}:{stop}{step}"
            if roll < 0.65:
                return "None"
            if roll < 0.72:
                return "..."
            if roll < 0.9:
                return "i"
            return "m"

        parts = [one() for _ in range(self.int(1, min(rank + 1, 4)))]
        i = self.positions(max(shape), self.shape(self.int(0, 2), 1, 3), 0.1)
        m = torch.tensor(self.rng.random(shape[: self.int(1, rank)]) < 0.5)
        self.add(f"x[{', '.join(parts)}]", {"x": x, "i": i, "m": m})

    def arithmetic(self) -> None:
        rank = self.int(0, 3)
        shape = self.shape(rank, 0, 3)
        dtypes = ["int64", "int64", "float32", "float64", "int32", "bool"]
        x = self.values(shape, self.pick(dtypes))
        other = (
            shape[self.int(0, rank - 1) :]
            if rank and self.rng.random() < 0.7
            else self.shape(self.int(0, 2), 1, 3)
        )
        y = self.values(tuple(other), self.pick(dtypes))
        k = self.pick(["2", "3", "-1", "0.5", "1.5", "True", "y"])
        op = self.pick(["+", "-", "*", "//", "%", "/", "<", ">=", "==", "!="])
        exprs = [
            f"x {op} {k}",
            f"{k} {op} x",
            f"x {op} y",
            "(x > 0) & (y < 2)",
            "(x > 0) | (x < -3)",
            "~(x > 0)",
            "-x",
            "x.round()",
            "x.round().long()",
            "(x * 2.5).long()",
            "x.float() / 4",
            "torch.where(x > 0, x, y)",
            "torch.where(x < 0, x + 3, x)",
            "(x // 2) * 2 + x % 2",
            "x.sum()",
            f"x.sum({self.int(-1, max(rank - 1, 0))})",
            "x.max()",
            "x.min()",
            "(x > 0).any()",
            "(x > 0).all()",
        ]
        expr = self.pick(exprs)
        if ("//" in expr or "%" in expr) and not str(x.dtype).startswith("torch.float"):
            divisor = y if "y" in expr.split(op)[-1] else None
            if divisor is not None and (divisor == 0).any():
                y = torch.where(y == 0, torch.ones_like(y), y)
            if "x" in expr.split(op)[-1] and (x == 0).any():
                x = torch.where(x == 0, torch.ones_like(x), x)
        self.add(expr, {"x": x, "y": y})

    def constructors(self) -> None:
        n = self.int(0, 5)
        exprs = [
            f"torch.arange({n})",
            f"torch.arange({self.int(-2, 2)}, {n})",
            f"torch.arange(0, {n}, {self.int(1, 3)})",
            f"torch.arange({n}) // {self.int(1, 3)}",
            f"torch.arange({n})[:, None] * {self.int(1, 4)}",
            f"torch.tensor({self.rng.integers(-3, 4, size=self.shape(self.int(1, 2), 1, 3)).tolist()})",  # noqa: E501
            f"torch.tensor({(self.rng.integers(-8, 9, size=(self.int(1, 3),)) / 4).tolist()})",  # noqa: E501
            f"torch.tensor({self.rng.integers(0, 3, size=(self.int(1, 3),)).tolist()}, dtype=torch.int32)",  # noqa: E501
            "torch.tensor([[1, 2], [3]])",
            f"torch.zeros({n}, dtype=torch.long)",
            f"torch.zeros(2, {n})",
            f"torch.ones(({n}, 2), dtype=torch.int64)",
            "torch.empty(0).shape",
            f"torch.full((2, {n}), 7)",
            f"torch.tensor({n})",
            "torch.tensor(2.5)",
        ]
        self.add(self.pick(exprs), {})

    def writes(self) -> None:
        """Chapter 6's writes: scatter_, scatter_add_, scatter_reduce_, index_add_ (in
        place: the cat shows x afterwards), their copies, and argsort, clamp,
        bincount."""
        rank = self.int(1, 3)
        shape = self.shape(rank, 1, 3)
        dtype = self.pick(["int64", "int64", "float32", "float64", "int32"])
        x = self.values(shape, dtype)
        dim = (
            self.int(-rank - 1, rank)
            if self.rng.random() < 0.1
            else self.int(-rank, rank - 1)
        )
        along = dim % rank
        index_shape = [
            self.int(0, 4) if d == along else self.int(1, shape[d]) for d in range(rank)
        ]
        if self.rng.random() < 0.1:  # index larger than input off dim, or a rank off
            index_shape = list(
                self.shape(self.pick([rank, rank + 1, max(rank - 1, 1)]), 1, 4)
            )
        i = self.index_dtype(self.positions(shape[along], tuple(index_shape), 0.1))
        src_shape = [
            size + (self.int(0, 1) if self.rng.random() < 0.3 else 0)
            for size in index_shape
        ]
        if self.rng.random() < 0.05:
            src_shape[0] = max(src_shape[0] - 1, 0)
        other = self.pick([dtype] * 6 + ["int64", "float32"])
        s = self.values(tuple(src_shape), other)
        picks = self.int(0, 4)
        j = self.positions(shape[along], (picks,), 0.1)
        if self.rng.random() < 0.1:
            j = self.index_dtype(
                self.positions(shape[along], self.shape(self.int(0, 2), 1, 3), 0.1)
            )
        v_shape = [picks if d == along else size for d, size in enumerate(shape)]
        if self.rng.random() < 0.1:
            v_shape[self.int(0, rank - 1)] += 1
        v = self.values(tuple(v_shape), self.pick([dtype] * 6 + ["int64", "float32"]))
        k = self.pick(["1", "-2", "2.5", "True", "0"])
        bound = self.pick(["0", "1", "-3", "1.5", "-0.25"])
        reduce = self.pick(["sum", "prod", "mean", "amax", "amin"])
        exprs = [
            f"x.scatter_reduce({dim}, i, s, {reduce!r})",
            f"x.scatter_reduce({dim}, i, s, {reduce!r}, include_self=False)",
            f"torch.cat([x.scatter_reduce_({dim}, i, s, {reduce!r}), x])",
            f"torch.scatter_reduce(x, {dim}, i, s, {reduce!r}, include_self=False)",
            f"x.scatter({dim}, i, s)",
            f"x.scatter({dim}, i, {k})",
            f"torch.cat([x.scatter_({dim}, i, s), x])",
            f"torch.cat([x.scatter_({dim}, i, {k}), x])",
            f"torch.scatter(x, {dim}, i, s)",
            f"x.scatter_add({dim}, i, s)",
            f"torch.cat([x.scatter_add_({dim}, i, s), x])",
            f"torch.scatter_add(x, {dim}, i, s)",
            f"x.scatter_add({dim}, i, {k})",
            f"x.index_add({dim}, j, v)",
            f"torch.cat([x.index_add_({dim}, j, v), x])",
            f"torch.index_add(x, {dim}, j, v)",
            "torch.zeros(x.shape[0], dtype=x.dtype).index_add_(0, j, v)"
            if rank == 1
            else "torch.zeros_like(x).index_add_(0, j, v)",
            "x.index_add(0, j, v) / torch.ones_like(x).index_add(0, j, torch.ones_like(v)).clamp(min=1)",  # noqa: E501
            f"torch.zeros({shape[0]}, {self.int(1, 4)}, dtype=torch.int64).scatter_(1, j.unsqueeze(1), 1)",  # noqa: E501
            "x.argsort()",
            f"x.argsort({dim})",
            f"x.argsort(dim={dim}, descending=True)",
            "torch.argsort(x)",
            "x.flatten().argsort(stable=True)",
            f"x.clamp(min={bound})",
            f"x.clamp(max={bound})",
            f"(x > 0).clamp(min={bound})",
            f"torch.clamp(x, {bound}, {k})",
            "x.clamp()",
            "torch.bincount(j)",
            "torch.bincount(j, weights=v.flatten()[: j.numel()])",
            "j.bincount(weights=j.double(), minlength=3)",
            "torch.bincount(j, v.flatten()[: j.numel()].float())",
            f"torch.bincount(j, minlength={self.int(0, 5)})",
            "i.flatten().bincount()",
            "torch.bincount(x)",
            "torch.ones_like(x, dtype=torch.float32) / 3",
            "torch.zeros_like(i) + x.shape[0]",
        ]
        self.add(self.pick(exprs), {"x": x, "i": i, "s": s, "j": j, "v": v})

    def scores(self) -> None:
        """Chapter 5's ops on scores: log_softmax and softmax (methods, torch.* and
        torch.nn.functional), diag, one_hot and .data (the page runs no autograd)."""
        rank = self.int(0, 3)
        x = self.values(self.shape(rank), self.pick(["float32", "float64", "int64"]))
        d = self.int(-rank - 1, rank)
        i = self.positions(4, self.shape(self.int(0, 2), 0, 3))
        exprs = [
            f"x.log_softmax({d})",
            f"x.log_softmax(dim={d})",
            f"x.softmax({d})",
            f"torch.log_softmax(x, {d})",
            f"torch.nn.functional.log_softmax(x, dim={d})",
            f"torch.nn.functional.softmax(x, {d})",
            "x.diag()",
            "torch.diag(x)",
            "x.data",
            "x.data * 2",
            "torch.nn.functional.one_hot(i)",
            f"torch.nn.functional.one_hot(i, {self.int(0, 5)})",
            "torch.nn.functional.one_hot(i, num_classes=-1)",
            "torch.nn.functional.one_hot(i.int(), 4)",
        ]
        self.add(self.pick(exprs), {"x": x, "i": i})

    def tensorflow(self) -> None:
        rank = self.int(1, 3)
        shape = self.shape(rank, 1, 3)
        dtype = self.pick(["int32", "float32", "int64"])
        x = tf.constant(self.values(shape, dtype).numpy())
        axis = self.int(-rank, rank - 1)
        along = axis % rank
        batch = self.int(0, along)
        roll = self.rng.random()
        if roll < 0.45:
            index_shape = (*shape[:batch], *self.shape(self.int(0, 2), 0, 3))
            i = tf.constant(
                self.positions(shape[along], index_shape)
                .numpy()
                .astype(self.pick(["int32", "int64"]))
            )
            expr = self.pick(
                [
                    f"tf.gather(x, i, axis={axis}, batch_dims={batch})",
                    f"tf.gather(x, i, axis={axis})",
                    "tf.gather(x, i)",
                    f"tf.gather(x, i, batch_dims={batch})",
                ]
            )
        elif roll < 0.75:
            depth = self.int(1, rank)
            outer = self.shape(self.int(0, 2), 0, 3)
            coords = np.stack(
                [self.positions(shape[d], outer, 0.1).numpy() for d in range(depth)],
                axis=-1,
            )
            i = tf.constant(coords.astype(self.pick(["int32", "int64"])))
            expr = "tf.gather_nd(x, i)"
        else:
            i = tf.constant(self.positions(3, shape, 0.0).numpy().astype("int32"))
            expr = self.pick(
                [
                    f"tf.stack([x, x], axis={self.int(-rank - 1, rank)})",
                    "tf.stack([i, i], axis=-1)",
                    f"tf.range({self.int(0, 4)})",
                    "tf.shape(x)",
                    "tf.shape(i, out_type=tf.int64)",
                    f"tf.broadcast_to(tf.range({shape[0]})[:, None], tf.shape(i))"
                    if rank > 1
                    else "tf.range(3)",
                    "tf.stack([tf.broadcast_to(tf.range(tf.shape(i)[0])[:, None], tf.shape(i)), i], axis=-1)"  # noqa: E501
                    if rank == 2
                    else "tf.shape(i)",
                    "tf.gather_nd(x, tf.stack([tf.broadcast_to(tf.range(tf.shape(i)[0])[:, None], tf.shape(i)), i], axis=-1))"  # noqa: E501
                    if rank == 2 and dtype == "int32"
                    else "tf.gather(x, i, axis=-1, batch_dims=-1)",
                    f"tf.concat([x, x], axis={axis})",
                    "tf.reshape(x, [-1])",
                    f"tf.expand_dims(x, {axis})",
                ]
            )
        self.add(expr, {"x": x, "i": i})


def build() -> dict[str, Any]:
    gen = Generator(SEED)
    plan = [
        (gen.gather_family, 2200),
        (gen.built_index, 700),
        (gen.shape_op, 1000),
        (gen.indexing, 900),
        (gen.arithmetic, 900),
        (gen.constructors, 250),
        (gen.tensorflow, 650),
        (gen.writes, 900),
        (gen.scores, 300),
    ]
    for make, count in plan:
        for _ in range(count):
            make()
    gen.memory()
    for _ in range(120):  # after the plan, so its cases stay as they were
        gen.diagonals_and_bitwise()
    # a range as an index (torch reads it as the list of its ints)
    x = torch.arange(12).reshape(3, 4)
    for expr in ("x[range(2)]", "x[range(3), range(3)]", "x[range(1, 3), 0]"):
        gen.add(expr, {"x": x})
    # the builtin slice(), what `start:stop:step` builds; torch.eye and floor_divide
    for expr in (
        "x[slice(2)]",
        "x[slice(1, None)]",
        "x[:, slice(0, 4, 2)]",
        "x[slice(None, None, 2), slice(-2, None)]",
        "torch.eye(3)",
        "torch.eye(2, 3, dtype=torch.int64)",
        "torch.eye(x.shape[0]).long()",
        "torch.floor_divide(x, 3)",
        "torch.floor_divide(x - 5, 3)",
        "torch.floor_divide(x.float() - 5.5, 2)",
        # index_put_: an assignment, or with accumulate=True every value added
        "x.index_put((torch.tensor([0, 2]),), torch.tensor(9))",
        "x.clone().index_put_((torch.tensor([2, 0, 2]),), torch.ones(3, 4).long())",
        "x.index_put((torch.tensor([2, 0, 2]),), torch.ones(3, 4).long(), accumulate=True)",  # noqa: E501
        "x.index_put((torch.tensor([1, 1]), torch.tensor([0, 3])), torch.tensor([5, 6]))",  # noqa: E501
        "x.index_put((torch.tensor([1, 1]), torch.tensor([3, 3])), torch.tensor([5, 6]), accumulate=True)",  # noqa: E501
        "x.index_put((torch.tensor([0]),), torch.tensor(1.5))",
    ):
        gen.add(expr, {"x": x})
    # arguments in another order than the signature's (the first of the wrong type is
    # the one torch names), a 0-d source, a src of fewer dims than index, another
    # library's keyword, and TensorFlow indices of a dtype its op refuses
    f, i, j = torch.zeros(3, 4), torch.tensor([[1], [2], [0]]), torch.tensor([0, 1, 1])
    for expr in (
        "f.scatter_add(torch.ones(3, 1), i, 1)",
        "torch.scatter_add(f, torch.ones(3, 1), i, 1)",
        "f.scatter_(i, 1, torch.ones(3, 1))",
        "torch.scatter(f, torch.ones(3, 1), i, 1)",
        "f.scatter_reduce(1, i, torch.ones(3, 1), 5)",
        "f.scatter_reduce(1, i.float(), torch.ones(3, 1), 'sum')",
        "f.scatter_reduce(1, i, torch.ones(3), 'amax')",
        "f.scatter_reduce(1, i, torch.tensor(1.0), 'sum')",
        "f.scatter_reduce(1, i * 3, torch.ones(3, 1), 'sum')",
        "f.repeat(-1, 3)",
        # a write through tensor positions checks the values before the positions
        "f[:1].clone().index_put_((torch.tensor([0, 1, 2, 1]),), torch.ones(4))",
        "f[:1].index_put((torch.tensor([0, 1]),), torch.ones(4), accumulate=True)",
        "f[:1].index_put((torch.tensor([0, 1]),), torch.ones(4, dtype=torch.int64))",
        "f[:1].index_put((torch.tensor([0, 1]),), torch.ones(2, 4, dtype=torch.int64))",
        "f.scatter(0, i, torch.ones(3, 1), dim_size=3)",
        "f[:1].index_put((j,), torch.ones(4, dtype=torch.int64), accumulate=True)",
        "f.expand(-1, -1, 5)",
        "tf.zeros((2, 2), dtype=torch.float32)",
        # a Python float beside an integer TensorFlow tensor
        "tf.constant([1, 2]) * 1.5",
        "2.0 - tf.constant([1, 2])",
        "tf.constant([1, 2]) + 0.5",
        "tf.constant([1, 2]) / 1.5",
        "tf.constant([1, 2]) + tf.constant([1.0, 2.0])",
        "tf.constant([1.0, 2.0]) * 2",
        "f.masked_fill(f > 0, 1.0, foo=2)",
        "f.repeat(0, -1)",
        # a 0-d index or src is one entry to torch's writes
        "f[0].scatter(0, j[1], 5.0)",
        "f[0].clone().scatter_add_(0, j[2], torch.tensor(2.0))",
        "f[0].scatter(0, j[:2], torch.tensor(2.0))",
        "f.scatter(1, j[1], 5.0)",
        "torch.zeros(()).scatter(0, torch.tensor(0), 3.0)",
        "torch.zeros(()).scatter_add(0, torch.tensor([0]), torch.ones(1))",
        "f[0].scatter_reduce(0, j[1], torch.tensor(4.0), 'amax')",
        "f.scatter_add(1, i, torch.ones(3))",
        "f.scatter_(0, i, torch.ones(3))",
        "f.scatter_(1, i, torch.tensor(1.0))",
        "f.index_add_(j, 0, torch.ones(3, 4))",
        "f.index_add(0, torch.ones(3, 4), j)",
        "f.index_add_(0, j, 1.0)",
        "f.index_add(0, [0, 1], torch.ones(2, 4))",
        "f.index_add_(0, j, torch.tensor(1.0))",
        "f.index_add(1, j, torch.tensor(1.0))",
        "f[0].index_add(0, torch.tensor([1]), torch.tensor(1.0))",
        "f.gather(i, 1)",
        "torch.gather(f, i, 1)",
        "f.index_select(j, 0)",
        "torch.index_select(f, j, 0)",
        "f.take_along_dim(1, i)",
        "f.take([0, 1])",
        "f.masked_fill(1.0, f > 0)",
        "f.masked_fill(f > 0, 'a')",
        "f.masked_fill(torch.ones(5), torch.tensor(1.0))",
        "f.masked_fill(torch.ones(4), torch.ones(4))",
        "f.masked_fill(torch.ones(4), torch.tensor(1.0))",
        "f.clone().masked_fill_(j[:, None], 2.0)",
        "f.index_put((j,), 1.0)",
        "f.scatter_add(0, i, torch.ones(3, 1), dim_size=3)",
        "tf.gather(tf.constant([1.0, 2.0]), tf.constant([0.0, 1.0]))",
        "tf.gather(tf.constant([[1.0, 2.0]]), tf.constant([[0.0]]), axis=1, batch_dims=1)",  # noqa: E501
        "tf.gather_nd(tf.constant([1.0, 2.0]), tf.constant([[1.0]]))",
        "tf.scatter_nd(tf.constant([[1.0]]), tf.constant([1.0]), [2])",
        "tf.tensor_scatter_nd_add(tf.zeros([2]), tf.constant([[1.0]]), tf.constant([1.0]))",  # noqa: E501
        "tf.gather(tf.constant([1.0, 2.0]), tf.constant([0, 1]), dim=0)",
        "tf.gather_nd(tf.constant([1.0, 2.0]), tf.constant([[1]]), axis=0)",
        "tf.tile(tf.constant([1.0, 2.0]), [2], axis=0)",
        "tf.tensor_scatter_nd_max(tf.zeros([2]), tf.constant([[1]]), tf.constant([1.0]), dim=0)",  # noqa: E501
        # put_ (flat positions, one source value each) and unique
        "f.clone().put_(torch.tensor([1, 5, -12]), torch.tensor([1.0, 2.0, 3.0]))",
        "f.put(torch.tensor([1, 1]), torch.tensor([1.0, 2.0]), accumulate=True)",
        "torch.put(f, torch.tensor([[0], [11]]), torch.tensor([[4.0, 5.0]]))",
        "f.clone().put_(torch.tensor([1, 5, 9]), torch.tensor([1.0]))",
        "f.clone().put_(j.float(), torch.ones(3))",
        "f.clone().put_(j, torch.ones(3, dtype=torch.int64))",
        "f.clone().put_(torch.tensor([12]), torch.ones(1))",
        "f.clone().put_(torch.tensor([-13]), torch.ones(1))",
        "f.put([0], torch.ones(1))",
        "j.unique()",
        "torch.unique(i * 1.5)",
        "torch.tensor([3, 1, 3, 0]).unique(sorted=True)",
    ):
        gen.add(expr, {"f": f, "i": i, "j": j})
    statements(gen)  # after every case above, so theirs stay as they were
    return {
        "versions": {"torch": torch.__version__, "tensorflow": tf.__version__},
        "cases": gen.cases,
    }


# Programs with Python's statements (for, while, if/elif/else, def with helpers and
# nested defs, return, augmented assignment, starred unpacking, try/except,
# comprehensions, lambdas) and the everyday calls learners use that the page emulates.
STATEMENT_PROGRAMS = (
    # for, if/elif/else, return through a def, a helper beside it
    "def pick(row, k):\n    return row[k]\n"
    "def f(x, i):\n    out = torch.empty_like(i)\n"
    "    for r in range(i.shape[0]):\n        for c in range(i.shape[1]):\n"
    "            out[r, c] = pick(x[r], i[r, c])\n    return out\nf(x, i)",
    "def f(x):\n    total = 0\n    for v in x.flatten().tolist():\n"
    "        if v > 2:\n            total += v\n        elif v == 1:\n"
    "            total -= 100\n        else:\n            continue\n"
    "    return total\nf(x)",
    "def f(x):\n    def scale(t):\n        return t * 2\n    return scale(x) + 1\nf(x)",
    "n, *rest = x.shape\nn, rest",
    "*lead, last = x.shape\nlead, last",
    "a, *b, c = range(5)\na, b, c",
    "k = 40\nk >>= 2\nk <<= 3\nk ^= 5\nk |= 64\nk &= 127\nk //= 3\nk %= 7\nk **= 2\nk",
    "1 << 2, 1 << 40, -9 >> 1, 6 ^ 3, ~6",
    "n = 0\nwhile n < 3:\n    n += 1\nelse:\n    n *= 10\nn",
    "n = 0\nwhile True:\n    n += 1\n    if n == 4:\n        break\nn",
    "rows = [x[r] for r in range(x.shape[0]) if r != 1]\ntorch.stack(rows)",
    "[(a, b) for a in range(3) for b in range(a)]",
    "f = lambda t, k=1: t.sum(k)\ntorch.cat([f(x), f(x, 0)])",
    "sorted(x.flatten().tolist(), key=lambda v: -v)",
    "try:\n    x.gather(1, i + 10)\nexcept RuntimeError:\n    out = 'caught'\nout",
    "try:\n    out = [1, 2][x.shape[0] + 5]\n"
    "except LookupError as e:\n    out = str(e)\nout",
    "def f():\n    out = []\n    for k in range(3):\n        out.append(k * k)\n"
    "    return out\nf()",
    "def outer():\n    n = 0\n    def bump():\n        nonlocal n\n        n += 1\n"
    "    bump()\n    bump()\n    return n\nouter()",
    "def f(n):\n    return 1 if n < 2 else n * f(n - 1)\nf(6)",
    "def f(a, b=2, *rest, scale=1):\n    return (a + b + sum(rest)) * scale\n"
    "f(1), f(1, 3), f(1, 2, 3, 4), f(1, scale=10)",
    "def f():\n    v = t\n    t = 1\n    return v\nf()",
    "x[i, i] = i.int()\nx",
    "x[i, i] = torch.tensor(5, dtype=torch.int32)\nx",
    "x[x > 2] = torch.tensor(5, dtype=torch.int32)\nx",
    "x[0] = i[0].int()\nx",
    "x.index_put_((i[0], i[1]), i[0].int())",
    "x[i[0], i[1]] = i[0].float()\nx",
    "s = 'a\\tb' + r'\\d' + '''x\ny'''\ns",
    "m = (y := x.sum()) + y\nm",
)
EVERYDAY_CALLS = (
    "torch.empty_like(x).shape",
    "torch.empty_like(x, dtype=torch.float32).dtype",
    "torch.zeros_like(x)",
    "torch.ones_like(x, dtype=torch.float64)",
    "torch.full_like(x, 7)",
    "x.flip(0)",
    "x.flip(-1)",
    "x.flip(0, 1)",
    "torch.flip(x, [1])",
    "torch.flip(x, (0, 1))",
    "x.flip(2)",
    "x.flip([0, 0])",
    "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij')[0]",
    "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij')[1]",
    "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')[0]",
    "torch.meshgrid([torch.arange(2), torch.arange(3)], indexing='xy')[1]",
    "torch.stack(torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'), -1)",
    "x.new_zeros(2, 3)",
    "x.new_ones((2,))",
    "x.new_full((2,), 4)",
    "x.new_tensor([1, 2])",
    "x.argmax(1)",
    "x.argmax()",
    "x.argmin(0, keepdim=True)",
    "torch.argmax(x, dim=-1)",
    "x.argmax(2)",
    "x.add(1)",
    "x.add(i, alpha=2)",
    "x.sub(1)",
    "x.mul(i)",
    "x.eq(i)",
    "x.gt(2)",
    "x.le(i)",
    "torch.add(x, 1)",
    "x.div(2)",
    "x.div(2, rounding_mode='floor')",
    "torch.maximum(x, i)",
    "torch.minimum(x, i.float())",
    "x.masked_fill(x > 2, 0)",
    "x.masked_fill(x > 2, 1.5)",
    "x.float().masked_fill(x > 2, 9)",
    "x.clone().masked_fill_(x > 2, -1)",
    "x.clone().fill_(3)",
    "x.clone().zero_()",
    "x << 1",
    "x >> 1",
    "x ^ 3",
    "x ^ i",
    "(x > 2) ^ (i > 0)",
    "x.float() ^ 1",
)
TF_CALLS = (
    "tf.repeat(x, 2, axis=0)",
    "tf.repeat(x, [1, 0, 2], axis=1)",
    "tf.repeat(x, 2)",
    "tf.repeat(tf.range(3), tf.constant([2, 1, 0]))",
    "tf.meshgrid(tf.range(2), tf.range(3))[0]",
    "tf.meshgrid(tf.range(2), tf.range(3), indexing='ij')[1]",
    "tf.stack(tf.meshgrid(tf.range(2), tf.range(3), indexing='ij'), axis=-1)",
    "tf.ones_like(x)",
    "tf.zeros_like(x, dtype=tf.float32)",
    "tf.zeros([2, 3])",
    "tf.ones([2], dtype=tf.int32)",
    "tf.fill([2, 2], 5)",
    "tf.fill([2], 1.5)",
    "tf.gather_nd(y, [[[1], [0]], [[2], [2]]], batch_dims=1)",
    "tf.gather_nd(y, [[[1, 0]], [[2, 3]]], batch_dims=1)",
    "tf.gather_nd(y, tf.constant([[0, 3], [1, 2]]), batch_dims=1)",
    "tf.tensor_scatter_nd_update(x, [[0], [1]], [[9, 9, 9], [8, 8, 8]])",
    "tf.tensor_scatter_nd_update(x, [[0, 1], [1, 2]], [7, 6])",
    "tf.tensor_scatter_nd_add(x, [[0, 1], [0, 1]], [7, 6])",
    "tf.tensor_scatter_nd_sub(x, [[1]], [[1, 2, 3]])",
    "tf.tensor_scatter_nd_max(x, [[0, 0], [1, 1]], [5, -5])",
    "tf.tensor_scatter_nd_min(x, [[0, 0], [1, 1]], [5, -5])",
    "tf.tensor_scatter_nd_update(x, [[2]], [[9, 9, 9]])",
    "tf.tensor_scatter_nd_update(x, [[0]], [[9, 9]])",
    "tf.tensor_scatter_nd_update(x, [[0]], tf.constant([[9, 9, 9]], dtype=tf.int64))",
    "tf.scatter_nd([[1], [3], [1]], [5, 6, 7], [5])",
    "tf.scatter_nd(tf.constant([[0, 1]]), tf.constant([2.5]), [2, 2])",
)


def statements(gen: Generator) -> None:
    """STATEMENT_PROGRAMS and EVERYDAY_CALLS on small torch tensors, TF_CALLS on
    TensorFlow's; no random draw, so the cases before these stay as they were."""
    x = torch.tensor([[3, 1, 4], [1, 5, 9]])
    i = torch.tensor([[0, 1, 1], [1, 0, 1]])
    for code in STATEMENT_PROGRAMS:
        gen.program(code, {"x": x.clone(), "i": i.clone()})
    for expr in EVERYDAY_CALLS:
        gen.add(expr, {"x": x.clone(), "i": i.clone()})
    tx = tf.constant([[3, 1, 4], [1, 5, 9]], dtype=tf.int32)
    ty = tf.reshape(tf.range(24, dtype=tf.int32), [2, 3, 4])
    for expr in TF_CALLS:
        gen.program(expr, {"x": tx, "y": ty}, tf_too=True)


def dumped(data: dict[str, Any]) -> bytes:
    text = json.dumps(data, separators=(",", ":"), sort_keys=True, allow_nan=False)
    return gzip.compress(text.encode("utf-8"), mtime=0)


def write(path: Path) -> str:
    data = build()
    path.write_bytes(dumped(data))
    errors = sum("error" in c for c in data["cases"])
    return f"{len(data['cases'])} cases ({errors} raise)"
