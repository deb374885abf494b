"""The widget layer shared by every explorer: choices linked in the browser, HTML views,
edit boxes that report bad input in place.

In the static book there is no kernel, so a choice (ToggleButtons or Dropdown) is linked
with ``jslink`` from its ``index`` to a ``Stack``'s ``selected_index``; the Stack's
children are HTML views rendered in Python for every choice. Free-form edits need a
kernel: their observers re-render those views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import ipywidgets as widgets
import numpy as np

from gatherlab.widgets import _html
from gatherlab.widgets._parse import ParseError, parse_tensor, same_tensor

EDIT_NOTE = (
    "Editing needs a running notebook (make lab); on the online page the choices "
    "above work without one."
)


class Explorer(widgets.VBox):
    """A chapter's explorer: a VBox whose text form is short and the same on every run.

    ``links`` are the browser-side links the static book relies on; ``apply_links`` does
    in Python what the browser does with them, for headless tests and benchmarks.
    """

    def __init__(
        self,
        explorer_name: str,
        chapter: int,
        children: Sequence[widgets.Widget],
        links: Sequence[widgets.Widget],
        describe: Callable[[], str],
    ) -> None:
        super().__init__(children=tuple(children))
        self.explorer_name = explorer_name
        self.chapter = chapter
        self.links = list(links)
        self._describe = describe

    def __repr__(self) -> str:
        name, chapter = self.explorer_name, self.chapter
        return f"{name} explorer (chapter {chapter}): {self._describe()}"

    def apply_links(self) -> None:
        """Copy every linked choice to its Stack, as ``jslink`` does in a browser."""
        for link in self.links:
            (source, source_trait), (target, target_trait) = link.source, link.target
            setattr(target, target_trait, getattr(source, source_trait))


def choice(
    labels: Sequence[str], description: str, dropdown: bool = False
) -> widgets.Widget:
    """ToggleButtons (or a Dropdown for long lists) whose ``index`` picks a view."""
    options = [(label, k) for k, label in enumerate(labels)]
    if dropdown:
        return widgets.Dropdown(options=options, value=0, description=description)
    buttons = widgets.ToggleButtons(options=options, value=0, description=description)
    buttons.style.button_width = "auto"
    return buttons


def show_choices(
    control: widgets.Widget,
    labels: Sequence[str],
    linked: Sequence[tuple[widgets.Stack, Sequence[str]]],
) -> None:
    """New labels for a choice and new views for the Stacks linked to it.

    The Stacks get their views first, so a browser following the link never selects a
    view a Stack does not have yet; the chosen position stays when it still exists.
    """
    current = control.index
    keep = current if current is not None and current < len(labels) else 0
    for views_stack, views in linked:
        show_views(views_stack, views, keep)
    options = tuple((label, k) for k, label in enumerate(labels))
    if tuple(control.options) != options:
        control.options = options
        control.value = keep


def stack(views: Sequence[str], selected: int = 0) -> widgets.Stack:
    """A Stack showing one HTML view per choice (equal views share one widget)."""
    views_stack = widgets.Stack(selected_index=None)
    show_views(views_stack, views, selected)
    return views_stack


def show_views(
    views_stack: widgets.Stack, views: Sequence[str], selected: int = 0
) -> None:
    """Point a Stack at ``views``; reused HTML widgets send nothing when unchanged.

    Equal views share one widget: the Stack in the browser shows one child at a time and
    an invalid call's message, repeated for every choice, is saved once.
    """
    pool = list(dict.fromkeys(views_stack.children))
    shown: dict[str, widgets.HTML] = {}
    children = []
    for view in views:
        if view not in shown:
            html_widget = pool.pop(0) if pool else widgets.HTML()
            html_widget.value = _html.styled(view)
            shown[view] = html_widget
        children.append(shown[view])
    target = min(selected, len(children) - 1) if children else None
    if tuple(children) != views_stack.children:
        current = views_stack.selected_index
        if current is not None and current >= len(children):
            views_stack.selected_index = target  # valid before and after the change
        views_stack.children = tuple(children)
    for unused in pool:
        unused.close()
    views_stack.selected_index = target


def link(control: widgets.Widget, views_stack: widgets.Stack) -> widgets.Widget:
    """Link a choice to a Stack in the browser (no kernel needed); align them now."""
    views_stack.selected_index = control.index
    return widgets.jslink((control, "index"), (views_stack, "selected_index"))


def read_edit(
    text: str, status: widgets.HTML, current: np.ndarray
) -> np.ndarray | None:
    """The tensor the reader typed, or None when there is nothing to recompute: text
    that cannot be read (the reason goes to ``status``) or the tensor already shown."""
    try:
        candidate = parse_tensor(text)
    except ParseError as error:
        status.value = _html.error(str(error))
        return None
    if same_tensor(candidate, current):
        status.value = ""
        return None
    return candidate


def edit_box(description: str, value: str, width: str = "16em") -> widgets.Text:
    """A text box for a tensor; it reports when the reader presses Enter or leaves."""
    return widgets.Text(
        value=value,
        description=description,
        continuous_update=False,
        layout=widgets.Layout(width=width),
    )


def edit_note() -> widgets.HTML:
    """The one line saying edits need a kernel while the choices do not."""
    return widgets.HTML(_html.note(EDIT_NOTE))
