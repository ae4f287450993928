"""docs/architecture.md stays the map: its module table names every module of infotree/ and
no module that is gone."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "infotree"


def test_the_module_table_names_every_module():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = doc[doc.index("## Modules"):]
    table = table[:table.index("\n## ", 1)]
    listed = set(re.findall(r"^\| `([\w/]+\.py)` \|", table, re.M))
    modules = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
               if p.name != "__main__.py" and not (p.name == "__init__.py" and len(p.read_text().splitlines()) < 3)}
    assert not modules - listed, f"modules missing from docs/architecture.md: {sorted(modules - listed)}"
    assert not listed - modules, f"modules listed but gone: {sorted(listed - modules)}"
