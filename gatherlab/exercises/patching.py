"""Replace library functions while a learner's function runs: refuse or count them.

``forbidding`` enforces an exercise's "do not use torch.gather"; ``counting`` records
what each required function returned, so a dummy call whose result the answer never
uses does not count as using it (see ``used``).
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from gatherlab._arrays import framework_of, to_numpy
from gatherlab.tf import tensorflow_imported

_ABSENT = object()  # an attribute a class inherits rather than defines


class ForbiddenOpError(RuntimeError):
    """Raised in place of an op an exercise asks the learner not to use."""

    def __init__(self, name: str) -> None:
        super().__init__(f"this exercise asks you not to use {name}")
        self.name = name


def owner(name: str) -> tuple[Any, str]:
    """``("torch.Tensor.gather")`` -> (the ``torch.Tensor`` class, ``"gather"``)."""
    path, attribute = name.rsplit(".", 1)
    module, *rest = path.split(".")
    holder: Any = importlib.import_module(module)
    for part in rest:
        holder = getattr(holder, part)
    if not hasattr(holder, attribute):
        raise ValueError(f"cannot forbid or require {name}: there is no such function")
    return holder, attribute


def function(name: str) -> Any:
    """The function a dotted name stands for."""
    return getattr(*owner(name))


def _rerouting(routes: dict[Any, Callable[..., Any]]) -> Any:
    """A torch function mode that sends each listed torch function to its
    replacement, however the learner reached it: ``torch.gather``, a method, or a
    name of their own (``from torch import gather``, ``g = torch.gather``), which
    replacing the attribute alone would miss (a forbidden op would run, a required
    one go uncounted)."""
    from torch.overrides import TorchFunctionMode

    class Rerouting(TorchFunctionMode):
        def __torch_function__(
            self,
            func: Any,
            types: Any,
            args: tuple[Any, ...] = (),
            kwargs: dict[str, Any] | None = None,
        ) -> Any:
            # the mode is off while this runs: the replacement's own call of the
            # original goes on to the modes below it, then to torch
            return routes.get(func, func)(*args, **(kwargs or {}))

    return Rerouting()


def _torch_function(holder: Any) -> bool:
    """Whether a function on ``holder`` reaches torch's function modes (it lives in
    torch or on torch.Tensor), so a mode can reroute it under any name."""
    name = str(getattr(holder, "__module__", None) or getattr(holder, "__name__", ""))
    return name == "torch" or name.startswith("torch.")


@contextlib.contextmanager
def _patched(
    names: Iterable[str], replacement: Callable[[str, Any], Callable[..., Any]]
) -> Iterator[None]:
    """Replace each named function by ``replacement(name, original)``; restore after.

    Torch functions are rerouted by a torch function mode (so every name for them
    is caught), others by replacing the attribute. The originals come back however
    the block ends, so a learner's failing function never leaves ``torch.gather``
    broken in their notebook.
    """
    saved = []
    routes: dict[Any, Callable[..., Any]] = {}
    try:
        for name in names:
            holder, attribute = owner(name)
            if _torch_function(holder):
                original = getattr(holder, attribute)
                routes[original] = replacement(name, original)
                continue
            original = getattr(holder, attribute)
            saved.append((holder, attribute, vars(holder).get(attribute, _ABSENT)))
            setattr(holder, attribute, replacement(name, original))
        if routes:
            with _rerouting(routes):
                yield
        else:
            yield
    finally:
        for holder, attribute, original in reversed(saved):
            if original is _ABSENT:
                delattr(holder, attribute)
            else:
                setattr(holder, attribute, original)


def forbidding(names: Iterable[str]) -> contextlib.AbstractContextManager[None]:
    """Replace each named function by one raising ``ForbiddenOpError``."""

    def refusing(name: str, original: Any) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise ForbiddenOpError(name)

        return refuse

    return _patched(names, refusing)


def counting(
    names: Iterable[str], results: list[Any]
) -> contextlib.AbstractContextManager[None]:
    """Let each named function run as usual, keeping what it returns in ``results``."""

    def counted(name: str, original: Any) -> Callable[..., Any]:
        def count(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            results.append(result)
            return result

        return count

    return _patched(names, counted)


def used(results: list[Any], answer: Any) -> bool:
    """Whether the answer is built from one of the required calls' results: it shares
    their memory (a view, a squeeze) or holds exactly their values in order."""
    if framework_of(answer) is None:
        return False
    values = to_numpy(answer).reshape(-1)
    for result in results:
        if framework_of(result) is None:
            continue
        if _shares_memory(result, answer):
            return True
        flat = to_numpy(result).reshape(-1)
        if flat.shape == values.shape and bool((flat == values).all()):
            return True
    return False


def _shares_memory(result: Any, answer: Any) -> bool:
    """Two torch tensors on one real device, over the same (non-empty) storage."""
    if not framework_of(result) == framework_of(answer) == "torch":
        return False
    if result.device != answer.device or answer.device.type == "meta":
        return False
    pointer = answer.untyped_storage().data_ptr()
    return pointer != 0 and result.untyped_storage().data_ptr() == pointer


# The gather-family functions a learner's function may call, and where each one's
# input, dim and index sit (positionally, after self for the Tensor methods).
SPIED = {
    "gather": ("input", "dim", "index"),
    "take_along_dim": ("input", "indices", "dim"),
    "index_select": ("input", "dim", "index"),
    "take": ("input", "index"),
}
# The writing ops whose errors a learner's function may raise, recorded so that the
# error is worded by the rule it broke (gl.diagnose.scatter_problems); ``value`` is
# scatter's name for a Python number as src. Methods only where the op is in place.
SPIED_WRITES = {
    "scatter": ("input", "dim", "index", "src"),
    "scatter_add": ("input", "dim", "index", "src"),
}


# The other writing ops and the subscript, recorded only when they raise: their
# error is explained by the table of error rules (gatherlab.error_rules) with the
# call's op, dim and shapes, which name the argument that broke the rule (a 0-d
# source, a (row, column) pair the wrong way round). Where each argument sits, after
# self.
FAILING = {
    "index_add": ("dim", "index", "src"),
    "index_copy": ("dim", "index", "src"),
    "index_fill": ("dim", "index", "src"),
    "index_put": ("index", "src"),
    "put": ("index", "src"),
    "scatter_reduce": ("dim", "index", "src"),
    "masked_scatter": ("index", "src"),
    "masked_fill": ("index", "src"),
    "__getitem__": ("index",),
    "__setitem__": ("index", "src"),
}
# the keyword names torch gives those arguments
KEYWORDS = {"source": "src", "values": "src", "value": "src", "indices": "index"}


@dataclass
class SpiedCall:
    """One gather-family call a learner's function made, and what it returned."""

    op: str
    input: Any
    dim: Any
    index: Any
    output: Any = None  # as returned (a learner may change it in place later)
    returned: Any = None  # a copy of the output as it was returned
    src: Any = None  # a writing op's values (SPIED_WRITES)
    error: BaseException | None = None  # what a FAILING op raised

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """The shapes of the call's tensors, by the error table's names."""
        named = {"input": self.input, "index": self.index, "src": self.src}
        return {
            name: tuple(value.shape)
            for name, value in named.items()
            if framework_of(value) == "torch"
        }

    @property
    def writes(self) -> bool:
        """Whether the call is a writing op's (``scatter_``, ``scatter_add``...)."""
        return self.op.rstrip("_") in SPIED_WRITES


