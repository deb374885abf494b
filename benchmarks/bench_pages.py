"""Weigh and time the built book's chapter pages in headless Chromium, offline.

Run: ``.venv/bin/python benchmarks/bench_pages.py [--html _build/html] [--loads 5]``
(build the book first with ``make book``, or point ``--html`` at another build to
compare). Every page is loaded cold (a fresh browser context each time) from a local
server with every other host blocked. For each chapter page it prints:

- the bytes transferred for the page and everything it loaded once read to its end
  (figures load as they near the screen), as served plainly and
  as a static host serves them, with gzip for text (``--gzip``; GitHub Pages, Netlify
  and nginx defaults all compress HTML, CSS and JavaScript), and the number of
  requests;
- the median time from navigation start until its first explorer is interactive (its
  view drawn and its first control in the page), with the main thread's CPU time
  until then, which on a busy machine says more than wall time;
- the same for every explorer of the page;
- with ``--slow``, the same loads on the slow profile (Chromium's DevTools throttling:
  CPU 4x slower, 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip), where the time
  to first text (first contentful paint) is the figure to watch.

Targets (issue 23): at most 800 KB and 20 requests per chapter page uncompressed, text
within 2.5 s on the slow profile. Reported, never asserted: load times depend on the
machine and on what else runs on it. benchmarks/pages.md keeps the figures measured.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import http.server
import statistics
import threading
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHAPTERS = (
    "notebooks/01_gather_2d",
    "notebooks/02_batched_selection",
    "notebooks/03_choosing_an_op",
    "notebooks/04_error_cases",
    "notebooks/05_autograd",
    "notebooks/06_writing_by_index",
)
VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'
# The first explorer is interactive once a control of it is in the page: the new
# explorers (.gl-x) and the widget-manager ones of older builds (.widget-subarea).
FIRST_READY = """() => {
    const root = document.querySelector('.gl-x, .widget-subarea');
    return root && root.querySelector('button, select, input') ? performance.now()
        : false;
}"""
ALL_READY = f"""() => {{
    const expected = document.querySelectorAll('{VIEW}').length;
    const roots = [...document.querySelectorAll('.gl-x, .widget-subarea')];
    return roots.length >= expected &&
        roots.every(r => r.querySelector('button, select, input')) ? performance.now()
        : false;
}}"""


# The slow profile: Lighthouse's "slow 4G" figures, as DevTools applies them.
SLOW_NETWORK = {
    "offline": False,
    "latency": 150,  # ms added to each request's round trip
    "downloadThroughput": 1.6e6 / 8,  # bytes per second
    "uploadThroughput": 750e3 / 8,
}
SLOW_CPU_RATE = 4
FIRST_TEXT = """() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    return paint ? paint.startTime : false;
}"""


TEXT = (".html", ".js", ".css", ".json", ".svg", ".txt")


def serve(folder: Path, compress: bool) -> tuple[http.server.ThreadingHTTPServer, str]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            path = Path(self.translate_path(self.path))
            wants = "gzip" in self.headers.get("Accept-Encoding", "")
            if not (compress and wants and path.suffix in TEXT and path.is_file()):
                super().do_GET()
                return
            body = gzip.compress(path.read_bytes())
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(path)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}/"


def settled(page, started: set[str], sizes: dict[str, float]) -> None:
    """Wait until every request has finished and none started for a second
    (Playwright's networkidle never came on the slow profile once figures load lazily).
    """
    quiet_since, seen = time.monotonic(), 0
    while time.monotonic() - quiet_since < 1:
        if len(started) != seen or not started <= sizes.keys():
            quiet_since, seen = time.monotonic(), len(started)
        page.wait_for_timeout(100)


def load(browser, base: str, page_path: str, slow: bool) -> dict[str, float]:
    """One cold load: bytes, requests, first text, first and all explorers
    interactive (s), CPU (s)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Performance.enable")
    if slow:
        cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU_RATE})
    sizes: dict[str, float] = {}
    started: set[str] = set()
    # A data: URL (the icon font inside lean.css) is no request: none goes out.
    cdp.on(
        "Network.requestWillBeSent",
        lambda event: (
            event["request"]["url"].startswith("data:")
            or started.add(event["requestId"])
        ),
    )
    cdp.on(
        "Network.loadingFinished",
        lambda event: (
            event["requestId"] in started
            and sizes.__setitem__(event["requestId"], event["encodedDataLength"])
        ),
    )
    cdp.on("Network.loadingFailed", lambda event: started.discard(event["requestId"]))
    page.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith(base) else route.abort()
        ),
    )
    page.goto(base + page_path + ".html", wait_until="commit")
    text = page.wait_for_function(FIRST_TEXT, polling="raf", timeout=60_000)
    text_s = text.json_value() / 1000
    first = page.wait_for_function(FIRST_READY, polling="raf", timeout=60_000)
    first_s = first.json_value() / 1000
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    cpu_s = next(m["value"] for m in metrics if m["name"] == "ThreadTime")
    every = page.wait_for_function(ALL_READY, polling="raf", timeout=60_000)
    all_s = every.json_value() / 1000
    # Read to the end: figures load as they near the screen, and count.
    page.evaluate(
        """async () => {
            for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
                scrollTo(0, y);
                await new Promise((done) => setTimeout(done, 50));
            }
        }"""
    )
    settled(page, started, sizes)
    context.close()
    return {
        "bytes": sum(sizes.values()),
        "requests": len(sizes),
        "text_s": text_s,
        "first_s": first_s,
        "cpu_s": cpu_s,
        "all_s": all_s,
    }


