"""gl.atlas: the stored outcomes are what the installed libraries do today."""

from __future__ import annotations

import copy

import pytest

from gatherlab import atlas
from gatherlab.tf import tensorflow

STORED = atlas.load()
GATHER = "torch.gather(x, 1, index)"
TAKE_ALONG_DIM = "torch.take_along_dim(x, index, dim=1)"
INDEX_SELECT = "torch.index_select(x, 1, index)"
EAGER_MODES = {"torch": ("eager",), "numpy": ("eager",), "tensorflow": ("eager", "xla")}


def _machine_differs(library: str) -> bool:
    """The "device" case depends on the machine having a GPU, not on the release."""
    stored = atlas.column(library, atlas=STORED)["provenance"]["other_device"]
    return stored != (atlas._other_device(library) or "none")


@pytest.mark.parametrize("library", atlas.LIBRARIES)
def test_stored_atlas_matches_the_installed_library(library):
    stored = atlas.column(library, atlas=STORED)["outcomes"]
    measured = atlas.measure(library, modes=EAGER_MODES[library])
    assert sum(len(cases) for modes in measured.values() for cases in modes.values())
    problems = atlas.disagreements(
        stored, measured, skip_devices=_machine_differs(library)
    )
    assert not problems, "\n".join(problems)


@pytest.mark.compile
def test_stored_compiled_outcomes_match_torch_compile():
    # Two graphs (one per op), compiled once each: valid, -1 and 3 share a graph.
    measured = atlas.measure(
        "torch",
        ops=[GATHER, INDEX_SELECT],
        cases=["valid", "negative", "at_size"],
        modes=["compile"],
    )
    assert measured[GATHER]["compile"]["at_size"]["message"].startswith(
        "index out of bounds"
    )
    stored = atlas.column("torch", atlas=STORED)["outcomes"]
    problems = atlas.disagreements(stored, measured)
    assert not problems, "\n".join(problems)


def test_an_edited_outcome_is_reported():
    stored = copy.deepcopy(atlas.column("torch", atlas=STORED)["outcomes"])
    negative = copy.deepcopy(stored[GATHER]["eager"]["negative"])
    measured = {GATHER: {"eager": {"negative": negative}}}
    assert atlas.disagreements(stored, measured) == []
    stored[GATHER]["eager"]["negative"]["message"] = "index -1 wraps"
    (problem,) = atlas.disagreements(stored, measured)
    assert problem.startswith(f"{GATHER} [eager] negative: stored")
    assert "index -1 wraps" in problem


def test_columns_are_keyed_by_release_without_build_tag():
    assert atlas.column_key("torch", "2.13.0+cpu") == "torch 2.13.0"
    assert atlas.column_key("torch", "2.13.0+cu130") == "torch 2.13.0"
    assert (
        atlas.column("torch", "2.13.0+cu130", STORED)
        is STORED["columns"]["torch 2.13.0"]
    )
    with pytest.raises(KeyError, match="no stored column 'torch 1.0.0'"):
        atlas.column("torch", "1.0.0", STORED)


@pytest.mark.parametrize(
    ("installed", "shown"),
    [
        ("2.9.0+cu126", "torch 2.8.0"),  # a hosted notebook's release, never measured
        ("2.14.1+cu130", "torch 2.13.0"),
        ("2.99.0", "torch 2.15.0"),
        ("1.13.1", "torch 2.7.1"),  # older than every column: the oldest
        ("2.13.0+cpu", "torch 2.13.0"),  # measured: no note
    ],
)
def test_a_table_on_an_unmeasured_release_shows_the_nearest_one(
    monkeypatch, installed, shown
):
    monkeypatch.setattr(
        atlas, "_version", lambda library: installed if library == "torch" else "2.4.6"
    )
    table = atlas.table([GATHER], atlas=STORED)
    assert (
        table.rows
        == atlas.table(
            [GATHER], versions={"torch": shown.split()[1]}, atlas=STORED
        ).rows
    )
    note = f"{atlas.column_key('torch', installed)} is not in the atlas: the columns"
    note += f" are {shown}'s"
    assert (note in table.caption) == (atlas.release(installed) != shown.split()[1])
    with pytest.raises(KeyError):  # a release asked for by name must be stored
        atlas.table([GATHER], versions={"torch": "2.9.0"}, atlas=STORED)


