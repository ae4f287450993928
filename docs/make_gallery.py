"""Write docs/gallery.md and its pictures (docs/gallery/*.svg): every kind of picture infotree draws,
each from a data set shipped in this repository, with the command that drew it.

    python docs/make_gallery.py           # run every command, write the pictures and the page
    python docs/make_gallery.py --check   # exit 1 if a picture's texts differ from a fresh run's

``tests/test_pictures.py`` runs the check (an SVG compared by its texts in order: matplotlib
moves glyphs by points between versions).  With Chromium installed the run also takes a
screenshot of the interactive report (docs/gallery/report.png); without it the stored one stays.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
GALLERY = DOCS / "gallery"

# (file, command, what it shows); commands run from the repository root
PICTURES = [
    ("tree.svg", "infotree tree worked_examples/play_tennis/data.csv --format svg",
     "The default drawing: black, grey and white for print; each box its split (or class), n, the class "
     "counts and the measure that chose the split."),
    ("color.svg", "infotree tree worked_examples/contact_lenses/data.csv --format svg --color class --show percent",
     "`--color class`: each box filled by its majority class, paler the less pure (Okabe and Ito's "
     "colour-blind-safe palette), with a key; `--show percent` adds the node's share of all rows."),
    ("depth.svg", "infotree tree tests/data/vote.arff --missing-as-value --format svg --max-display-depth 2 --hide-empty --color class",
     "`--max-display-depth 2 --hide-empty`: the top levels of a bigger tree; a deeper subtree is one dotted box "
     "with its leaf and class counts."),
    ("cart.svg", "infotree tree tests/data/kyphosis.csv --target Kyphosis --algorithm cart --format svg "
     "--show proportions --color class",
     "A CART tree (rpart's controls) with class proportions in the boxes (`--show proportions`)."),
    ("path.svg", "infotree predict --train worked_examples/play_tennis/data.csv tests/data/weather.csv --explain "
     "--format svg --row 9 --color class",
     "One row's path (`predict --explain --format svg`, or `Tree.plot_path(row)`): drawn thick, each test's "
     "outcome and the prediction written in the boxes."),
    ("cp.svg", "infotree cptable tests/data/kyphosis.csv --target Kyphosis --cp 0 --folds 10 --plot {out}",
     "rpart's `plotcp`: the cross-validated relative error of each row of the cp table with ±1 SE bars, "
     "against cp and the tree's size, the 1-SE line dashed."),
    ("importances.svg", "infotree forest worked_examples/play_tennis/data.csv --trees 25 --plot {out}",
     "A forest's importances, each feature's spread over the trees as a box, the mean as a diamond."),
    ("confusion.svg", "infotree evaluate tests/data/vote.arff --algorithm c45 --compare --plot {out}",
     "`evaluate --plot`: the confusion matrix of each configuration compared, on the same folds."),
]


def run(command: str, out: Path) -> None:
    """Run one gallery command in-process, its picture to ``out``."""
    from infotree.cli import main

    argv = shlex.split(command)[1:]
    with tempfile.TemporaryDirectory() as tmp:
        if "{out}" in command:  # a plot beside the command's text, which goes nowhere
            argv = [a.replace("{out}", str(out)) for a in argv] + ["-o", str(Path(tmp) / "text")]
        else:
            argv += ["-o", str(out)]
        if main(argv) != 0:
            raise SystemExit(f"gallery: {command!r} failed")


def texts(svg: str) -> list[str]:
    return re.findall(r"<text\b[^>]*>([^<]*)</text>", svg) + re.findall(r"<!-- (.*?) -->", svg)


def page() -> str:
    out = ["# Gallery: every picture infotree draws\n",
           "Each picture below was drawn from a data set in this repository by the command under it "
           "(`python docs/make_gallery.py` draws them again; the tests check they are current). "
           "Drawings need `pip install 'infotree[plot]'`.\n"]
    for name, command, what in PICTURES:
        shown = command.replace("{out}", name)
        out.append(f"## {Path(name).stem}\n\n{what}\n\n```\n{shown}{'' if '{out}' in command else f' -o {name}'}\n```\n\n"
                   f"![{Path(name).stem}](gallery/{name})\n")
    out.append("## report\n\n`infotree report DATA -o report.html` (or `infotree tree DATA --format html`): one "
               "self-contained HTML file.  Its tree opens fitted to the window with the root at the top and as "
               "many levels open as fit; the wheel zooms, a drag pans, the knob under a split opens or closes its "
               "subtree, a click on a box shows that node's derivation beside the tree.  Nothing is fetched "
               "(its content security policy forbids it); without JavaScript the page shows the static drawing. "
               "Below, the 50-leaf tree of `worked_examples/gain_ratio_vs_id` as headless Chromium shows it:\n\n"
               "```\ninfotree report worked_examples/gain_ratio_vs_id/data.csv --criterion gain-ratio-plain "
               "-o report.html\n```\n\n![report](gallery/report.png)\n")
    out.append("## text formats\n\n`--format tikz` (LaTeX's forest package) and `--format dot` (Graphviz) draw the "
               "same boxes and take the same `--max-display-depth`, `--hide-empty`, `--color` and `--show`.\n")
    return "\n".join(out)


def screenshot() -> None:
    """The interactive report as Chromium shows it (skipped without Chromium)."""
    browser = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
    if browser is None:
        return
    from infotree.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.html"
        main(["report", "worked_examples/gain_ratio_vs_id/data.csv", "--criterion", "gain-ratio-plain",
              "-o", str(report)])
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--hide-scrollbars", f"--user-data-dir={Path(tmp) / 'profile'}", "--window-size=1100,760",
                        f"--screenshot={GALLERY / 'report.png'}", report.as_uri()],
                       capture_output=True, timeout=120, check=True)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    sys.path.insert(0, str(ROOT))
    old = os.getcwd()
    os.chdir(ROOT)
    try:
        if argv == ["--check"]:
            with tempfile.TemporaryDirectory() as tmp:
                for name, command, _ in PICTURES:
                    fresh = Path(tmp) / name
                    run(command, fresh)
                    if texts(fresh.read_text(encoding="utf-8")) != texts((GALLERY / name).read_text(encoding="utf-8")):
                        print(f"docs/gallery/{name} is not what {command!r} draws now; run python docs/make_gallery.py")
                        return 1
            return 0 if (DOCS / "gallery.md").read_text(encoding="utf-8") == page() else 1
        GALLERY.mkdir(exist_ok=True)
        for name, command, _ in PICTURES:
            run(command, GALLERY / name)
        (DOCS / "gallery.md").write_text(page(), encoding="utf-8")
        screenshot()
    finally:
        os.chdir(old)
    return 0


if __name__ == "__main__":
    sys.exit(main())