def waterfall(browser, base: str, page_path: str) -> None:
    """One cold load on the slow profile: each request's priority, start and end (s
    from navigation) and size, and which ended before the first text (first
    contentful paint): what shared the link with the text."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": SLOW_CPU_RATE})
    rows: dict[str, dict] = {}

    def sent(event: dict) -> None:
        rows[event["requestId"]] = {
            "url": event["request"]["url"].removeprefix(base),
            "priority": event["request"].get("initialPriority", ""),
            "start": event["timestamp"],
        }

    def finished(event: dict) -> None:
        if event["requestId"] in rows:
            rows[event["requestId"]]["end"] = event["timestamp"]
            rows[event["requestId"]]["bytes"] = event["encodedDataLength"]

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    page.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith(base) else route.abort()
        ),
    )
    page.goto(base + page_path + ".html", wait_until="commit")
    text_s = page.wait_for_function(FIRST_TEXT, polling="raf").json_value() / 1000
    page.wait_for_function(FIRST_READY, polling="raf", timeout=60_000)
    settled(page, set(rows), {k: 0 for k, r in rows.items() if "end" in r})
    context.close()
    zero = min(r["start"] for r in rows.values())
    print(f"{page_path}: first text at {text_s:.2f} s")
    for row in sorted(rows.values(), key=lambda r: r["start"]):
        end = row.get("end", float("nan")) - zero
        mark = "before text" if end <= text_s else ""
        size = row.get("bytes", 0) / 1e3
        print(
            f"  {row['start'] - zero:6.2f} {end:6.2f} {size:6.1f} KB"
            f" {row['priority']:<8} {row['url'][:60]:<60} {mark}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--html", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--loads", type=int, default=5)
    parser.add_argument("--gzip", action="store_true", help="compress text responses")
    parser.add_argument("--slow", action="store_true", help="the slow profile")
    parser.add_argument(
        "--waterfall",
        action="store_true",
        help="one slow load of each chapter, request by request, instead",
    )
    args = parser.parse_args()
    server, base = serve(args.html, args.gzip)
    if args.waterfall:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
            )
            for page_path in CHAPTERS:
                waterfall(browser, base, page_path)
            browser.close()
        server.shutdown()
        return
    header = (
        f"{'page':<32} {'KB':>6} {'reqs':>5} {'text s':>7} {'first s':>8} "
        f"{'CPU s':>6} {'all s':>6}  (median of {args.loads} cold loads)"
    )
    served = "gzip for text" if args.gzip else "uncompressed"
    profile = ", slow profile" if args.slow else ""
    print(f"{args.html} ({served}{profile})\n{header}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--headless", "--no-sandbox"]
        )
        for page_path in CHAPTERS:
            loads = [
                load(browser, base, page_path, args.slow) for _ in range(args.loads)
            ]
            median = {k: statistics.median(x[k] for x in loads) for k in loads[0]}
            print(
                f"{page_path:<32} {median['bytes'] / 1e3:>6.0f} "
                f"{median['requests']:>5.0f} {median['text_s']:>7.2f} "
                f"{median['first_s']:>8.2f} {median['cpu_s']:>6.2f} "
                f"{median['all_s']:>6.2f}"
            )
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
