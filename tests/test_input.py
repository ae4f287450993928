"""Ways in: Parquet, DataFrames, --columns/--drop on every command, --version."""

import contextlib
import io
import sys
from decimal import Decimal
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pytest

import infotree
from infotree import build_tree, from_records, load
from infotree.cli import main
from infotree.errors import DataError, InfotreeError

ROOT = Path(__file__).resolve().parent.parent
WEATHER = ROOT / "tests" / "data" / "weather.csv"
IDS = ROOT / "worked_examples" / "gain_ratio_vs_id" / "data.csv"
LENSES = ROOT / "worked_examples" / "contact_lenses" / "data.csv"


def same(a, b):
    assert (a.features, a.target, a.domains, a.classes, a.kinds, a.numbers) == \
           (b.features, b.target, b.domains, b.classes, b.kinds, b.numbers)
    assert np.array_equal(a.X, b.X) and np.array_equal(a.y, b.y)


# -- --columns / --drop ---------------------------------------------------------------------

def test_drop_and_columns_in_the_reader():
    """drop= leaves a column out; columns= keeps the named ones, in the file's order; the result is
    the file without those columns, read the same way."""
    same(load(IDS, drop=["id"]), load(LENSES))
    same(load(IDS, columns=["contact-lenses", "age", "astigmatism", "tear-prod-rate", "spectacle-prescrip"]),
         load(LENSES))
    same(load(IDS, columns=["age", "id", "contact-lenses"], drop=["id"]),
         from_records(_columns(LENSES, ["age", "contact-lenses"])))


def _columns(path, names):
    import csv

    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return [{k: r[k] for k in names} for r in rows]


def test_a_dropped_column_is_never_read(tmp_path):
    """A column with missing values or bad numbers, dropped, raises nothing; kept, it does."""
    path = tmp_path / "notes.csv"
    path.write_text("a,notes,y\nx,?,p\nz,,q\nx,fine,p\n", encoding="utf-8")
    with pytest.raises(DataError, match="column 'notes': missing value"):
        load(path)
    assert load(path, drop=["notes"]).features == ("a",)
    arff = tmp_path / "n.arff"
    arff.write_text("@relation r\n@attribute a {x,z}\n@attribute n numeric\n@attribute y {p,q}\n@data\n"
                    "x,?,p\nz,?,q\n", encoding="utf-8")
    assert load(arff, drop=["n"]).features == ("a",)


def test_selection_errors():
    """Unknown names, a string for a list, and too few columns left: one line each."""
    with pytest.raises(DataError) as e:
        load(IDS, drop=["idd"])
    assert str(e.value) == (f"drop= names unknown column 'idd' in {IDS}; columns are: id, age, spectacle-prescrip, "
                            f"astigmatism, tear-prod-rate, contact-lenses (did you mean 'id'?)")
    with pytest.raises(InfotreeError, match="columns= takes a list of column names, not the string 'age'"):
        load(IDS, columns="age")
    with pytest.raises(DataError, match="keeps 1 column after columns=/drop=; need the target and at least one feature"):
        load(IDS, columns=["contact-lenses"])
    with pytest.raises(DataError, match="target= 'id' is left out by drop= in "):
        load(IDS, drop=["id"], target="id")


def test_from_records_drop():
    """In memory too: from_records(..., drop=[...])."""
    table = {"id": ["a", "b"], "x": ["0", "1"], "y": ["n", "m"]}
    assert from_records(table, drop=["id"]).features == ("x",)
    assert from_records(table, columns=["id", "y"]).features == ("id",)


@pytest.mark.parametrize("command", ["tree", "measures", "report", "predict"])
def test_drop_on_every_command(command):
    """--drop id, or --columns naming the others (twice, comma-separated), on the file with an id
    column prints what the command prints for the file without it."""
    ids, lenses = str(IDS), str(LENSES)
    base = {"tree": ["tree", "{}", "--nodes", "none"], "measures": ["measures", "{}"], "report": ["report", "{}"],
            "predict": ["predict", "--train", "{}", lenses]}[command]
    with_ids = [a.replace("{}", ids) for a in base]
    plain = run(*[a.replace("{}", lenses) for a in base])
    dropped = run(*with_ids, "--drop", "id")
    chosen = run(*with_ids, "--columns", "age,spectacle-prescrip,astigmatism", "--columns", "tear-prod-rate,contact-lenses")
    assert plain[0] == dropped[0] == chosen[0] == 0, (dropped[2], chosen[2])
    assert dropped[1] == chosen[1]
    # The report names its data file; nothing else differs.
    assert dropped[1].replace("data ", "") == plain[1].replace("data ", ""), command
    assert len(plain[1]) > 100