def _bound(op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> SpiedCall:
    names = SPIED.get(op) or SPIED_WRITES[op.rstrip("_")]
    values = dict(zip(names, args, strict=False))
    values.update({k: v for k, v in kwargs.items() if k in names})
    index = values.get("index", values.get("indices"))
    src = values.get("src", kwargs.get("value"))
    return SpiedCall(op, values.get("input"), values.get("dim"), index, src=src)


def _failed(op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> SpiedCall:
    """A FAILING op's call, its arguments by name (self first)."""
    source, *rest = args or (None,)
    names = FAILING[op] if op in FAILING else FAILING[op.rstrip("_")]
    values = dict(zip(names, rest, strict=False))
    for key, value in kwargs.items():
        values.setdefault(KEYWORDS.get(key, key), value)
    index = values.get("index")
    if op.startswith("index_put") and isinstance(index, tuple) and len(index) == 1:
        index = index[0]
    dim = values.get("dim")
    return SpiedCall(op, source, dim, index, src=values.get("src"))


def spying(calls: list[SpiedCall]) -> contextlib.AbstractContextManager[None]:
    """Let every gather-family function and writing op run as usual, recording each
    call in ``calls`` (so an error can be diagnosed, and a wrong value traced), and
    each call of a FAILING op that raises, with its error."""
    names = [f"{holder}.{op}" for op in SPIED for holder in ("torch", "torch.Tensor")]
    for op in SPIED_WRITES:
        names += [f"torch.{op}", f"torch.Tensor.{op}", f"torch.Tensor.{op}_"]
    for op in FAILING:
        names += (
            [f"torch.Tensor.{op}"]
            if op.startswith("__")
            else [f"torch.Tensor.{op}", f"torch.Tensor.{op}_"]
        )

    def spied(name: str, original: Any) -> Callable[..., Any]:
        op = name.rsplit(".", 1)[-1]
        if op.rstrip("_") in FAILING or op in FAILING:

            def failing(*args: Any, **kwargs: Any) -> Any:
                try:
                    return original(*args, **kwargs)
                except Exception as error:
                    call = _failed(op, args, kwargs)
                    call.error = error
                    calls.append(call)
                    raise

            return failing

        def spy(*args: Any, **kwargs: Any) -> Any:
            call = _bound(op, args, kwargs)
            calls.append(call)
            call.output = original(*args, **kwargs)
            if framework_of(call.output) == "torch":
                call.returned = call.output.detach().clone()
            return call.output

        return spy

    return _patched(names, spied)


# The divisions that give floats for integers (true division): `/` reaches
# torch.Tensor.div.
TRUE_DIVISIONS = (
    "torch.div",
    "torch.divide",
    "torch.true_divide",
    "torch.Tensor.div",
    "torch.Tensor.divide",
    "torch.Tensor.true_divide",
)


# The writing ops' out-of-place forms (``index_add``, ``scatter_reduce``, ...); the
# page's twin is exercises.mjs's OUT_OF_PLACE (tests/test_page_cases.py: equal).
OUT_OF_PLACE = tuple(op for op in (*FAILING, *SPIED_WRITES) if not op.startswith("__"))


def noting_out_of_place(found: set[str]) -> contextlib.AbstractContextManager[None]:
    """Let the writing ops' out-of-place forms (OUT_OF_PLACE) run as usual, noting
    each one called in ``found``: a write lost is then told apart, a dropped result
    from a write into a copy (implement._lost_where)."""
    holders = ("torch", "torch.Tensor")
    return noting_called(
        [f"{holder}.{op}" for op in OUT_OF_PLACE for holder in holders], found
    )


def noting_called(
    names: Iterable[str], found: set[str]
) -> contextlib.AbstractContextManager[None]:
    """Let the named functions run as usual, noting in ``found`` the name (its last
    part: ``scatter_reduce_``) of each one called."""

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def note(*args: Any, **kwargs: Any) -> Any:
            found.add(name.rsplit(".", 1)[-1])
            return original(*args, **kwargs)

        return note

    return _patched(list(names), noted)


# the in-place writes that return the tensor they write into (separating_in_place)
IN_PLACE_WRITES = (
    "index_add_",
    "scatter_",
    "scatter_add_",
    "scatter_reduce_",
    "index_put_",
    "index_copy_",
    "index_fill_",
    "masked_fill_",
    "put_",
    "index_reduce_",
)


def separating_in_place(found: list[str]) -> contextlib.AbstractContextManager[None]:
    """Run the in-place writes (``IN_PLACE_WRITES``) so that one into a tensor an
    earlier in-place write of the run already wrote into writes into a copy of that
    tensor as it was before, noting the op in ``found``: each result then gets a
    buffer of its own (implement._shared_in_place; exercises.mjs's SEPARATE)."""
    written: dict[int, tuple[Any, Any]] = {}

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def write(self: Any, *args: Any, **kwargs: Any) -> Any:
            before = written.get(id(self))
            if before is not None and before[0] is self:
                found.append(name.rsplit(".", 1)[-1])
                return original(before[1].clone(), *args, **kwargs)
            written[id(self)] = (self, self.detach().clone())
            return original(self, *args, **kwargs)

        return write

    return _patched([f"torch.Tensor.{op}" for op in IN_PLACE_WRITES], noted)


# torch's floor divisions and the words for each (dividing_truly)
FLOOR_DIVISIONS = {
    "torch.Tensor.__floordiv__": "`//`",
    "torch.Tensor.__rfloordiv__": "`//`",
    "torch.floor_divide": "torch.floor_divide",
    "torch.Tensor.floor_divide": "floor_divide",
    "torch.div": "rounding_mode='floor'",
    "torch.Tensor.div": "rounding_mode='floor'",
}


def dividing_truly(found: list[str]) -> contextlib.AbstractContextManager[None]:
    """Run torch's floor divisions (``//``, floor_divide, div with
    rounding_mode='floor') as true divisions, noting in ``found`` the words for
    each one so run (implement._floor_divided; exercises.mjs's TRUE_FLOORS)."""
    import torch

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def divide(*args: Any, **kwargs: Any) -> Any:
            if name.endswith(".div"):
                if kwargs.get("rounding_mode") != "floor":
                    return original(*args, **kwargs)
                kwargs = {k: v for k, v in kwargs.items() if k != "rounding_mode"}
            found.append(FLOOR_DIVISIONS[name])
            if name.endswith("__rfloordiv__"):
                return torch.true_divide(args[1], args[0])
            return torch.true_divide(*args[:2])

        return divide

    return _patched(list(FLOOR_DIVISIONS), noted)


def noting_index_grids(
    found: list[tuple[list[tuple[int, ...]], tuple[int, ...]]],
) -> contextlib.AbstractContextManager[None]:
    """Let ``Tensor.__setitem__`` run as usual, noting in ``found`` each subscript
    whose integer index tensors broadcast to a grid with more entries than any of
    them (``x[torch.arange(n), labels.unsqueeze(1)] = 1``): their shapes and the
    grid's (exercises.mjs's GRIDS alike)."""
    import torch

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def assign(self: Any, key: Any, value: Any) -> Any:
            parts = [
                part
                for part in (key if isinstance(key, tuple) else (key,))
                if isinstance(part, torch.Tensor)
                and not part.is_floating_point()
                and part.dtype != torch.bool
            ]
            if len(parts) > 1:
                with contextlib.suppress(RuntimeError):
                    grid = tuple(torch.broadcast_shapes(*(p.shape for p in parts)))
                    if int(np.prod(grid)) > max(p.numel() for p in parts):
                        found.append(([tuple(p.shape) for p in parts], grid))
            return original(self, key, value)

        return assign

    return _patched(["torch.Tensor.__setitem__"], noted)


def noting_divisions(found: list[str]) -> contextlib.AbstractContextManager[None]:
    """Let every division run as usual, noting in ``found`` each one that divides
    integers into floats: a float index two steps later is named by the step that
    made it (exercises.mjs notes the evaluator's the same way)."""
    import torch

    def whole(value: Any) -> bool:
        if isinstance(value, torch.Tensor):
            return not value.is_floating_point() and not value.is_complex()
        return isinstance(value, int)

    inside: list[str] = []  # the division running: `/` reaches torch.div in turn

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def divide(*args: Any, **kwargs: Any) -> Any:
            inside.append(name)
            try:
                out = original(*args, **kwargs)
            finally:
                inside.pop()
            if inside:
                return out
            operands = list(args[:2]) + [kwargs[k] for k in ("other",) if k in kwargs]
            if (
                kwargs.get("rounding_mode") is None
                and len(operands) == 2
                and all(whole(value) for value in operands)
                and isinstance(out, torch.Tensor)
                and out.is_floating_point()
            ):
                found.append(name)
            return out

        return divide

    return _patched(TRUE_DIVISIONS, noted)


# The ops whose index a repair makes int64, and whose src it gives the input's dtype:
# (position of the index, position of src or None), after self for the methods.
REPAIRED = {
    "gather": (2, None),
    "take_along_dim": (1, None),
    "index_select": (2, None),
    "scatter": (2, 3),
    "scatter_add": (2, 3),
    "scatter_reduce": (2, 3),
    "index_add": (2, 3),
}


def repairing() -> contextlib.AbstractContextManager[None]:
    """Run a learner's function with the two slips that stop it before its other
    steps repaired: a float index is made int64 (``.long()``), and a tensor of values
    written gets the input's dtype. What the function then returns shows the
    mistakes its later steps make (an answer built in several steps)."""
    import torch

    names = []
    for op in REPAIRED:
        names += [f"torch.{op}", f"torch.Tensor.{op}"]
        if op not in SPIED:  # a writing op: its in-place method too
            names.append(f"torch.Tensor.{op}_")

    def repaired(name: str, original: Any) -> Callable[..., Any]:
        at_index, at_src = REPAIRED[name.rsplit(".", 1)[-1].rstrip("_")]

        def repair(*args: Any, **kwargs: Any) -> Any:
            given = list(args)
            source = given[0] if given else None
            for at, make in ((at_index, "index"), (at_src, "src")):
                if at is None or at >= len(given):
                    continue
                value = given[at]
                if not isinstance(value, torch.Tensor):
                    continue
                if make == "index" and value.is_floating_point():
                    given[at] = value.long()
                elif make == "src" and isinstance(source, torch.Tensor):
                    given[at] = value.to(source.dtype)
            return original(*given, **kwargs)

        return repair

    return _patched(names, repaired)


def filling_empty(value: int) -> contextlib.AbstractContextManager[None]:
    """``torch.empty`` and its kin return tensors filled with ``value``, so a position
    a learner's function never writes is found by running it with two fills."""
    names = ["torch.empty", "torch.empty_like", "torch.Tensor.new_empty"]

    def filled(name: str, original: Any) -> Callable[..., Any]:
        def fill(*args: Any, **kwargs: Any) -> Any:
            return original(*args, **kwargs).fill_(value)

        return fill

    return _patched(names, filled)


# The calls that turn Python numbers into a tensor, with the position of their dtype:
# without one, Python floats become float32 (TensorFlow's default, and torch's default
# dtype) and TensorFlow makes Python ints int32, where NumPy makes float64 and int64.
# exercises.mjs notes the evaluator's the same way (FLOAT_DEFAULTS).
PYTHON_NUMBER_CONVERSIONS = {
    "torch.tensor": None,
    "tensorflow.constant": 1,
    "tensorflow.convert_to_tensor": 1,
}
# the dtype a conversion without one gives Python numbers -> what they are called
PYTHON_NUMBER_DEFAULTS = {"float32": "floats", "int32": "ints"}


def _python_numbers(value: Any) -> str | None:
    """``"floats"`` where ``value`` (a Python number or nested lists of them) holds a
    float, ``"ints"`` where it holds ints only, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return "floats"
    if isinstance(value, int):
        return "ints"
    if isinstance(value, (list, tuple)) and value:
        kinds = {_python_numbers(item) for item in value}
        if None in kinds:
            return None
        return "floats" if "floats" in kinds else "ints"
    return None


def noting_python_numbers(
    found: list[tuple[str, str]],
) -> contextlib.AbstractContextManager[None]:
    """Let every conversion of Python values into a tensor run as usual, noting in
    ``found`` each one given Python numbers and no dtype that made float32 of floats
    or int32 of ints, as (``tf.constant``, its dtype). TensorFlow's are noted only
    where it is imported already (the learner's function imported it on an earlier
    run)."""

    names = [
        name
        for name in PYTHON_NUMBER_CONVERSIONS
        if name.startswith("torch.") or tensorflow_imported()
    ]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        at = PYTHON_NUMBER_CONVERSIONS[name]
        shown = name.replace("tensorflow.", "tf.")

        def convert(*args: Any, **kwargs: Any) -> Any:
            out = original(*args, **kwargs)
            dtype = kwargs.get("dtype")
            if dtype is None and at is not None and len(args) > at:
                dtype = args[at]
            value = args[0] if args else kwargs.get("value", kwargs.get("data"))
            made = getattr(getattr(out, "dtype", None), "name", None)
            if not isinstance(made, str):  # torch's dtypes: torch.float32
                made = str(getattr(out, "dtype", "")).rsplit(".", 1)[-1]
            numbers = _python_numbers(value)
            defaults = PYTHON_NUMBER_DEFAULTS.get(made)
            if dtype is None and numbers is not None and defaults == numbers:
                found.append((shown, made))
            return out

        return convert

    return _patched(names, noted)


# The ops that make a default dtype unless given one (TensorFlow's float32, bincount's
# int32 counts, NumPy's float64), with the position of it (the page's evaluator has
# none of TensorFlow's or NumPy's)
DEFAULT_DTYPE_OPS: dict[str, int | None] = {
    "tensorflow.zeros": 1,
    "tensorflow.ones": 1,
    "tensorflow.one_hot": 5,
    "keras.ops.one_hot": 3,
    "tensorflow.math.bincount": 4,  # int32 counts; weights' dtype where given
    "torch.zeros": None,  # sizes as *args; dtype= by keyword only
    "torch.ones": None,
    "torch.empty": None,
    "torch.eye": None,  # torch.eye(n, m): dtype= by keyword only
    # NumPy's make float64 (noted where the learner's code calls them, not a library)
    "numpy.zeros": 1,
    "numpy.ones": 1,
    "numpy.empty": 1,
    "numpy.eye": 3,
    "numpy.identity": 1,
}
LIBRARIES = ("numpy", "torch", "tensorflow", "keras", "jax", "gatherlab")
# torch's ops among them, named by differ.dtype_default_torch (exercises.mjs alike)
TORCH_DEFAULT_DTYPE_OPS = ("torch.ones", "torch.empty", "torch.eye")


def noting_default_dtypes(
    found: list[tuple[str, str]],
) -> contextlib.AbstractContextManager[None]:
    """Let the ops that make float32 unless given a dtype (TensorFlow's, Keras's
    one_hot, torch.zeros) run as usual, noting in ``found`` each call without one, as
    (``tf.zeros``, its dtype). An op's library is patched only where it is imported
    (not None in ``sys.modules``: a blocked import leaves None, as tensorflow_imported
    reads it)."""
    import sys

    imported = [sys.modules.get(name.split(".")[0]) for name in DEFAULT_DTYPE_OPS]
    names = [n for n, module in zip(DEFAULT_DTYPE_OPS, imported, strict=True) if module]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        at = DEFAULT_DTYPE_OPS[name]

        def make(*args: Any, **kwargs: Any) -> Any:
            out = original(*args, **kwargs)
            # tf.one_hot takes its dtype from on_value / off_value where given
            valued = name == "tensorflow.one_hot" and (
                len(args) > 2
                or kwargs.get("on_value") is not None
                or kwargs.get("off_value") is not None
            )
            # tf.math.bincount returns its weights' dtype where given
            weighted = name == "tensorflow.math.bincount" and (
                len(args) > 1
                and args[1] is not None
                or kwargs.get("weights") is not None
            )
            if valued or weighted:
                return out
            if name.startswith("numpy."):  # a library's own calls are not the learner's
                caller = str(sys._getframe(1).f_globals.get("__name__", ""))
                if caller.split(".")[0] in LIBRARIES:
                    return out
            if kwargs.get("dtype") is None and (at is None or len(args) <= at):
                dtype = getattr(out, "dtype", None)
                made = getattr(dtype, "name", None) or str(dtype).removeprefix("torch.")
                if dtype is not None:
                    shown = name.replace("tensorflow.", "tf.").replace("numpy.", "np.")
                    found.append((shown, made))
            return out

        return make

    return _patched(names, noted)


# torch's tensor makers whose dtype= a learner gives (noting_given_dtypes)
GIVEN_DTYPE_OPS = ("torch.zeros", "torch.ones", "torch.empty")


def noting_given_dtypes(
    found: list[tuple[str, Any]],
) -> contextlib.AbstractContextManager[None]:
    """Let torch.zeros, torch.ones and torch.empty run as usual, noting in ``found``
    each call given a dtype, as (``torch.zeros``, the tensor it made): a write's
    buffer made with another dtype than the result's (exercises.mjs's
    FLOAT_DEFAULTS.given alike)."""

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def make(*args: Any, **kwargs: Any) -> Any:
            out = original(*args, **kwargs)
            if kwargs.get("dtype") is not None:
                found.append((name, out))
            return out

        return make

    return _patched(GIVEN_DTYPE_OPS, noted)


def _index_tensor(item: Any) -> bool:
    """An array or tensor of integer positions with at least one dim (not a scalar,
    not a mask)."""
    if framework_of(item) is None and not hasattr(item, "__array__"):
        return False
    try:
        values = to_numpy(item)
    except Exception:  # an object no array can be read from
        return False
    return values.ndim >= 1 and values.dtype.kind in "iu"


def noting_tf_subscripts(
    found: list[BaseException],
) -> contextlib.AbstractContextManager[None]:
    """Let a TensorFlow tensor's ``[]`` run as usual, noting in ``found`` each error
    it raises for a subscript holding a tensor of positions (NumPy-style advanced
    indexing, which TensorFlow's ``[]`` does not do). Nothing is patched where
    TensorFlow is not imported."""

    names = ["tensorflow.Tensor.__getitem__"] if tensorflow_imported() else []

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def getitem(tensor: Any, spec: Any) -> Any:
            try:
                return original(tensor, spec)
            except Exception as error:
                items = spec if isinstance(spec, tuple) else (spec,)
                if any(_index_tensor(item) for item in items):
                    found.append(error)
                raise

        return getitem

    return _patched(names, noted)


def noting_tf_gathers(found: list[str]) -> contextlib.AbstractContextManager[None]:
    """Let ``tf.gather`` run as usual, noting in ``found`` each call ("tf.gather"): a
    torch exercise answered with TensorFlow's read, whose words must be that op's.
    A tf.gather that Keras's own reads make (keras.ops.take on TensorFlow's backend)
    is not the learner's and is not noted. Nothing is patched where TensorFlow is
    not imported."""
    import sys

    names = ["tensorflow.gather"] if "tensorflow" in sys.modules else []
    if names and sys.modules.get("keras") is not None:
        names += ["keras.ops.take", "keras.ops.take_along_axis"]
    inside = [0]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        def gather(*args: Any, **kwargs: Any) -> Any:
            if name.startswith("keras."):
                inside[0] += 1
                try:
                    return original(*args, **kwargs)
                finally:
                    inside[0] -= 1
            if inside[0] == 0:
                found.append("tf.gather")
            return original(*args, **kwargs)

        return gather

    return _patched(names, noted)


def meshgrids_as_ij(
    found: list[tuple[str, str]],
) -> contextlib.AbstractContextManager[None]:
    """Run every meshgrid in "xy" mode (TensorFlow's and NumPy's default, torch's when
    asked) in "ij" mode instead, noting each as (``tf.meshgrid``, how it got "xy"):
    an answer that then passes built its grid transposed (exercises.mjs's
    MESHGRID alike). TensorFlow's is patched only where it is imported already."""

    names = ["numpy.meshgrid", "torch.meshgrid"]
    if tensorflow_imported():
        names.append("tensorflow.meshgrid")

    def swapped(name: str, original: Any) -> Callable[..., Any]:
        library = name.split(".")[0]
        shown = {"numpy": "np", "tensorflow": "tf"}.get(library, library) + ".meshgrid"

        def meshgrid(*args: Any, **kwargs: Any) -> Any:
            given = kwargs.get("indexing")
            xy = given == "xy" or (given is None and library != "torch")
            listed = library == "torch" and len(args) == 1
            inputs = args[0] if listed and isinstance(args[0], (list, tuple)) else args
            if xy and len(inputs) > 1:
                how = "defaults to" if given is None else "was given"
                found.append((shown, how))
                kwargs = {**kwargs, "indexing": "ij"}
            return original(*args, **kwargs)

        return meshgrid

    return _patched(names, swapped)


@dataclass(frozen=True)
class Inferred:
    """A call whose output's slots were taken from the data (``counting_slots``):
    the call as written, which belief, and the data's range or ids on that run."""

    call: str  # "torch.histc", "np.histogram", "torch.unique"
    kind: str  # "range" (bins over the data's min..max) or "present" (ids present)
    low: Any = None  # the range the bins spanned, or the ids present (a list)
    high: Any = None
    bins: int = 0
    what: str = ""  # torch.unique's: "counts" or "inverse", the output misread
    order: bool = False  # torch.unique's: whether it was asked for sorted ids


def _int_tensor_ids(values: Any, size: int) -> Any:
    """``values`` as a 1-D int64 tensor of ids in 0..size-1, or None."""
    import torch

    if not isinstance(values, torch.Tensor) or values.is_floating_point():
        return None
    if values.is_complex() or values.dtype == torch.bool:
        return None
    flat = values.reshape(-1)
    if flat.numel() and (int(flat.min()) < 0 or int(flat.max()) >= size):
        return None
    return flat


def counting_slots(
    found: list[Inferred], size: int | None
) -> contextlib.AbstractContextManager[None]:
    """Run each op whose output's slots come from the data as if it had one slot per
    id 0..size-1, noting each (``Inferred``): ``torch.histc`` and ``np.histogram``
    with no range spread their bins over the data's own min..max (a bin is then one
    id: range 0..bins), and ``torch.unique`` with ``return_counts`` or
    ``return_inverse`` lists only the ids present (then it lists every id 0..size-1,
    an absent one with count 0). An answer that then passes counted the ids by a
    range or a presence the data decided (``Implement._counted_slots``). The page
    runs none of these ops (it says so)."""
    import numpy

    names = ["torch.histc", "torch.Tensor.histc", "numpy.histogram"]
    if size is not None:
        names += ["torch.unique", "torch.Tensor.unique"]

    def histc(original: Any, shown: str) -> Callable[..., Any]:
        def run(input: Any, bins: int = 100, min: Any = 0, max: Any = 0, **kw: Any):
            if float(min) == float(max) and input.numel():
                low, high = float(input.min()), float(input.max())
                if low == high:  # torch widens an empty range by 1 each way
                    low, high = low - 1, high + 1
                found.append(Inferred(shown, "range", low, high, int(bins)))
                min, max = 0, int(bins)
            return original(input, bins, min, max, **kw)

        return run

    def histogram(original: Any) -> Callable[..., Any]:
        def run(a: Any, bins: Any = 10, range: Any = None, *args: Any, **kw: Any):
            if isinstance(bins, int) and range is None and not args:
                data = numpy.asarray(a)
                if data.size:
                    low, high = float(data.min()), float(data.max())
                    if low == high:  # NumPy widens an empty range by 0.5 each way
                        low, high = low - 0.5, high + 0.5
                    found.append(Inferred("np.histogram", "range", low, high, bins))
                    range = (0, bins)
            return original(a, bins, range, *args, **kw)

        return run

    def unique(original: Any, shown: str) -> Callable[..., Any]:
        import torch

        def run(input: Any, *args: Any, **kw: Any) -> Any:
            ids = _int_tensor_ids(input, size or 0)
            if args or kw.get("dim") is not None or ids is None:
                return original(input, *args, **kw)
            present = sorted({int(i) for i in ids.tolist()})
            order = kw.get("sorted", True) is not False
            if not (kw.get("return_counts") or kw.get("return_inverse")):
                if not order:
                    return original(input, *args, **kw)
                # the ids present taken for every id (enumerate(ids.unique()) as
                # the class's column, len(...) as the count): exercises.mjs's
                # uniqueSlots alike, the page runs this form
                found.append(Inferred(shown, "present", present, None, size or 0,
                                      "plain", order))  # fmt: skip
                return torch.arange(size or 0, dtype=input.dtype)
            what = "counts" if kw.get("return_counts") else "inverse"
            found.append(
                Inferred(shown, "present", present, None, size or 0, what, order)
            )
            out = [torch.arange(size or 0, dtype=input.dtype)]
            if kw.get("return_inverse"):
                out.append(input.clone())
            if kw.get("return_counts"):
                out.append(torch.bincount(ids, minlength=size or 0))
            return tuple(out)

        return run

    def replacement(name: str, original: Any) -> Callable[..., Any]:
        if name.endswith("histc"):
            return histc(original, "torch.histc")
        if name == "numpy.histogram":
            return histogram(original)
        return unique(original, "torch.unique")

    return _patched(names, replacement)


@dataclass(frozen=True)
class Sized:
    """A call of an op that decides its output's size along the ids' axis: ``op``
    as the learner wrote it (``tf.math.unsorted_segment_sum``), the argument that
    sets that size (``num_segments``; "" where the op takes none), the value the
    call gave it (None: left to the op, which infers it from the ids), the size
    its output got there (None where it raised) and whether it raised."""

    op: str
    param: str
    given: int | None
    size: int | None
    raised: bool
    ids_shape: tuple[int, ...] = ()  # the shape of the ids it was given
    dtype: str = ""  # the dtype of the tensor it returned
    source: str = ""  # the input whose dtype it returns ("data", "weights", ...)
    numbers: str | None = None  # "ints" / "floats": that input as Python numbers
    sorted: bool = False  # Keras's segment ops' sorted=True (TensorFlow's sorted op)
    made: tuple[int, ...] = ()  # the shape of the tensor it returned


# TensorFlow's and Keras's ops whose output size along the ids' axis is an argument
# or inferred from the ids: (the argument, its position, the output's axis)
SEGMENT_REDUCTIONS = ("sum", "mean", "max", "min", "prod")
SIZING_OPS: dict[str, tuple[str, int | None, int]] = {
    **{
        f"tensorflow.math.unsorted_segment_{r}": ("num_segments", 2, 0)
        for r in (*SEGMENT_REDUCTIONS, "sqrt_n")
    },
    **{f"tensorflow.math.segment_{r}": ("", None, 0) for r in SEGMENT_REDUCTIONS},
    "keras.ops.segment_sum": ("num_segments", 2, 0),
    "keras.ops.segment_max": ("num_segments", 2, 0),
    "tensorflow.math.bincount": ("minlength", 2, 0),
    "keras.ops.bincount": ("minlength", 2, 0),
    # a layer's size is its setting, read from the layer its call runs on
    "keras.layers.CategoryEncoding.call": ("num_tokens", None, -1),
    "tensorflow.one_hot": ("depth", 1, -1),
    "keras.ops.one_hot": ("num_classes", 1, -1),
    "keras.utils.to_categorical": ("num_classes", 1, -1),
    "tensorflow.scatter_nd": ("shape", 2, 0),
    # torch's and NumPy's: num_classes=-1 (the default) and no minlength infer it
    "torch.nn.functional.one_hot": ("num_classes", 1, -1),
    "torch.bincount": ("minlength", 2, 0),
    "numpy.bincount": ("minlength", 2, 0),
}
# torch's and NumPy's sizing ops' size argument at its default, which says "infer
# it from the ids" (exercises.mjs's sizing alike)
INFERRED_BY = {
    "torch.nn.functional.one_hot": -1,
    "torch.bincount": 0,
    "numpy.bincount": 0,
}


def _given_size(value: Any) -> int | None:
    """An int from a size argument (a Python int, a 0-d tensor or array, the first
    entry of a shape), or None."""
    if value is None or isinstance(value, bool):
        return None
    try:
        values = np.asarray(to_numpy(value) if framework_of(value) else value)
    except Exception:  # anything a learner passes
        return None
    if values.dtype.kind not in "iu" or values.size == 0:
        return None
    return int(values.reshape(-1)[0])


def _dtype_source(
    op: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[str, Any]:
    """The input whose dtype ``op``'s result has, and its value: a segment op's
    data, tf.math.bincount's weights, tf.one_hot's on_value (where given); ("",
    None) for the others."""
    if "segment_" in op:
        return "data", args[0] if args else kwargs.get("data")
    if op == "tf.math.bincount":
        weights = kwargs.get("weights", args[1] if len(args) > 1 else None)
        return ("weights", weights) if weights is not None else ("", None)
    if op == "tf.one_hot":
        on = kwargs.get("on_value", args[2] if len(args) > 2 else None)
        return ("on_value", on) if on is not None else ("", None)
    return "", None


def noting_sizing_ops(found: list[Sized]) -> contextlib.AbstractContextManager[None]:
    """Let the TensorFlow and Keras ops of ``SIZING_OPS`` run as usual, noting in
    ``found`` each call the learner made (not the calls they make inside: Keras's
    segment_sum calls TensorFlow's) as a ``Sized``. A library is patched only
    where it is imported (a blocked import leaves None in ``sys.modules``)."""
    import sys

    names = [
        name for name in SIZING_OPS if sys.modules.get(name.split(".")[0]) is not None
    ]
    depth = [0]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        param, at, axis = SIZING_OPS[name]
        shown = (
            name.replace("tensorflow.", "tf.")
            .replace("numpy.", "np.")
            .removesuffix(".call")
        )
        layer = name.endswith(".call")

        def call(*args: Any, **kwargs: Any) -> Any:
            outer = depth[0] == 0
            given = kwargs.get(param) if param else None
            if param and given is None and at is not None and len(args) > at:
                given = args[at]
            if layer and args:
                given = getattr(args[0], param, None)
            if name in INFERRED_BY and _given_size(given) == INFERRED_BY[name]:
                given = None
            param_now = param
            try:
                ids = args[1] if "segment_" in name or layer else args[0]
                ids_shape = tuple(int(n) for n in np.shape(to_numpy(ids)))
            except Exception:  # anything a learner passes, or by keyword
                ids_shape = ()
            cap = kwargs.get("maxlength", args[3] if len(args) > 3 else None)
            if shown == "tf.math.bincount" and _given_size(cap) is not None:
                param_now, given = "maxlength", cap  # it caps what minlength sets
            depth[0] += 1
            try:
                out = original(*args, **kwargs)
            except Exception:
                if outer:
                    size = _given_size(given)
                    ordered = kwargs.get("sorted", args[3] if len(args) > 3 else 0)
                    found.append(
                        Sized(
                            shown,
                            param_now,
                            size,
                            None,
                            True,
                            ids_shape,
                            sorted=shown.startswith("keras.") and bool(ordered),
                        )
                    )
                raise
            finally:
                depth[0] -= 1
            if outer:
                source, values = _dtype_source(shown, args, kwargs)
                made = str(getattr(getattr(out, "dtype", None), "name", "") or "")
                numbers = _python_numbers(values) if source else None
                shape = getattr(out, "shape", None)
                size = None
                if shape is not None and len(shape):
                    with contextlib.suppress(Exception):
                        size = int(shape[axis])
                given_size = _given_size(given)
                whole: tuple[int, ...] = ()
                with contextlib.suppress(Exception):
                    whole = tuple(int(n) for n in shape or ())
                found.append(
                    Sized(
                        shown,
                        param_now,
                        given_size,
                        size,
                        False,
                        ids_shape,
                        made,
                        source,
                        numbers,
                        made=whole,
                    )
                )
            return out

        return call

    return _patched(names, noted)


@dataclass(frozen=True)
class TfRead:
    """A learner's call of tf.gather or tf.gather_nd: the op, its params' rank, the
    axis it read (tf.gather's; None for tf.gather_nd), its batch_dims, the length of
    a coordinate (tf.gather_nd's indices.shape[-1]; 0 for tf.gather), whether it
    raised."""

    op: str
    rank: int
    axis: int | None
    batch_dims: int
    depth: int
    raised: bool


def noting_tf_reads(found: list[TfRead]) -> contextlib.AbstractContextManager[None]:
    """Let tf.gather and tf.gather_nd run as usual, noting in ``found`` each call the
    learner made (``TfRead``; not those Keras's reads make inside). Nothing is
    patched where TensorFlow is not imported."""
    import sys

    names = (
        ["tensorflow.gather", "tensorflow.gather_nd"] if tensorflow_imported() else []
    )
    if names and sys.modules.get("keras") is not None:
        names += ["keras.ops.take", "keras.ops.take_along_axis"]
    depth = [0]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        shown = name.replace("tensorflow.", "tf.")
        nd = shown == "tf.gather_nd"

        def inside(*args: Any, **kwargs: Any) -> Any:
            depth[0] += 1
            try:
                return original(*args, **kwargs)
            finally:
                depth[0] -= 1

        if name.startswith("keras."):
            return inside

        def read(*args: Any, **kwargs: Any) -> Any:
            outer = depth[0] == 0
            params = args[0] if args else kwargs.get("params")
            indices = args[1] if len(args) > 1 else kwargs.get("indices")
            if nd:
                axis = None
                batch = kwargs.get("batch_dims", args[2] if len(args) > 2 else 0)
            else:
                axis = kwargs.get("axis", args[3] if len(args) > 3 else None)
                batch = kwargs.get("batch_dims", args[4] if len(args) > 4 else 0)
            try:
                rank = int(np.ndim(to_numpy(params)))
                shape = np.shape(to_numpy(indices))
            except Exception:  # anything a learner passes
                rank, shape = -1, ()
            batch = _given_size(batch) or 0
            if not nd:
                axis = batch if axis is None else _given_size(axis)
            coordinate = int(shape[-1]) if nd and len(shape) else 0
            depth[0] += 1
            try:
                out = original(*args, **kwargs)
            except Exception:
                if outer:
                    found.append(TfRead(shown, rank, axis, batch, coordinate, True))
                raise
            finally:
                depth[0] -= 1
            if outer:
                found.append(TfRead(shown, rank, axis, batch, coordinate, False))
            return out

        return read

    return _patched(names, noted)


@dataclass(frozen=True)
class TfWrite:
    """A learner's call of a TensorFlow or Keras write by coordinates
    (``TF_WRITES``): the op, the rank of the tensor it writes, the length of a
    coordinate (indices.shape[-1]) and whether it raised."""

    op: str
    rank: int
    depth: int
    raised: bool
    dtype: str = ""  # the dtype of the tensor it returned
    numbers: str | None = None  # "ints" / "floats": updates given as Python numbers


# TensorFlow's and Keras's writes by coordinates: where the written tensor (or its
# shape) and the indices are among the arguments, (tensor, is it a shape, indices)
TF_WRITES: dict[str, tuple[int, bool, int]] = {
    **{
        f"tensorflow.tensor_scatter_nd_{r}": (0, False, 1)
        for r in ("update", "add", "sub", "min", "max")
    },
    "tensorflow.scatter_nd": (2, True, 0),
    "keras.ops.scatter_update": (0, False, 1),
    "keras.ops.scatter": (2, True, 0),
}


def noting_tf_writes(found: list[TfWrite]) -> contextlib.AbstractContextManager[None]:
    """Let the writes of ``TF_WRITES`` run as usual, noting in ``found`` each call
    the learner made (not those they make inside: Keras's call TensorFlow's). A
    library is patched only where it is imported."""
    import sys

    names = [n for n in TF_WRITES if sys.modules.get(n.split(".")[0]) is not None]
    depth = [0]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        at, is_shape, index_at = TF_WRITES[name]
        shown = name.replace("tensorflow.", "tf.")

        def write(*args: Any, **kwargs: Any) -> Any:
            outer = depth[0] == 0
            try:
                target = args[at]
                rank = (
                    len(to_numpy(target).reshape(-1))
                    if is_shape
                    else int(np.ndim(to_numpy(target)))
                )
                indices = np.shape(to_numpy(args[index_at]))
                coordinate = int(indices[-1]) if len(indices) >= 2 else 0
            except Exception:  # anything a learner passes, or by keyword
                rank, coordinate = -1, 0
            depth[0] += 1
            try:
                out = original(*args, **kwargs)
            except Exception:
                if outer:
                    found.append(TfWrite(shown, rank, coordinate, True))
                raise
            finally:
                depth[0] -= 1
            if outer:
                updates = args[1] if len(args) > 1 and is_shape else None
                made = getattr(getattr(out, "dtype", None), "name", None)
                numbers = _python_numbers(updates) if updates is not None else None
                found.append(
                    TfWrite(shown, rank, coordinate, False, str(made or ""), numbers)
                )
            return out

        return write

    return _patched(names, noted)


CAST_METHODS = ("float", "double", "half", "long", "int", "short", "bool", "to", "type")


def noting_casts(
    found: list[tuple[str, Any]],
) -> contextlib.AbstractContextManager[None]:
    """Let a tensor's dtype conversions (``.float()``, ``.long()``, ``.to(dtype)``,
    ``.type(dtype)``) run as usual, noting in ``found`` each that made a new dtype, as
    (``.float()``, the tensor it returned): a result that is one of them got its
    dtype from that conversion (exercises.mjs's casts alike)."""
    import torch

    names = [f"torch.Tensor.{method}" for method in CAST_METHODS]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        method = name.rsplit(".", 1)[1]

        def cast(tensor: Any, *args: Any, **kwargs: Any) -> Any:
            out = original(tensor, *args, **kwargs)
            if not isinstance(out, torch.Tensor) or out.dtype == tensor.dtype:
                return out
            shown = str(out.dtype)
            if method in ("to", "type"):
                given = [*args, kwargs.get("dtype")]
                if not any(isinstance(a, torch.dtype) for a in given):
                    return out  # another tensor's dtype, a string: not named
                found.append((f".{method}({shown})", out))
            else:
                found.append((f".{method}()", out))
            return out

        return cast

    return _patched(names, noted)


@dataclass
class Loss:
    """A call of F.nll_loss or F.cross_entropy (or their modules, which call them):
    the op, its reduction, the input it was given and what it returned."""

    op: str
    reduction: str
    input: Any
    output: Any


LOSS_OPS = ("nll_loss", "cross_entropy")


def noting_losses(found: list[Loss]) -> contextlib.AbstractContextManager[None]:
    """Let F.nll_loss and F.cross_entropy run as usual, noting each call in
    ``found``: a label score read with them follows their rules (nll_loss takes no
    log, cross_entropy takes one itself, both average unless reduction='none')."""
    names = [f"torch.nn.functional.{op}" for op in LOSS_OPS]

    def noted(name: str, original: Any) -> Callable[..., Any]:
        op = name.rsplit(".", 1)[1]

        def loss(input: Any, *args: Any, **kwargs: Any) -> Any:
            out = original(input, *args, **kwargs)
            reduction = kwargs.get("reduction")
            if reduction is None:  # (target, weight, size_average, ignore_index,
                rest = args[5:6]  # reduce, reduction): positional, or the default
                reduction = rest[0] if rest and isinstance(rest[0], str) else "mean"
            found.append(Loss(op, str(reduction), input, out))
            return out

        return loss

    return _patched(names, noted)