def test_every_column_has_provenance_and_every_outcome():
    # every release the atlas covers, 2.7.1 to 2.15.0, with the reading and the
    # writing ops (each on its own cases)
    assert len([key for key in STORED["columns"] if key.startswith("torch ")]) >= 8
    for key, stored in STORED["columns"].items():
        library = key.split()[0]
        record = stored["provenance"]
        assert atlas.column_key(library, record["version"]) == key
        for field in ("python", "numpy", "date", "machine", "other_device"):
            assert record[field], (key, field)
        for op in (*atlas.OPS, *atlas.WRITE_OPS):
            if op.library != library:
                continue
            assert op.name in stored["outcomes"], (key, op.name)
            assert tuple(stored["outcomes"][op.name]) == op.modes, (key, op.name)
            op_cases, compiled = atlas._cases_of(op)
            for mode in op.modes:
                cases = stored["outcomes"][op.name][mode]
                names = tuple(case.name for case in op_cases)
                wanted = names if mode == "eager" else compiled
                assert tuple(cases) == wanted, (key, op.name, mode)


def test_error_messages_lose_paths_addresses_and_tensorflow_names():
    kernel = RuntimeError(
        "kernel, /tmp/torchinductor_root/bn/cbn.main.cpp:21, "
        "index out of bounds: 0 <= tmp2 < 3L"
    )
    assert atlas.message_line(kernel) == "index out of bounds: 0 <= tmp2 < 3L"
    tf_error = ValueError(
        "{{function_node __wrapped__GatherV2_device_/job:localhost/replica:0/task:0/"
        "device:CPU:0}} indices[0,1] = 3 is not in [0, 3) [Op:GatherV2] name: "
    )
    assert atlas.message_line(tf_error) == "indices[0,1] = 3 is not in [0, 3)"
    traced = TypeError('in user code:\n\n  File "/tmp/x.py", line 7\n\nTypeError: bad')
    assert atlas.message_line(traced) == "bad"
    fake = RuntimeError("call <built-in method gather of type object at 0x7fc4eb>")
    assert (
        atlas.message_line(fake)
        == "call <built-in method gather of type object at 0x…>"
    )


def test_xla_clamps_where_eager_tensorflow_raises():
    tf = tensorflow()
    x = tf.constant([[10, 11, 12], [20, 21, 22]])  # int32, as Python ints give
    bad_rows = tf.constant([[0, 3], [1, -1]])
    bad_pairs = tf.constant([[0, 3], [1, 2], [1, -1]])
    with tf.device("/CPU:0"):
        gather = tf.function(
            lambda p, i: tf.gather(p, i, axis=1, batch_dims=1), jit_compile=True
        )
        gather_nd = tf.function(tf.gather_nd, jit_compile=True)
        assert gather(x, bad_rows).numpy().tolist() == [[10, 12], [21, 20]]
        assert gather_nd(x, bad_pairs).numpy().tolist() == [12, 22, 20]
        with pytest.raises(tf.errors.InvalidArgumentError, match="is not in"):
            tf.gather(x, bad_rows, axis=1, batch_dims=1)
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not index"):
            tf.gather_nd(x, bad_pairs)


