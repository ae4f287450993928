"""The report's interactive tree in a real browser (headless Chromium): it opens with the root at the
top, a click on a closed subtree's knob opens it, a click on a box shows its derivation, and with
JavaScript off the static drawing shows; in Firefox the same page draws the root where Chromium does.
Skipped where no browser is installed (Debian: ``apt-get install chromium firefox-esr``, about 30 s
and 25 s); about 2 s a page where it is."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from infotree import build_tree, load
from infotree.printers.html import write_report

ROOT = Path(__file__).resolve().parent.parent
BROWSER = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
FIREFOX = next((p for p in map(shutil.which, ("firefox-esr", "firefox")) if p), None)
chromium = pytest.mark.skipif(BROWSER is None, reason="no Chromium installed (apt-get install chromium)")

# Run after the page's own script: what a user would see and do, measured and written into the page.
SELFTEST = """<script>
(function () {
  var host = document.getElementById("infotree-tree"), out = {};
  var view = host.querySelector(".explore svg.view"), area = view.getBoundingClientRect();
  var root = host.querySelector('g.box[data-i="0"] rect').getBoundingClientRect();
  out.rootTop = (root.top - area.top) / area.height;
  out.rootInside = root.left >= area.left && root.right <= area.right && root.top >= area.top;
  out.rootText = host.querySelector('g.box[data-i="0"] text').textContent;
  out.boxes = host.querySelectorAll("g.box").length;
  out.staticHidden = host.querySelector(".static") ? host.querySelector(".static").style.display === "none" : null;
  var closed = host.querySelector('g.knob[data-open="0"]');
  out.closed = closed ? 1 : 0;
  if (closed) {
    closed.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    out.afterOpen = host.querySelectorAll("g.box").length;
  }
  host.querySelector('g.box[data-i="0"]').dispatchEvent(new MouseEvent("click", {bubbles: true}));
  var panel = host.querySelector(".panel.open h3");
  out.panel = panel ? panel.textContent : null;
  var pre = document.createElement("pre"); pre.id = "selftest"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars",
         "--window-size=1280,900"]


def browse(page: Path, tmp_path: Path, *extra) -> str:
    run = subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}", *extra, page.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout


def report(tmp_path, tree, **opts) -> Path:
    page = tmp_path / "report.html"
    with open(page, "w", encoding="utf-8") as f:
        write_report(tree, f, **opts)
    return page


def selftest(tmp_path, tree, **opts) -> dict:
    page = report(tmp_path, tree, **opts)
    text = page.read_text(encoding="utf-8")
    page.write_text(text.replace("</body>", SELFTEST + "</body>"), encoding="utf-8")
    dom = browse(page, tmp_path, "--dump-dom", "--virtual-time-budget=2000")
    m = re.search(r'<pre id="selftest">(.*?)</pre>', dom)
    assert m, dom[-2000:]
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


@chromium
def test_fifty_leaves_open_on_the_root(tmp_path):
    """The 50-leaf tree (wider than any window at full size) opens fitted: the root at the top of
    the view and inside it, the levels that fit open, the rest closed; a click on a closed knob
    opens that subtree (more boxes), a click on the root shows its derivation; the static drawing
    is hidden behind the interactive one."""
    tree = build_tree(load(ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"), criterion="gain_ratio_plain")
    out = selftest(tmp_path, tree)
    assert out["rootText"] == "tear-prod-rate"
    assert out["rootTop"] < 0.1 and out["rootInside"]
    assert out["closed"] == 1 and 1 < out["boxes"] < len(tree)
    assert out["afterOpen"] > out["boxes"]
    assert out["panel"] == "Node: root"
    assert out["staticHidden"] in (True, None)


@chromium
def test_screenshot_shows_the_root(tmp_path):
    """A screenshot: the drawing's top rows (where the root box is) hold dark pixels, drawn by the script
    (the page's static drawing is hidden)."""
    mpl = pytest.importorskip("matplotlib.image")
    tree = build_tree(load(ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"), criterion="gain_ratio_plain")
    page = report(tmp_path, tree)
    shot = tmp_path / "shot.png"
    browse(page, tmp_path, f"--screenshot={shot}", "--virtual-time-budget=2000")
    pixels = mpl.imread(shot)
    assert pixels.shape[:2] == (900, 1280)
    band = pixels[180:320, 300:980, :3]  # below the title and the tree's heading: the root's box
    assert (band.sum(axis=2) < 0.5).sum() > 500


@chromium
def test_without_javascript_the_static_drawing_shows(tmp_path):
    """With the page's script blocked (its policy set to ``script-src 'none'``, as a browser with
    JavaScript off) the page keeps the static SVG drawing, shown (not hidden), and builds no
    interactive view; the screenshot has the drawing's dark pixels where the tree goes.  With the
    script allowed, the same page hides the static drawing (the control)."""
    mpl = pytest.importorskip("matplotlib.image")
    tree = build_tree(load(ROOT / "tests" / "data" / "weather.csv"))
    page = report(tmp_path, tree)
    on = browse(page, tmp_path, "--dump-dom", "--virtual-time-budget=2000")
    assert 'class="explore"' in on and 'class="drawing static" style="display: none;"' in on
    text = page.read_text(encoding="utf-8").replace("script-src 'unsafe-inline'", "script-src 'none'")
    page.write_text(text, encoding="utf-8")
    off = browse(page, tmp_path, "--dump-dom", "--virtual-time-budget=2000")
    assert 'class="explore"' not in off and '<div class="drawing static"><svg' in off
    shot = tmp_path / "off.png"
    browse(page, tmp_path, f"--screenshot={shot}")
    assert (mpl.imread(shot)[180:400, 0:1280, :3].sum(axis=2) < 0.5).sum() > 500


@pytest.mark.skipif(FIREFOX is None, reason="no Firefox installed (apt-get install firefox-esr)")
def test_firefox_draws_the_root(tmp_path):
    """Headless Firefox runs the same script: the screenshot has the root's box where the tree starts,
    and its buttons were drawn (the script ran: the page alone has none)."""
    mpl = pytest.importorskip("matplotlib.image")
    tree = build_tree(load(ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"), criterion="gain_ratio_plain")
    page = report(tmp_path, tree)
    shot = tmp_path / "ff.png"
    run = subprocess.run([FIREFOX, "--headless", "-no-remote", "-profile", str(tmp_path), "--window-size=1280,900",
                          "--screenshot", str(shot), page.as_uri()], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    pixels = mpl.imread(shot)
    assert (pixels[180:320, 300:980, :3].sum(axis=2) < 0.5).sum() > 500  # the root box, at the top
    assert (pixels[170:200, 1040:1245, :3].sum(axis=2) < 0.5).sum() > 100  # the Fit / Open all / Close all buttons
