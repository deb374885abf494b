"""The page's interpreter (``gatherlab/browser/interpreter``) reads Python as CPython
does.

Each snippet runs in CPython and in the page (Node, ``evaluator.mjs``'s ``run``): the
value of its last line (its repr) or the type of the exception it raises must be the
same. Snippets use Python's statements and expressions, valid and raising; none is a
syntax error in the page. ``REFUSED`` are valid Python that the page does not run: it
names the construct, never calls it a syntax error. The tensor cases, checked against
torch and TensorFlow, are ``tools/cases/evaluator_cases.py``'s (``tests/js``).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="needs node")

SNIPPETS = [
    # arithmetic, shifts and bitwise operators, augmented assignment of each
    "1 << 2, 1 << 40, 5 >> 1, -9 >> 1, 6 ^ 3, 6 & 3, 6 | 3, ~6, -7 // 2, -7 % 3",
    "x = 1\nx <<= 5\nx >>= 2\nx ^= 3\nx |= 16\nx &= 29\nx += 1\nx -= 2\nx *= 3\nx",
    "x = 7\nx //= 2\nx %= 2\nx **= 3\nx /= 4\nx",
    "2 ** -1, 2 ** 10, 7 / 2, 7.5 // 2, True + True, 3 * 'ab', [0] * 3",
    "1 << -1",
    "1.5 << 1",
    "1 / 0",
    "1 % 0",
    # starred unpacking, in assignments and for targets and displays
    "a, *b = [1, 2, 3]\na, b",
    "*a, b = (1, 2, 3)\na, b",
    "a, *b, c = range(6)\na, b, c",
    "a, *b = [1]\na, b",
    "a, *b, c = [1]",
    "first, (second, *rest) = 1, (2, 3, 4)\nfirst, second, rest",
    "out = []\nfor k, *v in [(1, 2, 3), (4, 5)]:\n    out.append((k, v))\nout",
    "[*range(3), *[7, 8]], (*'ab', 1)",
    "a, b = 1, 2, 3",
    "a, b, c = 1, 2",
    # if / elif / else, while / else, for / else, break, continue, pass
    "def sign(v):\n    if v > 0:\n        return 1\n    elif v < 0:\n"
    "        return -1\n"
    "    else:\n        return 0\n[sign(-3), sign(0), sign(5)]",
    "n = 0\nwhile n < 5:\n    n += 2\nelse:\n    n = -n\nn",
    "n = 0\nwhile True:\n    n += 1\n    if n % 2:\n        continue\n    if n > 6:\n"
    "        break\nn",
    "found = None\nfor k in range(10):\n    if k * k > 20:\n        found = k\n"
    "        break\n"
    "else:\n    found = -1\nfound",
    "for k in range(3):\n    pass\nelse:\n    k = 'done'\nk",
    "if 0: a = 1\nelif []: a = 2\nelse: a = 3\na",
    "x = 3; y = 4\nx * y",
    # defs: return, defaults, keywords, *args, keyword-only, recursion, helpers, nested
    "def f(a, b=10, *rest, scale=1):\n    return (a + b + sum(rest)) * scale\n"
    "f(1), f(1, 2), f(1, 2, 3, 4), f(1, scale=3), f(b=1, a=2)",
    "def f(n):\n    return 1 if n < 2 else n * f(n - 1)\nf(10)",
    "def helper(v):\n    return v * 2\ndef main(xs):\n"
    "    return [helper(v) for v in xs]\nmain([1, 2])",
    "def main(xs):\n    return [helper(v) for v in xs]\ndef helper(v):\n"
    "    return v + 1\nmain([1, 2])",
    "def outer(k):\n    def inner(v):\n        return v + k\n"
    "    return inner(1), inner(2)\nouter(10)",
    "def counter():\n    n = 0\n    def bump():\n        nonlocal n\n        n += 1\n"
    "        return n\n    bump()\n    return bump()\ncounter()",
    "total = 0\ndef add(v):\n    global total\n    total += v\nadd(2)\nadd(3)\ntotal",
    "def f():\n    pass\nf()",
    "def f():\n    return\nf()",
    "def f(a, b):\n    return a\nf(1)",
    "def f(a, b):\n    return a\nf(1, 2, 3)",
    "def f(a):\n    return a\nf(1, c=2)",
    "def f(a):\n    return a\nf(1, a=2)",
    "def f(*, k):\n    return k\nf()",
    "def f():\n    y = x\n    x = 1\n    return y\nf()",
    "def f():\n    return undefined_name\nf()",
    "def f(a, b=[]):\n    b.append(a)\n    return b\nf(1)\nf(2)",
    "def f(x: int, y: 'str' = 'a') -> str:\n    '''Doc string.'''\n"
    "    return y * x\nf(2)",
    # lambdas, comprehensions, generator expressions, conditional expressions, :=
    "f = lambda a, b=2: a * b\ng = lambda: 7\nf(3), f(3, b=3), g()",
    "[x * y for x in range(4) if x for y in range(x) if y != 1]",
    "[[j for j in range(i)] for i in range(3)]",
    "sum(v * v for v in range(5)), max(v % 3 for v in range(5))",
    "k = 5\n[k for k in range(2)], k",
    "'yes' if [] else 'no', 1 if 0 else 2 if 1 else 3",
    "[y for x in range(4) if (y := x * 2) > 2], y",
    "(n := 10) + n",
    # try / except / else / finally, raise, assert
    "try:\n    [1][3]\nexcept LookupError as e:\n    out = ('caught', str(e))\nout",
    "try:\n    1 / 0\nexcept (TypeError, ZeroDivisionError):\n    out = 'zero'\n"
    "else:\n    out = 'none'\nfinally:\n    out += '!'\nout",
    "try:\n    v = 1\nexcept Exception:\n    v = 2\nelse:\n    v = 3\nv",
    "try:\n    raise ValueError('bad value')\nexcept ValueError as e:\n"
    "    out = str(e)\nout",
    "try:\n    try:\n        [][0]\n    except IndexError:\n        raise\n"
    "except Exception:\n"
    "    out = 'reraised'\nout",
    "raise TypeError('no')",
    "raise ValueError('a') from None",
    "assert 1 + 1 == 2, 'math'\n'ok'",
    "assert [], 'an empty list is false'",
    # names, del, strings and their literals, calls of builtins
    "v = 1\ndel v\nv",
    "xs = [1, 2, 3]\ndel xs[1]\nxs",
    "s = 'a\\tb', r'a\\tb', 'it''s', \"q\" 'r', '''two\nlines''', \"\\x41\\u00e9\"\ns",
    "f'{1 + 2}-{\"x\"}', f'{3=}', len('abc'), 'b' in 'abc', str(1.5), repr('x')",
    "x = 'a' \\\n    'b'\nx",
    "sorted([3, 1, 2], reverse=True), sorted(['bb', 'a'], key=len), "
    "list(reversed([1, 2]))",
    "list(map(lambda v: v + 1, [1, 2])), list(filter(None, [0, 1, 2])), any([0, "
    "1]), all([])",
    "list(zip([1, 2], 'ab')), list(enumerate('ab')), divmod(-7, 2), pow(2, 5), "
    "round(2.5)",
    "xs = [3]\nxs.extend([4, 5])\nxs.insert(0, 1)\n"
    "xs.pop(), xs.pop(0), xs, xs.index(4)",
    "min(3, 1, 2), max([1, 5]), abs(-2.5), int(3.9), float(2), bool([]), "
    "list(range(2, 9, 3))",
    "[1, 2] < [1, 3], (1, 2) == (1, 2), 'a' < 'b', 1 < 2 < 3, 3 > 2 > 2",
    "x = None\nx is None, x is not None, [] == [], not []",
    "[1, 2][5]",
    "nothing_defined_here",
    "(1, 2)[0] + 'a'",
    "len(5)",
    # torch through the same statements (values as Python lists)
    "import torch\nx = torch.arange(6).reshape(2, 3)\nout = []\nfor row in x:\n"
    "    out.append(row.sum().item())\nout",
    "import torch\ndef pick(x, i):\n    out = torch.zeros_like(i)\n"
    "    for r in range(i.shape[0]):\n        for c in range(i.shape[1]):\n"
    "            out[r, c] = x[r, i[r, c]]\n    return out\n"
    "pick(torch.tensor([[1, 2], [3, 4]]), torch.tensor([[1, 1], [0, 1]])).tolist()",
    "import torch\nn, *rest = torch.zeros(2, 3, 4).shape\nn, rest",
    "import torch\nx = torch.tensor([5, 6])\nx <<= 1\nx ^= 1\nx.tolist()",
    "import torch\nx = torch.zeros(3, dtype=torch.long)\nx[torch.tensor([0, 2])] = "
    "torch.tensor([1, 2], dtype=torch.int32)",
]

# Valid Python the page does not run, with the words that name it.
REFUSED = [
    ("class A:\n    pass", "classes"),
    ("def gen():\n    yield 1", "yield"),
    ("async def f():\n    pass", "async"),
    ("@staticmethod\ndef f():\n    pass", "decorators"),
    ("import torch\ntorch.ones(2, 2) @ torch.ones(2, 2)", "the @ operator"),
    ("with open('x') as f:\n    pass", "with blocks"),
    ("{'a': 1}", "dicts and sets"),
]

DRIVER = """
import { run, repr, PyError, UnsupportedError }
  from "./gatherlab/browser/interpreter/evaluator.mjs";