def test_drop_on_check(tmp_path):
    """infotree check --drop: the answers are checked against the data without the column."""
    answers = tmp_path / "a.txt"
    answers.write_text("H(contact-lenses) = 1.3261\nroot = tear-prod-rate\n", encoding="utf-8")
    code, out, err = run("check", str(answers), "--data", str(IDS), "--drop", "id")
    assert code == 0, (out, err)
    assert run("check", str(answers), "--data", str(IDS))[0] == 1  # with the id, ID3's root is the id
    code, out, err = run("check", str(answers), "--data", str(IDS), "--drop", "idd")
    # Unreadable data is bad input: exit 1 as for every command (check exited 2 before issue 25).
    assert code == 1 and err.startswith("infotree: error: --drop names unknown column 'idd'")


def test_cli_selection_errors():
    """At the command line the messages name the flags."""
    code, _, err = run("tree", str(IDS), "--drop", "idd")
    assert code == 1 and err.startswith("infotree: error: --drop names unknown column 'idd' in ")
    code, _, err = run("tree", str(IDS), "--columns", "contact-lenses")
    assert (code, err) == (1, f"infotree: error: {IDS} keeps 1 column after --columns/--drop; need the target "
                              f"and at least one feature\n")


def run(*args):
    """The command line in this process (a subprocess per call made this file slow): status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:
            code = e.code
    return code, out.getvalue(), err.getvalue()


# -- --version -----------------------------------------------------------------------------

def test_version(capsys):
    """infotree --version prints the installed distribution's version (the package's own from a source tree)."""
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    try:
        expected = version("infotree")
    except PackageNotFoundError:
        expected = infotree.__version__
    assert capsys.readouterr().out == f"infotree {expected}\n"


# -- Parquet -------------------------------------------------------------------------------

def test_missing_pyarrow(monkeypatch, tmp_path):
    """Without pyarrow a .parquet file gets a one-line error naming the extra."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(InfotreeError) as e:
        load(tmp_path / "x.parquet")
    assert str(e.value) == f"{tmp_path / 'x.parquet'}: reading Parquet needs pyarrow: pip install 'infotree[parquet]'"


def write_parquet(path, columns):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table(columns), path)


