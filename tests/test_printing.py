"""The chapters' print helpers: wrapped to the page, one outcome or problem per line."""

from __future__ import annotations

import torch

import gatherlab as gl
from gatherlab.printing import print_outcome, print_problems, print_wrapped, wrapped

X = torch.tensor([[10, 11, 12], [20, 21, 22]])


def test_wrapped_lines_fit_the_page_and_continue_indented():
    text = wrapped("word " * 40)
    lines = text.splitlines()
    assert len(lines) > 1
    assert all(len(line) <= 72 for line in lines)
    assert all(line.startswith("    ") for line in lines[1:])
    assert not lines[0].startswith(" ")


def test_print_wrapped_honours_a_width(capsys):
    print_wrapped("a b c d e f", width=5)
    assert capsys.readouterr().out == "a b c\n    d\n    e\n    f\n"


def test_print_outcome_labels_the_error(capsys):
    print_outcome("torch.gather", torch.gather, X, 1, torch.tensor([[0, 3]]))
    assert capsys.readouterr().out == (
        "torch.gather: RuntimeError: index 3 is out of bounds for dimension 1\n"
        "    with size 3\n"
    )


def test_print_outcome_reports_a_result_and_no_error(capsys):
    print_outcome("right", torch.gather, X, 1, torch.tensor([[2], [0]]))
    print_outcome("guard", gl.check_gather, X, 1, torch.tensor([[2], [0]]))
    assert capsys.readouterr().out == "right: returns [[12], [20]]\nguard: no error\n"


def test_print_problems_prints_rule_message_and_hint(capsys):
    problems = gl.diagnose(X, 1, torch.tensor([[0, -1]]))
    print_problems(problems)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("rule negative-index: index[0, 1] = -1 is negative")
    assert "    hint: write 2 for what -1 means in Python" in out
    print_problems([])
    assert capsys.readouterr().out == ""
