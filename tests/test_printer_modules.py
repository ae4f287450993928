"""The printers stay in modules of one concept each (their imports are walked by test_imports)."""

from pathlib import Path

PRINTERS = Path(__file__).resolve().parent.parent / "infotree" / "printers"


def test_printer_modules_stay_under_600_lines():
    """No printer module over 600 lines (cells.py was 688 before the views moved to entropy.py)."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PRINTERS.glob("*.py")}
    assert len(sizes) > 20 and {k: v for k, v in sizes.items() if v > 600} == {}
