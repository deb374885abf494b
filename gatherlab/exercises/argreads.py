"""An argument of a TensorFlow or Keras op misread: found by changing it alone.

Learners misread what an op's argument (or its default) does. Each ``Misread`` below
names one argument of one op and the value a learner means where they give (or leave)
another: tf.one_hot's ``axis`` (the class axis goes where axis says; -1, last, by
default), keras.layers.CategoryEncoding's ``output_mode`` ("multi_hot", its default,
and "count" encode the last axis as ONE sample), tf.math.bincount's
``binary_output`` (1 for a value present, not its count), tf.gather_nd's
``batch_dims=1`` (each coordinate read inside params[b]). An answer that passes every
case once that argument alone is changed (``trying``) made that one mistake, and the
op's rule is its first step (as ``implement._meshgrid_xy`` does for meshgrid's
indexing). The page runs none of these ops: no twin.
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from gatherlab._arrays import framework_of, to_numpy
from gatherlab.exercises.compare import shape_text
from gatherlab.exercises.patching import LIBRARIES, _patched
from gatherlab.exercises.verdict import Field, Verdict, fields_of, phrase
from gatherlab.tf import tensorflow_imported

_DEFAULT = object()  # the argument was left to the op


@dataclass(frozen=True)
class Misread:
    """Op ``name`` (patched; ``shown`` as the learner writes it), argument ``param``
    (``at``: its position; -1: a layer's setting, read from the layer its ``call``
    runs on), ``default`` where it is left out; ``wrong(value)`` says a value is a
    misreading, ``right`` is the value tried instead (or ``right(args, kwargs)``,
    the values tried in turn: the axes of a read), ``template`` the rule's words;
    ``weighted``: (an argument, the value and the words) for a call given that
    argument (CategoryEncoding given count_weights is tried with "count")."""

    name: str
    shown: str
    param: str
    at: int
    default: Any
    wrong: Callable[[Any], bool]
    right: Any
    template: str
    weighted: tuple[str, Any, str] | None = None
    unset: str = ""  # the words where the argument was left as None (its default)


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _axis_not_last(value: Any) -> bool:
    return _is_int(value) and int(value) != -1


def _batch_axis(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[int]:
    """tf.gather's axis meant where another was given: batch_dims (its default)."""
    batch: Any = kwargs.get("batch_dims", args[4] if len(args) > 4 else 0)
    axis: Any = kwargs.get("axis", args[3] if len(args) > 3 else None)
    if not _is_int(batch) or int(batch) <= 0 or not _is_int(axis):
        return []
    return [int(batch)] if int(axis) != int(batch) else []