def test_parquet_strings_read_as_the_csv(tmp_path):
    """A Parquet file of the CSV's strings reads as the CSV does, and grows the same tree."""
    import csv

    with open(WEATHER, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    path = tmp_path / "weather.parquet"
    write_parquet(path, {name: [r[j] for r in rows[1:]] for j, name in enumerate(rows[0])})
    same(load(path), load(WEATHER))
    same(load(path, drop=["temperature"]), load(WEATHER, drop=["temperature"]))
    code, out, _ = run("tree", str(path), "--nodes", "none")
    assert code == 0 and out == run("tree", str(WEATHER), "--nodes", "none")[1]


def test_parquet_types(tmp_path):
    """Typed columns: ints and floats are numbers (exactly: 0.1 is 1/10, decimals as written), bools
    are values, nulls are missing (C4.5 keeps them); a dropped column is not read."""
    pa = pytest.importorskip("pyarrow")
    path = tmp_path / "typed.parquet"
    write_parquet(path, {
        "n": pa.array([1, 2, 3, None], pa.int64()),
        "f": pa.array([0.1, 2.5, 0.1, 7.0], pa.float64()),
        "d": pa.array([Decimal("1.10"), Decimal("2.00"), Decimal("1.10"), Decimal("3.25")], pa.decimal128(5, 2)),
        "b": pa.array([True, False, True, None], pa.bool_()),
        "junk": pa.array([[1], [2], [3], [4]], pa.list_(pa.int64())),
        "y": ["p", "q", "p", "q"],
    })
    ds = load(path, numeric="auto", on_missing="keep", drop=["junk"])
    assert ds.features == ("n", "f", "d", "b") and ds.kinds == ("numeric", "numeric", "numeric", "nominal")
    from fractions import Fraction

    assert ds.numbers[1] == (Fraction(1, 10), Fraction(5, 2), Fraction(7))
    assert ds.numbers[2] == (Fraction(11, 10), Fraction(2), Fraction(13, 4))
    assert ds.domains[3] == ("True", "False") and ds.X[:, 0].tolist() == [0, 1, 2, -1] and ds.X[3, 3] == -1
    with pytest.raises(DataError) as e:
        load(path, drop=["junk"])
    assert str(e.value) == f"{path} row 3, column 'n': missing value None; missing values are refused by default " \
                           f"(allowed: on_missing='keep' or on_missing='value')"


def test_parquet_not_parquet(tmp_path):
    """A file named .parquet that is not one, and a missing file: one line each."""
    pytest.importorskip("pyarrow")
    bad = tmp_path / "bad.parquet"
    bad.write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(DataError, match=r"bad.parquet is not a Parquet file pyarrow can read: "):
        load(bad)
    with pytest.raises(DataError, match=r"no such file .*nothere.parquet"):
        load(tmp_path / "nothere.parquet")
    code, _, err = run("tree", str(bad))
    assert code == 1 and err.count("\n") == 1


# -- DataFrames ----------------------------------------------------------------------------

CELLS = {"outlook": ["sunny", None, "rainy", "sunny"], "temp": [85, 80, 65, 72], "play": ["no", "no", "yes", "yes"]}


def test_polars_frame():
    """A polars DataFrame reads as the same cells given as a dict of columns (nulls missing, ints numbers)."""
    pl = pytest.importorskip("polars")
    frame = from_records(pl.DataFrame(CELLS), on_missing="keep", numeric="auto")
    same(frame, from_records(CELLS, on_missing="keep", numeric="auto"))
    assert frame.kinds == ("nominal", "numeric") and frame.X[1, 0] == -1
    assert build_tree(frame, criterion="gain_ratio").root.n == 4
    assert from_records(pl.DataFrame(CELLS), on_missing="keep", drop=["temp"]).features == ("outlook",)


def test_pandas_frame_reads_as_polars():
    """A pandas DataFrame of the same cells gives the same Dataset."""
    pd = pytest.importorskip("pandas")
    same(from_records(pd.DataFrame(CELLS), on_missing="keep", numeric="auto"),
         from_records(CELLS, on_missing="keep", numeric="auto"))


def test_parquet_columns_coded_by_arrow_read_as_their_python_values(tmp_path, monkeypatch):
    """Strings and integers without nulls (dictionary-encoded by Arrow), floats without nulls
    (a float64 array): the Dataset is the one their Python values give (to_pylist, the reader
    before), read nominal, numeric or auto, over several row groups; nulls, NaN, inf, float32,
    missing tokens and padded strings included."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    import infotree.data.parquet as reader

    rng = np.random.default_rng(4)
    n = 3000
    table = pa.table({
        "s": pa.array(rng.choice(["a", " a", "b ", "?", "é", "c"], n)),
        "ls": pa.array(rng.choice(["x", "yy", "NA", "z"], n), pa.large_string()),
        "i": pa.array(rng.integers(-50, 50, n), pa.int64()),
        "u": pa.array(rng.integers(0, 2 ** 40, n).astype(np.uint64), pa.uint64()),
        "i8": pa.array(rng.integers(-3, 3, n).astype(np.int8), pa.int8()),
        "f": pa.array(np.round(rng.normal(size=n), 2)),
        "nan": pa.array(np.where(rng.random(n) < 0.01, np.nan, rng.normal(size=n))),
        "inf": pa.array(np.where(rng.random(n) < 0.01, np.inf, 1.5)),
        "f32": pa.array(rng.normal(size=n).astype(np.float32)),
        "null_s": pa.array([None if k % 97 == 0 else str(k % 5) for k in range(n)]),
        "y": pa.array(rng.choice(["p", "q", "r"], n)),
    })
    path = tmp_path / "coded.parquet"
    pq.write_table(table, path, row_group_size=700)
    assert reader._cells(pq.read_table(path).column("s")).__class__.__name__ == "_Factorized"

    def as_before(column):
        return column.to_pylist()

    for options in (dict(on_missing="keep"), dict(numeric="auto", on_missing="keep"),
                    dict(numeric="auto", on_missing="keep", drop=["nan", "inf"]),
                    dict(numeric=["i", "u", "f", "f32"], on_missing="keep", drop=["nan", "inf"])):
        got = load(path, **options)
        with monkeypatch.context() as m:
            m.setattr(reader, "_cells", as_before)
            want = load(path, **options)
        assert (got.features, got.kinds, got.domains, got.numbers, got.classes) == \
               (want.features, want.kinds, want.domains, want.numbers, want.classes), options
        assert np.array_equal(got.X, want.X) and np.array_equal(got.y, want.y)