const snippets = JSON.parse(await new Promise((done) => {
  let text = "";
  process.stdin.on("data", (chunk) => (text += chunk));
  process.stdin.on("end", () => done(text));
}));
const outcome = (code) => {
  try {
    return { value: repr(run(code)) };
  } catch (error) {
    if (error instanceof PyError) return { error: error.type };
    if (error instanceof UnsupportedError) return { unsupported: error.message };
    return { crash: String(error) };
  }
};
console.log(JSON.stringify(snippets.map(outcome)));
"""


def page_outcomes(snippets: list[str]) -> list[dict[str, str]]:
    """What the page's interpreter gives for each snippet, in one Node process."""
    done = subprocess.run(
        [str(NODE), "--input-type=module", "-e", DRIVER],
        input=json.dumps(snippets),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=120,
    )
    return json.loads(done.stdout)


def cpython_outcome(code: str) -> dict[str, str]:
    """The repr of the snippet's last line (after running the lines before it), or
    the type of the exception it raises, as page_outcomes words them."""
    *lines, last = code.split("\n")
    names: dict[str, object] = {}
    try:
        try:
            compile(last, "<last>", "eval")
        except SyntaxError:  # the last line is a statement: no value
            exec(code, names)  # noqa: S102
            return {"value": "None"}
        exec("\n".join(lines), names)  # noqa: S102
        value = eval(last, names)  # noqa: S307
    except Exception as error:  # every exception is an outcome to agree on
        return {"error": type(error).__name__}
    return {"value": repr(value)}


@pytest.fixture(scope="module")
def page() -> dict[str, dict[str, str]]:
    codes = SNIPPETS + [code for code, _ in REFUSED]
    return dict(zip(codes, page_outcomes(codes), strict=True))


@pytest.mark.parametrize("code", SNIPPETS)
def test_the_page_gives_what_cpython_gives(page: dict[str, dict[str, str]], code: str):
    compile(code, "<snippet>", "exec")  # valid Python, every one
    assert page[code] == cpython_outcome(code), code


@pytest.mark.parametrize(("code", "named"), REFUSED)
def test_valid_python_the_page_does_not_run_is_named(
    page: dict[str, dict[str, str]], code: str, named: str
):
    compile(code, "<snippet>", "exec")
    assert named in page[code].get("unsupported", ""), page[code]