def test_tables_name_what_each_op_does_with_a_bad_position():
    ops = [GATHER, TAKE_ALONG_DIM, "np.take_along_axis(x, index, axis=1)"]
    rendered = atlas.table(ops, atlas=STORED)
    rows = {
        row[0]: dict(zip(rendered.header, row, strict=True)) for row in rendered.rows
    }
    assert rows[GATHER]["negative"] == "raises RuntimeError"
    assert rows[GATHER]["broadcasting"].startswith("no: (1, 2) index gives (1, 2)")
    assert rows[GATHER]["copy or view"] == "copy"
    numpy_row = rows["np.take_along_axis(x, index, axis=1)"]
    assert numpy_row["negative"] == "reads the last"
    assert numpy_row["equal to size"] == "raises IndexError"
    assert numpy_row["broadcasting"] == "index stretched; x stretched"
    behaviours = ["negative", "negative int32", "equal to size", "far out"]
    batch = ["tf.gather(x, index, axis=1, batch_dims=1)"]
    xla = atlas.table(batch, behaviours, mode="xla", atlas=STORED)
    # XLA clamps: int64 -1 reads the last entry here, int32 -1 the first
    assert xla.rows[0][2:] == (
        "reads the last",
        "reads the first",
        "reads the last",
        "reads the last",
    )
    text, page = str(rendered), rendered._repr_html_()
    assert text.startswith("Measured on the CPU with torch ")
    assert page.count("<tr>") == len(ops) + 1  # the header, then a row per op
    assert '<caption style="color:inherit">Measured on the CPU with torch ' in page
    assert "<td>np.take_along_axis(x, index, axis=1)</td>" in page
    assert rows[GATHER]["positions"] == "one list per row"


def test_changes_lists_only_outcomes_that_differ_between_releases():
    rendered = atlas.changes("torch", atlas=STORED)
    assert rendered.header[:3] == ("op", "mode", "case")
    for row in rendered.rows:
        assert len(set(row[3:])) > 1, row
    changed = {(row[0], row[1], row[2]) for row in rendered.rows}
    assert (GATHER, "eager", "int32") in changed
    assert (GATHER, "eager", "valid") not in changed


def test_bad_reading_tells_wrap_from_clamp():
    op = atlas.OPS_BY_NAME["np.take(x, index)"]  # flat: x.flatten() has 6 entries

    def reading(case, first_value):
        outcome = {"status": "ok", "values": [[first_value, 10], [21, 11]]}
        return atlas._bad_reading(op, case, outcome)

    assert reading("negative", 22) == "reads the last"
    assert reading("negative", 10) == "reads the first"
    assert reading("at_size", 10) == "wraps"  # 6 % 6 = 0
    assert reading("at_size", 22) == "reads the last"
    assert reading("far", 21) == "wraps"  # 10**6 % 6 = 4
    assert reading("far", 0) == "gives 0"
    error = {"status": "error", "error": "IndexError", "message": "out of range"}
    assert atlas._bad_reading(op, "far", error) == "raises IndexError"


def test_by_release_gives_one_row_per_stored_release():
    rendered = atlas.by_release(TAKE_ALONG_DIM, atlas=STORED)
    releases = [row[0] for row in rendered.rows]
    torch_keys = [key for key in STORED["columns"] if key.startswith("torch ")]
    assert releases == [key.split()[1] for key in torch_keys]
    assert dict(zip(releases, rendered.rows, strict=True))["2.7.1"][1] == (
        "raises RuntimeError"
    )
    messages = atlas.by_release(GATHER, cases=["int16"], width=40, atlas=STORED)
    by_version = dict(messages.rows)
    # the refusal's wording changed when int32 became valid (2.8)
    assert by_version["2.7.1"] == "RuntimeError: gather(): Expected dtype …"
    full = atlas.by_release(GATHER, cases=["int16"], atlas=STORED)
    assert dict(full.rows)["2.8.0"].endswith("Expected dtype int32/int64 for index")


SCATTER = "x.scatter_(1, index, src)"
INDEX_PUT = "x.index_put_((rows, cols), values)"


@pytest.mark.compile
def test_stored_compiled_writes_match_torch_compile():
    measured = atlas.measure(
        "torch",
        ops=[SCATTER, INDEX_PUT],
        cases=["valid", "duplicates", "negative"],
        modes=["compile"],
    )
    # compiled index_put_ wraps -1 as eager does: x[0, -1] is x[0, 2]
    assert measured[INDEX_PUT]["compile"]["negative"]["values"][0] == [10, 11, 100]
    stored = atlas.column("torch", atlas=STORED)["outcomes"]
    problems = atlas.disagreements(stored, measured)
    assert not problems, "\n".join(problems)


