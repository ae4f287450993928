"""The hostile battery's answers files, seeded and bounded (issue #33): 100 sheets a run, built from the claim
forms students write and mutated (characters dropped, doubled, swapped, operators and brackets broken, Unicode
look-alikes, long runs): each gets its verdicts and nothing raises."""

import random
from pathlib import Path

import pytest

from infotree.check import VERDICTS, check_answers
from infotree.data import load

DATA = Path(__file__).resolve().parent / "data"

FORMS = [
    "H(play) = 0.940", "Entropy(S) = 0.940", "Info_outlook(D) = 0.694", "Gain(S, Outlook) = 0.2467",
    "IG(play|outlook) = 0.2467", "GR(outlook) = 0.156", "SplitInfo(outlook) = 1.577", "Gini(D) = 0.459",
    "Gini_{outlook∈{sunny,rainy}}(D) = 0.394", "ΔGini(outlook) = 0.102", "root = outlook",
    "split(outlook = sunny) = humidity", "leaf(outlook = overcast) = yes", "best split: outlook",
    "IF outlook = overcast THEN play = yes", "Entropy(S_{sunny}) = 0.971", "H(play | outlook = sunny) = 0.971",
    "Gini(play) = 1 - (9/14)^2 - (5/14)^2", "H(play) = -(9/14)log2(9/14) - (5/14)log2(5/14)",
    "At outlook = sunny:", "outlook = sunny\n|  humidity = high: no (3)\n|  humidity = normal: yes (2)",
    "outlook?\n  sunny -> humidity?\n    high -> no\n    normal -> yes\n  overcast -> yes",
    "alpha(outlook in {overcast}) = 1", "R(root) = 5", "votes(row 1) = 1/2 for yes", "R1 = {X | outlook = sunny}",
    "ŷ_R1 = 2", "best threshold for humidity = 82.5", "IG(outlook) = 0.940 - 0.694 = 0.246",
]
_LOOKALIKES = {"(": "（", ")": "）", "=": "＝", "-": "−", "|": "∣", "{": "｛", ".": "·", "2": "²"}


def _mutate(line: str, rng: random.Random) -> str:
    for _ in range(rng.randrange(1, 4)):
        if not line:
            break
        i = rng.randrange(len(line))
        kind = rng.randrange(7)
        if kind == 0:
            line = line[:i] + line[i + 1:]
        elif kind == 1:
            line = line[:i] + line[i] * rng.randrange(2, 40) + line[i + 1:]
        elif kind == 2 and i + 1 < len(line):
            line = line[:i] + line[i + 1] + line[i] + line[i + 2:]
        elif kind == 3:
            line = line[:i] + rng.choice("(){}[]|=<>≤≥∈∉_^,;:'\"#→-") + line[i:]
        elif kind == 4:
            line = line[:i] + _LOOKALIKES.get(line[i], line[i]) + line[i + 1:]
        elif kind == 5:
            line = line[:i] + rng.choice(["_{", "S_{", "IF ", " THEN ", " AND ", "->", "R1", "ŷ", "\t"]) + line[i:]
        else:
            line = line[:i] + "9" * rng.randrange(1, 60) + line[i:]
    return line


def _sheets(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        lines = []
        for _ in range(rng.randrange(3, 15)):
            form = rng.choice(FORMS)
            lines.append(_mutate(form, rng) if rng.random() < 0.7 else form)
        yield "\n".join(lines) + "\n"


@pytest.mark.parametrize("algorithm", ["id3", "cart"])
def test_mutated_answers_files_get_a_verdict_per_claim(algorithm):
    weather = load(DATA / "weather.numeric.csv", numeric="auto")
    criterion = "gain" if algorithm == "id3" else "gini"
    options = {} if algorithm == "id3" else {"min_samples_split": 2, "min_leaf": 1}
    shared = {}
    for text in _sheets(2026 if algorithm == "id3" else 2027, 50):
        report = check_answers(text, weather, criterion=criterion, tree_options=options, shared=shared)
        assert all(r.verdict in VERDICTS for r in report.results)
        assert all(r.line <= r.last_line for r in report.results)