def _to_rank(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """A take_along_axis's index of fewer dims than its array, given the array's
    rank by trailing size-1 axes (what index[..., None] does)."""
    array = args[0] if args else kwargs.get("arr", kwargs.get("x"))
    index = args[1] if len(args) > 1 else kwargs.get("indices")
    missing = len(_shape(array)) - len(_shape(index))
    if index is None or missing <= 0 or not _shape(index):
        return []
    shape = (*_shape(index), *[1] * missing)
    if framework_of(index) == "tensorflow":
        import tensorflow as tf

        return [tf.reshape(index, shape)]
    if framework_of(index) == "torch":
        return [index.reshape(shape)]
    return [np.reshape(np.asarray(index), shape)]


def _reduced_axes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[int]:
    """The axes of a reduction's input other than the one given (each where none)."""
    data = args[0] if args else kwargs.get("input_tensor", kwargs.get("a"))
    rank = len(_shape(data if data is not None else kwargs.get("x")))
    axis: Any = kwargs.get("axis", args[1] if len(args) > 1 else None)
    if rank < 2 or (axis is not None and not -rank <= int(axis) < rank):
        return []
    return [d for d in range(rank) if axis is None or d != int(axis) % rank]


def _other_axes(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[int]:
    """The axes of a take_along_axis's array other than the one given."""
    rank = len(_shape(args[0] if args else kwargs.get("arr", kwargs.get("x"))))
    axis: Any = kwargs.get("axis", args[2] if len(args) > 2 else None)
    if not rank or not _is_int(axis) or not -rank <= int(axis) < rank:
        return []
    return [d for d in range(rank) if d != int(axis) % rank]


MISREADS = (
    Misread("tensorflow.one_hot", "tf.one_hot", "axis", 4, None,
            _axis_not_last, -1, "argread.one_hot_axis"),
    Misread("keras.ops.one_hot", "keras.ops.one_hot", "axis", 2, -1,
            _axis_not_last, -1, "argread.one_hot_axis"),
    Misread("keras.layers.CategoryEncoding.call",
            "keras.layers.CategoryEncoding", "output_mode", -1, "multi_hot",
            lambda mode: mode in ("multi_hot", "count"), "one_hot",
            "argread.category_encoding",
            ("count_weights", "count", "argread.category_encoding_weights")),
    Misread("tensorflow.math.bincount", "tf.math.bincount", "binary_output", 7,
            False, lambda flag: flag is True, False, "argread.bincount_binary"),
    Misread("tensorflow.gather", "tf.gather", "axis", 3, None, _is_int,
            lambda args, kwargs: _batch_axis(args, kwargs), "argread.read_axis"),
    Misread("numpy.take_along_axis", "np.take_along_axis", "axis", 2, -1, _is_int,
            lambda args, kwargs: _other_axes(args, kwargs), "argread.read_axis"),
    Misread("keras.ops.take_along_axis", "keras.ops.take_along_axis", "axis", 2,
            None, _is_int, lambda args, kwargs: _other_axes(args, kwargs),
            "argread.read_axis"),
    Misread("tensorflow.gather_nd", "tf.gather_nd", "batch_dims", 2, 0,
            lambda dims: _is_int(dims) and int(dims) == 1, 0,
            "argread.gather_nd_batch_dims"),
    # an index of fewer dims than the array, broadcast against it (NumPy's raises)
    *(Misread(name, shown, "indices", 1, None, lambda index: True,
              lambda args, kwargs: _to_rank(args, kwargs), "argread.index_rank")
      for name, shown in (
          ("tensorflow.experimental.numpy.take_along_axis",
           "tf.experimental.numpy.take_along_axis"),
          ("keras.ops.take_along_axis", "keras.ops.take_along_axis"))),
)  # fmt: skip

# A reduction's axis: the other axes of its input are tried (every one where none is
# given, which reduces the whole input to one number)
REDUCTIONS = (
    ("tensorflow.reduce_sum", "tf.reduce_sum"),
    ("tensorflow.math.reduce_sum", "tf.math.reduce_sum"),
    ("tensorflow.reduce_mean", "tf.reduce_mean"),
    ("tensorflow.math.reduce_mean", "tf.math.reduce_mean"),
    ("numpy.sum", "np.sum"),
    ("numpy.mean", "np.mean"),
    ("keras.ops.sum", "keras.ops.sum"),
    ("keras.ops.mean", "keras.ops.mean"),
)
MISREADS = (
    *MISREADS,
    *(Misread(name, shown, "axis", 1, None,
              lambda axis: axis is None or _is_int(axis),
              lambda args, kwargs: _reduced_axes(args, kwargs),
              "argread.reduce_axis", unset="argread.reduce_all")
      for name, shown in REDUCTIONS),
)  # fmt: skip

# One misread at a time: (the misread, which of its values meant, the value changed:
# a call given another, np.sum(mask, axis=0) beside np.sum(..., axis=1), runs as given)
Attempt = tuple[Misread, int, Any]


def _changes(attempt: Attempt | None, misread: Misread, value: Any) -> bool:
    if attempt is None or attempt[0] is not misread:
        return False
    scalar = attempt[2] is None or isinstance(attempt[2], (int, str, np.integer))
    return not scalar or bool(value == attempt[2])


@dataclass(frozen=True)
class Noted:
    """One misread call: its op, the value it had (``given``: False where the op's
    default was left), the ids' shape and the shape it made (where known)."""

    misread: Misread
    value: Any
    given: bool
    ids: tuple[int, ...] = ()
    made: tuple[int, ...] = ()
    template: str = ""  # the words of the value tried (``Misread.weighted``'s)
    tries: int = 1  # how many values there are to try
    right: Any = None  # the value tried, in a run that changed it
    shape: tuple[int, ...] = ()  # the shape of the value it had (an index's)
    index: tuple[int, ...] = ()  # the shape of its second argument (a read's index)


def _shape(value: Any) -> tuple[int, ...]:
    try:
        data = to_numpy(value) if framework_of(value) else np.asarray(value)
    except Exception:  # anything a learner passes
        return ()
    return tuple(int(n) for n in np.shape(data))


def _imported(name: str) -> bool:
    library = name.split(".")[0]
    if library == "tensorflow":
        return tensorflow_imported()
    return sys.modules.get(library) is not None


@contextlib.contextmanager
def trying(found: list[Noted], attempt: Attempt | None) -> Iterator[None]:
    """Run the ops of ``MISREADS`` noting in ``found`` each call given (or left) a
    misread value; with ``attempt`` (a misread, k), called with its k-th value meant
    instead.
    Only the learner's own calls (a Keras op calls TensorFlow's, CategoryEncoding
    calls bincount); an op is patched only where its library is imported already."""
    names = list(dict.fromkeys(m.name for m in MISREADS if _imported(m.name)))
    depth = [0]

    def patched(name: str, original: Any) -> Callable[..., Any]:
        run = original
        for misread in (m for m in MISREADS if m.name == name):
            if misread.at < 0:
                run = _layer_call(misread, run, found, attempt)
            else:
                run = _op_call(misread, run, found, attempt)

        @functools.wraps(original)
        def outer(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                return original(*args, **kwargs)
            depth[0] += 1
            try:
                return run(*args, **kwargs)
            finally:
                depth[0] -= 1

        return outer

    with _patched(names, patched):
        yield


def _op_call(
    misread: Misread, original: Any, found: list[Noted], attempt: Attempt | None
) -> Callable[..., Any]:
    """An op whose argument ``misread.param`` is noted where misread (and with
    ``attempt`` (this misread, k), given the k-th value meant)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        given = misread.param in kwargs or len(args) > misread.at
        value = kwargs.get(misread.param, _DEFAULT)
        if value is _DEFAULT:
            value = args[misread.at] if len(args) > misread.at else misread.default
        if not misread.wrong(value):
            return original(*args, **kwargs)
        meant = misread.right
        tries = [meant(args, kwargs) if callable(meant) else [meant]][0]
        if not tries:
            return original(*args, **kwargs)
        right = None
        if attempt is not None and _changes(attempt, misread, value):
            if attempt[1] >= len(tries):
                return original(*args, **kwargs)
            right = tries[attempt[1]]
            if len(args) > misread.at:
                args = (*args[: misread.at], right, *args[misread.at + 1 :])
            else:
                kwargs = {**kwargs, misread.param: right}
        ids = _shape(args[0] if args else None)
        template, count, shape = misread.template, len(tries), _shape(value)
        if value is None and misread.unset:
            template = misread.unset
        second = _shape(args[1] if len(args) > 1 else kwargs.get("indices"))
        note = Noted(
            misread, value, given, ids, (), template, count, right, shape, second
        )
        try:
            out = original(*args, **kwargs)
        except Exception:  # a misread call that raises is one too
            found.append(note)
            raise
        found.append(replace(note, made=_shape(out)))
        return out

    return call


def _layer_call(
    misread: Misread, original: Any, found: list[Noted], attempt: Attempt | None
) -> Callable[..., Any]:
    """A layer's ``call`` whose setting ``misread.param`` is noted where misread (and
    with ``attempt``, set right while it runs). "Given" here means other than the
    default (the words "its default" are true of a default passed by name too)."""

    def call(layer: Any, *args: Any, **kwargs: Any) -> Any:
        value = getattr(layer, misread.param, _DEFAULT)
        if value is _DEFAULT or not misread.wrong(value):
            return original(layer, *args, **kwargs)
        given = value != misread.default
        ids = _shape(args[0] if args else kwargs.get("inputs"))
        right, template = misread.right, misread.template
        if misread.weighted is not None:
            name, weighted, words = misread.weighted
            if kwargs.get(name) is not None or len(args) > 1:
                right, template = weighted, words
                if value == weighted:
                    return original(layer, *args, **kwargs)
        change = _changes(attempt, misread, value)
        if change:
            setattr(layer, misread.param, right)
        try:
            out = original(layer, *args, **kwargs)
        except Exception:  # a misread call that raises is one too
            found.append(Noted(misread, value, given, ids, (), template))
            raise
        finally:
            setattr(layer, misread.param, value)
        found.append(Noted(misread, value, given, ids, _shape(out), template))
        return out

    return call


# take_along_axis's broadcast of the index against the input failed (NumPy's, Keras's,
# TensorFlow's words)
NOT_BROADCAST = re.compile(
    r"could not be broadcast|[Cc]annot broadcast|[Ii]ncompatible shapes"
)
ALONG_AXIS = ("np.take_along_axis", "keras.ops.take_along_axis")


def along_broadcast(
    case_name: Field, error: BaseException | None, noted: list[Noted]
) -> Verdict | None:
    """The verdict naming a take_along_axis call that raised because its index and
    input do not broadcast on the other axes (torch.gather allows an index smaller
    there), or None."""
    if error is None or not NOT_BROADCAST.search(str(error)):
        return None
    raised = [n for n in noted if n.misread.shown in ALONG_AXIS and not n.made]
    if not raised or not raised[-1].index:
        return None
    note = raised[-1]
    return Verdict(
        False,
        "argread.along_broadcast",
        {
            "case": case_name,
            "error": type(error).__name__,
            "op": note.misread.shown,
            "given": str(note.value),
            "index": shape_text(note.index),
            "shape": shape_text(note.ids),
        },
    )


def misread_verdict(case_name: Field, noted: Noted, right: Any = None) -> Verdict:
    """The first step naming ``noted``'s argument and its op's rule."""
    misread = noted.misread
    value = noted.value
    noted = replace(noted, right=right)
    fields: dict[str, Field] = {
        "case": case_name,
        "op": misread.shown,
        "given": repr(value) if isinstance(value, str) else str(value),
        "default": "" if noted.given else phrase("argread.its_default"),
    }
    template = noted.template or misread.template
    if template == "argread.one_hot_axis":
        at = int(value)
        classes = noted.made[at] if -len(noted.made) <= at < len(noted.made) else 0
        fields |= {
            "labels": shape_text(noted.ids),
            "made": shape_text(noted.made),
            "last": shape_text((*noted.ids, classes)),
        }
    if template == "argread.index_rank":
        grown = (*[1] * (len(noted.ids) - len(noted.shape)), *noted.shape)
        fields |= {
            "index": shape_text(noted.shape),
            "shape": shape_text(noted.ids),
            "as": shape_text(grown),
        }
    if template in ("argread.read_axis", "argread.reduce_axis", "argread.reduce_all"):
        fields |= {"shape": shape_text(noted.ids), "right": str(noted.right)}
    if template == "argread.category_encoding":
        fields["what"] = phrase(f"argread.encoding.{value}")
    wanted = fields_of(template)
    return Verdict(False, template, {k: fields[k] for k in wanted})


@contextlib.contextmanager
def noting_weighted_bincount(found: list[str]) -> Iterator[None]:
    """Let np.bincount run as usual, noting in ``found`` the dtype of each call's
    result where it was given weights (NumPy converts them to float64, whatever
    their dtype; it takes no dtype argument)."""

    def patched(name: str, original: Any) -> Callable[..., Any]:
        def bincount(x: Any, weights: Any = None, *args: Any, **kwargs: Any) -> Any:
            out = original(x, weights, *args, **kwargs)
            if weights is not None:
                found.append(str(getattr(out, "dtype", "")))
            return out

        return bincount

    with _patched(["numpy.bincount"], patched):
        yield


@contextlib.contextmanager
def noting_tf_casts(found: list[str]) -> Iterator[None]:
    """Let tf.cast run as usual, noting in ``found`` the dtype each call made (the
    learner's own calls, not a library's). Nothing is patched where
    TensorFlow is not imported."""
    depth = [0]

    def patched(name: str, original: Any) -> Callable[..., Any]:
        def cast(*args: Any, **kwargs: Any) -> Any:
            caller = str(sys._getframe(1).f_globals.get("__name__", ""))
            if (
                caller.split(".")[0] in LIBRARIES
            ):  # Keras's own casts, not the learner's
                return original(*args, **kwargs)
            depth[0] += 1
            try:
                out = original(*args, **kwargs)
            finally:
                depth[0] -= 1
            if not depth[0]:
                found.append(str(getattr(getattr(out, "dtype", None), "name", "")))
            return out

        return cast

    with _patched(["tensorflow.cast"] if tensorflow_imported() else [], patched):
        yield