def test_write_tables_say_where_each_write_went():
    ops = [SCATTER, INDEX_PUT, "np.add.at(x, (rows, cols), values)",
           "x[rows, cols] = values", "tf.scatter_nd(index, values, shape)"]  # fmt: skip
    behaviours = ("duplicates", "negative", "equal to size", "in place")
    rendered = atlas.table(ops, behaviours, atlas=STORED)
    rows = {
        row[0]: dict(zip(rendered.header, row, strict=True)) for row in rendered.rows
    }
    # x[0, 1] held 11 and received 100, then 101
    assert rows[SCATTER]["duplicates"] == "[0, 1] holds 101"
    assert (
        rows["np.add.at(x, (rows, cols), values)"]["duplicates"] == "[0, 1] holds 212"
    )
    assert rows["x[rows, cols] = values"]["duplicates"] == "[0, 1] holds 101"
    assert rows["tf.scatter_nd(index, values, shape)"]["duplicates"] == (
        "[0, 1] holds 201"
    )
    assert rows[SCATTER]["negative"] == "raises RuntimeError"
    assert rows[INDEX_PUT]["negative"] == "writes [0, 2]"  # -1 wraps
    assert rows[INDEX_PUT]["equal to size"] == "raises IndexError"
    assert rows[SCATTER]["in place"] == "in place"
    assert rows["tf.scatter_nd(index, values, shape)"]["in place"] == "new tensor"
    xla = atlas.table(
        ["tf.tensor_scatter_nd_update(x, index, values)"],
        ("negative", "equal to size", "far out"),
        mode="xla",
        atlas=STORED,
    )
    assert xla.rows[0][2:] == ("writes nothing",) * 3  # XLA drops them silently


def test_changes_and_by_release_skip_columns_that_lack_an_op():
    partial = copy.deepcopy(STORED)
    columns = partial["columns"]
    moved = columns["torch 2.13.0"]["outcomes"][SCATTER]
    for stored in columns.values():
        stored["outcomes"].pop(SCATTER, None)
    columns["torch 2.7.1"]["outcomes"][SCATTER] = moved  # only 2.7.1 measured it
    rendered = atlas.by_release(SCATTER, atlas=partial)
    assert [row[0] for row in rendered.rows] == ["2.7.1"]
    assert rendered.rows[0][1] == "raises RuntimeError"  # the write behaviours
    assert not [row for row in atlas.changes("torch", atlas=partial).rows
                if row[0] == SCATTER]  # fmt: skip
    moved["eager"]["valid"] = {"status": "error", "error": "E", "message": "m"}
    columns["torch 2.8.0"]["outcomes"][SCATTER] = copy.deepcopy(moved)
    moved["eager"]["valid"] = {"status": "error", "error": "F", "message": "m"}
    (row,) = [r for r in atlas.changes("torch", atlas=partial).rows if r[0] == SCATTER]
    assert row[2] == "valid" and "not measured" in row[3:]


def test_a_column_measured_again_replaces_the_stored_only_if_nothing_stored_changed(
    capsys,
):
    from tools.measure import measure_atlas

    key = "torch 2.7.1"
    whole = copy.deepcopy(STORED["columns"][key])
    older = {"provenance": whole["provenance"], "outcomes": {GATHER: {}}}
    older["outcomes"][GATHER] = copy.deepcopy(whole["outcomes"][GATHER])
    kept = {"columns": {key: older}}  # measured before the other ops existed
    assert measure_atlas._store(kept, key, whole, accept_changes=False)
    assert kept["columns"][key] is whole  # the same gather outcomes, more ops
    assert f"{key}: 2.7.1+cu126, measured in" in capsys.readouterr().out

    changed = copy.deepcopy(whole)
    changed["outcomes"][GATHER]["eager"]["negative"] = {"status": "ok"}
    changed["provenance"]["version"] = "2.7.1+cpu"
    assert not measure_atlas._store(kept, key, changed, accept_changes=False)
    assert kept["columns"][key] is whole
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"{key} changed: version: stored 2.7.1+cu126, now 2.7.1+cpu"
    assert printed[1].startswith(f"{key} changed: {GATHER} [eager] negative: stored")
    assert printed[1].endswith("now {'status': 'ok'}")
    assert printed[2] == f"{key}: 2 stored outcomes differ; column left as it was"
    assert measure_atlas._store(kept, key, changed, accept_changes=True)
    assert kept["columns"][key] is changed
