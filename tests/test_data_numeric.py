"""Tests of numeric columns in infotree.data: exact Fractions, ranks as codes, canonical text."""

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infotree.data import codes as codes_module
from infotree.data import csvfile
from infotree.data import numbers as numbers_module
from infotree.data import Dataset, from_arrays, from_records, load, read_arff, read_csv
from infotree.errors import DataError, InfotreeError

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
WEATHER_NUMERIC_ARFF = (DATA / "weather.numeric.arff").read_bytes()
WEATHER_NUMERIC_CSV = (DATA / "weather.numeric.csv").read_bytes()
TEMPERATURES = (64, 65, 68, 69, 70, 71, 72, 75, 80, 81, 83, 85)
HUMIDITIES = (65, 70, 75, 80, 85, 86, 90, 91, 95, 96)


def csv_file(tmp_path, text, name="n.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- numbers, text and ranks -------------------------------------------------

def test_exact_values_canonical_text_and_ranks(tmp_path):
    """Decimal text reads exactly; codes are ranks; the domain is the canonical text of each number."""
    p = csv_file(tmp_path, "x,c\n2.45\na\n75\nb\n-0.5\na\n0.001\nb\n1200\na\n".replace("\na\n", ",a\n")
                 .replace("\nb\n", ",b\n"))
    ds = read_csv(p, numeric=["x"])
    assert ds.kinds == ("numeric",)
    assert ds.numbers == ((Fraction(-1, 2), Fraction(1, 1000), Fraction(49, 20), Fraction(75), Fraction(1200)),)
    assert ds.domains == (("-0.5", "0.001", "2.45", "75", "1200"),)
    assert ds.X[:, 0].tolist() == [2, 3, 0, 1, 4]
    assert ds.numbers[0][ds.X[0, 0]] == Fraction(49, 20)


def test_equal_numbers_written_differently_are_one_value(tmp_path):
    """75, 75.0, 7.5e1, +75 and 750E-1 are the same number: one domain entry '75'."""
    p = csv_file(tmp_path, "x,c\n75,a\n75.0,b\n7.5e1,a\n+75,b\n750E-1,a\n 75.000 ,b\n.5,a\n-0,b\n0.0,a\n")
    ds = read_csv(p, numeric=["x"])
    assert ds.domains == (("0", "0.5", "75"),)
    assert ds.X[:, 0].tolist() == [2, 2, 2, 2, 2, 2, 1, 0, 0]


@pytest.mark.parametrize("number, text", [
    (Fraction(75), "75"), (Fraction(49, 20), "2.45"), (Fraction(-1, 2), "-0.5"), (Fraction(1, 1000), "0.001"),
    (Fraction(1200), "1200"), (Fraction(0), "0"), (Fraction(1, 3), "1/3"), (Fraction(-7, 6), "-7/6"),
    (Fraction(1, 1024), "0.0009765625"), (Fraction(10) ** 40, "1" + "0" * 40), (Fraction(-1, 8), "-0.125")])
def test_number_text(number, text):
    """Canonical text: the exact decimal without superfluous zeros or exponent, else p/q."""
    assert numbers_module._number_text(number) == text


@pytest.mark.parametrize("text, value", [
    ("2.45", Fraction(49, 20)), ("-0.5", Fraction(-1, 2)), (".5", Fraction(1, 2)), ("+3", Fraction(3)),
    ("1e3", Fraction(1000)), ("1E-3", Fraction(1, 1000)), ("0e9999", Fraction(0)), ("007", Fraction(7)),
    ("1" * 40, Fraction(int("1" * 40))), ("1" * 40 + "000", Fraction(int("1" * 40 + "000"))),
    ("1e400", Fraction(10) ** 400), ("1e-400", Fraction(1, 10 ** 400)), ("0.01e402", Fraction(10) ** 400),
    ("1" * 41, "range"), ("1e401", "range"), ("1e-401", "range"), ("1e99999", "range"), ("10e400", "range"),
    ("1.", "nan"), ("inf", "nan"), ("nan", "nan"), ("0x10", "nan"), ("1_000", "nan"), ("1/2", "nan"),
    ("١٢", "nan"), ("", "nan"), ("e5", "nan"), ("1e", "nan"), ("--1", "nan"), ("1 2", "nan")])
def test_parse_decimal(text, value):
    """The accepted grammar and its bounds; never a float, never an unbounded power of ten."""
    assert numbers_module._parse_decimal(text) == value


@settings(max_examples=300, deadline=None)
@given(st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(
    lambda d: d.is_zero() or (len("".join(map(str, d.as_tuple().digits)).strip("0")) <= 40
                              and abs(d.adjusted()) <= 400)))
def test_decimal_text_round_trips_exactly(tmp_path_factory, d):
    """Any decimal written as text (plain or with an exponent) reads back as the same Fraction."""
    folder = tmp_path_factory.mktemp("rt")
    texts = [str(d), format(d, "f") if abs(d.adjusted()) < 60 else str(d), format(d, "e")]
    p = csv_file(folder, "x,c\n" + "".join(f"{t},k\n" for t in texts))
    ds = read_csv(p, numeric=["x"])
    assert ds.numbers == ((Fraction(d),),) and ds.X[:, 0].tolist() == [0, 0, 0]
    assert numbers_module._parse_decimal(ds.domains[0][0]) == Fraction(d)  # the canonical text reads back too


# ---- which columns are numeric -------------------------------------------------

def test_default_keeps_csv_nominal(tmp_path):
    """By default a CSV column of numbers (a 0/1 column too) stays nominal, as before."""
    p = csv_file(tmp_path, "a,b,c\n1,0,x\n0,2.5,y\n1,10,x\n")
    ds = read_csv(p)
    assert ds.kinds == ("nominal", "nominal") and ds.numbers == (None, None)
    assert ds.domains == (("1", "0"), ("0", "2.5", "10"))
    assert ds.X.tolist() == [[0, 0], [1, 1], [0, 2]]


def test_auto_detects_numeric_columns_but_not_the_target(tmp_path):
    """numeric='auto' makes every all-number feature numeric; the target stays nominal even if numeric."""
    p = csv_file(tmp_path, "a,b,s,c\n1,0,x,1\n0,2.5,y,2\n1,10,3,1\n")
    ds = read_csv(p, numeric="auto")
    assert ds.kinds == ("numeric", "numeric", "nominal")
    assert ds.domains == (("0", "1"), ("0", "2.5", "10"), ("x", "y", "3"))
    assert ds.X.tolist() == [[1, 0, 0], [0, 1, 1], [1, 2, 2]]
    assert ds.classes == ("1", "2")


def test_auto_on_weather_numeric_csv():
    """The Weka weather.numeric CSV: temperature and humidity are numeric under auto."""
    ds = load(DATA / "weather.numeric.csv", numeric="auto")
    assert ds.kinds == ("nominal", "numeric", "numeric", "nominal")
    assert ds.numbers[1] == tuple(map(Fraction, TEMPERATURES))
    assert ds.numbers[2] == tuple(map(Fraction, HUMIDITIES))
    assert load(DATA / "weather.numeric.csv").kinds == ("nominal",) * 4


def test_auto_with_missing_values(tmp_path):
    """Under auto, missing cells do not stop a column being numeric; a column of only missing stays nominal."""
    p = csv_file(tmp_path, "a,m,c\n1,?,x\n?,?,y\n2,,x\n")
    ds = read_csv(p, numeric="auto", on_missing="keep")
    assert ds.kinds == ("numeric", "nominal") and ds.X.tolist() == [[0, -1], [-1, -1], [1, -1]]
    # with on_missing='value', '?' is a value, so the column is not all numbers and stays nominal
    assert read_csv(p, numeric="auto", on_missing="value").kinds == ("nominal", "nominal")


def test_numeric_and_categorical_lists():
    """numeric=[...] adds numeric columns; categorical=[...] keeps a declared numeric attribute nominal."""
    ds = read_arff(DATA / "weather.numeric.arff", categorical=["humidity"])
    assert ds.kinds == ("nominal", "numeric", "nominal", "nominal")
    assert ds.domains[2] == ("85", "90", "86", "96", "80", "70", "65", "95", "75", "91")  # order of appearance
    ds = read_csv(DATA / "weather.numeric.csv", numeric=["temperature"])
    assert ds.kinds == ("nominal", "numeric", "nominal", "nominal")
    ds = read_csv(DATA / "weather.numeric.csv", numeric="auto", categorical=["humidity", "temperature"])
    assert ds.kinds == ("nominal",) * 4


def test_weather_numeric_arff():
    """Weka's weather.numeric.arff: declared numeric attributes, exact numbers, ranks as codes."""
    ds = load(DATA / "weather.numeric.arff")
    assert ds.features == ("outlook", "temperature", "humidity", "windy") and ds.classes == ("yes", "no")
    assert ds.kinds == ("nominal", "numeric", "numeric", "nominal")
    assert ds.numbers[1] == tuple(map(Fraction, TEMPERATURES)) and ds.numbers[3] is None
    assert ds.domains[1] == tuple(map(str, TEMPERATURES))
    assert [ds.numbers[1][c] for c in ds.X[:, 1]][:3] == [85, 80, 83]
    assert ds.column_values("humidity")[:4] == [85, 90, 86, 96]
    assert ds.X[:, 1].tolist() == [11, 8, 10, 4, 2, 1, 0, 6, 3, 7, 7, 6, 9, 5]
    csv = load(DATA / "weather.numeric.csv", numeric="auto")
    assert csv.numbers == ds.numbers and (csv.X[:, 1:3] == ds.X[:, 1:3]).all()  # windy: declared vs appearance order


def test_labor_arff_and_csv_with_missing():
    """Weka's labor data: 8 numeric features with missing values, kept as -1."""
    ds = load(DATA / "labor.arff", on_missing="keep")
    assert ds.n_rows == 57 and ds.n_features == 16 and ds.classes == ("bad", "good")
    assert ds.kinds.count("numeric") == 8
    numeric = [j for j, k in enumerate(ds.kinds) if k == "numeric"]
    assert [ds.features[j] for j in numeric] == [
        "duration", "wage-increase-first-year", "wage-increase-second-year", "wage-increase-third-year",
        "working-hours", "standby-pay", "shift-differential", "statutory-holidays"]
    assert (ds.X[:, numeric] == -1).any() and (ds.X == -1).sum() > 0
    assert ds.column_values("wage-increase-first-year")[:3] == [5, Fraction(9, 2), None]
    csv = load(DATA / "labor.csv", on_missing="keep", numeric="auto")
    numeric_codes = [j for j, k in enumerate(ds.kinds) if k == "numeric"]
    assert csv.kinds == ds.kinds and csv.numbers == ds.numbers
    assert (csv.X[:, numeric_codes] == ds.X[:, numeric_codes]).all()
    with pytest.raises(DataError) as e:
        load(DATA / "labor.arff")
    assert str(e.value).endswith("missing value '?'; missing values are refused by default "
                                 "(allowed: on_missing='keep')")


@pytest.mark.parametrize("word", ["numeric", "REAL", "Integer"])
def test_arff_numeric_types(tmp_path, word):
    """numeric, real and integer (any case) are numeric attributes, with comments allowed after them."""
    p = tmp_path / "n.arff"
    p.write_text(f"@relation r\n@attribute x {word} % a comment\n@attribute c {{a, b}}\n@data\n3, a\n1.5, b\n3.0, b\n")
    ds = read_arff(p)
    assert ds.kinds == ("numeric",) and ds.domains == (("1.5", "3"),) and ds.X.tolist() == [[1], [0], [1]]


def test_arff_declared_types_decide_under_auto(tmp_path):
    """In ARFF the declarations decide: numeric='auto' leaves a nominal {1, 2} attribute nominal."""
    p = tmp_path / "n.arff"
    p.write_text("@relation r\n@attribute x {2, 1}\n@attribute t real\n@attribute c {a, b}\n@data\n1, 3, a\n2, 4, b\n")
    for numeric in (None, "auto"):
        ds = read_arff(p, numeric=numeric)
        assert ds.kinds == ("nominal", "numeric") and ds.domains == (("2", "1"), ("3", "4"))
    assert read_arff(p, numeric=["x"]).domains == (("1", "2"), ("3", "4"))


def test_arff_quoted_numbers_and_missing(tmp_path):
    """A quoted number is still a number; an unquoted ? is missing."""
    p = tmp_path / "n.arff"
    p.write_text("@relation r\n@attribute x numeric\n@attribute c {a, b}\n@data\n'3', a\n?, b\n 2 ,'b'\n")
    ds = read_arff(p, on_missing="keep")
    assert ds.domains == (("2", "3"),) and ds.X.tolist() == [[1], [-1], [0]]


def test_arff_numeric_class_made_categorical(tmp_path):
    """categorical= can turn a numeric class attribute into classes, in order of first appearance."""
    p = tmp_path / "n.arff"
    p.write_text("@relation r\n@attribute a {x, y}\n@attribute n numeric\n@data\nx, 2\ny, 1\nx, 2.0\n")
    ds = read_arff(p, categorical=["n"])
    assert ds.classes == ("2", "1", "2.0") and ds.y.tolist() == [0, 1, 2]


# ---- missing values in numeric columns --------------------------------------

def test_missing_in_numeric_column_under_each_on_missing(tmp_path, monkeypatch):
    """reject refuses (naming keep), keep gives -1, value refuses: '?' cannot be a number."""
    monkeypatch.chdir(tmp_path)
    csv_file(tmp_path, "t,c\n1,a\n?,b\n3,a\n", "w.csv")
    with pytest.raises(DataError) as e:
        read_csv("w.csv", numeric=["t"])
    assert str(e.value) == ("w.csv line 3, column 't': missing value '?'; missing values are refused by default "
                            "(allowed: on_missing='keep')")
    ds = read_csv("w.csv", numeric=["t"], on_missing="keep")
    assert ds.X.tolist() == [[0], [-1], [1]] and ds.domains == (("1", "3"),)
    assert ds.column_values(0) == [1, None, 3]
    with pytest.raises(DataError) as e:
        read_csv("w.csv", numeric=["t"], on_missing="value")
    assert str(e.value) == ("w.csv line 3, column 't': missing value '?' in a numeric column; on_missing='value' "
                            "cannot make it a number (use on_missing='keep', or categorical=['t'] to read the "
                            "column as categories)")
    assert read_csv("w.csv", on_missing="value").domains == (("1", "?", "3"),)  # nominal: '?' is a value


# ---- in memory ---------------------------------------------------------------

def test_in_memory_numbers():
    """Ints, floats (by their shortest text), Decimals and Fractions are numbers; bools are not."""
    records = [{"i": 1, "f": 0.1, "d": Decimal("2.50"), "q": Fraction(1, 3), "b": True, "s": "7.5e1", "c": "x"},
               {"i": np.int64(2), "f": 1e16, "d": Decimal("1E+3"), "q": Fraction(1, 2), "b": False, "s": "75",
                "c": "y"},
               {"i": 1, "f": float("nan"), "d": None, "q": 2, "b": True, "s": None, "c": "x"}]
    ds = from_records(records, numeric="auto", on_missing="keep")
    assert ds.kinds == ("numeric", "numeric", "numeric", "numeric", "nominal", "numeric")
    assert ds.numbers[1] == (Fraction(1, 10), Fraction(10 ** 16))
    assert ds.numbers[2] == (Fraction(5, 2), Fraction(1000))
    assert ds.numbers[3] == (Fraction(1, 3), Fraction(1, 2), Fraction(2))
    assert ds.domains[3] == ("1/3", "0.5", "2") and ds.domains[4] == ("True", "False")
    assert ds.X.tolist() == [[0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 0], [0, -1, -1, 2, 0, -1]]


def test_arrays_numeric():
    """from_arrays with float and int columns; named numeric columns; the rest stays nominal."""
    X = np.array([[0.5, 1.0], [0.25, 2.0], [0.5, np.nan]])
    ds = from_arrays(X, ["a", "b", "a"], numeric=["x0"], on_missing="keep")
    assert ds.kinds == ("numeric", "nominal") and ds.domains == (("0.25", "0.5"), ("1.0", "2.0"))
    assert ds.X.tolist() == [[1, 0], [0, 1], [1, -1]]
    ds = from_arrays(np.array([[3, 1], [1, 1]]), ["a", "b"], numeric="auto")
    assert ds.numbers == ((Fraction(1), Fraction(3)), (Fraction(1),))


def test_in_memory_non_number_in_numeric_column():
    """A bool or inf in a column named numeric is an error naming the row."""
    with pytest.raises(DataError) as e:
        from_records({"t": [1.5, True], "c": ["a", "b"]}, numeric=["t"])
    assert str(e.value) == ("row 1, column 't': value 'True' is not a number; a numeric column takes decimal "
                            "numbers such as 75, -2.45 or 1.5e3 (or categorical=['t'] to read its values as categories)")
    with pytest.raises(DataError) as e:
        from_records({"t": [1.5, float("inf")], "c": ["a", "b"]}, numeric=["t"])
    assert str(e.value).startswith("row 1, column 't': value 'inf' is not a number;")
    assert from_records({"t": [1.5, float("inf")], "c": ["a", "b"]}, numeric="auto").kinds == ("nominal",)


# ---- Dataset methods -----------------------------------------------------------

def test_subset_keeps_kinds_and_numbers():
    """subset() carries kinds and numbers over, with the same ranks."""
    ds = load(DATA / "weather.numeric.arff")
    sub = ds.subset([0, 6])
    assert sub.kinds == ds.kinds and sub.numbers == ds.numbers and sub.domains == ds.domains
    assert sub.column_values("temperature") == [85, 64]
    assert ds.subset(ds.y == 0).numbers == ds.numbers


def test_numeric_value_and_encode_rows():
    """numeric_value reads any new number exactly; encode_rows codes training values of numeric features."""
    ds = load(DATA / "weather.numeric.arff")
    assert ds.numeric_value("temperature", " 77.5 ") == Fraction(155, 2)
    assert ds.numeric_value(1, 0.1) == Fraction(1, 10) and ds.numeric_value(1, Fraction(1, 3)) == Fraction(1, 3)
    assert ds.numeric_value(1, 7) == 7 and ds.numeric_value(1, Decimal("7.50")) == Fraction(15, 2)
    assert [ds.numeric_value(1, v) for v in ("?", "", None, float("nan"))] == [None] * 4
    with pytest.raises(DataError) as e:
        ds.numeric_value("temperature", "hot")
    assert str(e.value) == ("feature 'temperature': value 'hot' is not a number; a numeric column takes decimal "
                            "numbers such as 75, -2.45 or 1.5e3")
    with pytest.raises(DataError) as e:
        ds.numeric_value("outlook", "1")
    assert str(e.value) == ("feature 'outlook' is nominal; numeric_value is for numeric features "
                            "(temperature, humidity)")
    with pytest.raises(DataError) as e:
        ds.numeric_value("temprature", "1")
    assert str(e.value) == ("unknown feature 'temprature'; features are: outlook, temperature, humidity, windy "
                            "(did you mean 'temperature'?)")
    rows = [{"outlook": "sunny", "temperature": "85.0", "humidity": 65, "windy": "TRUE"},
            {"outlook": "rainy", "temperature": None, "humidity": "?", "windy": "FALSE"}]
    assert ds.encode_rows(rows).tolist() == [[0, 11, 0, 0], [2, -1, -1, 1]]
    new = [["sunny", "77", "65", "TRUE"]]
    assert ds.encode_rows(new, unseen="missing").tolist() == [[0, -1, 0, 0]]
    with pytest.raises(DataError) as e:
        ds.encode_rows(new)
    assert str(e.value) == ("row 0, feature 'temperature': 77 is not one of the 12 training values of this numeric "
                            "feature (use numeric_value(1, value) for the number, or unseen='missing' for -1)")


def test_dataset_defaults_to_nominal_and_validates_numbers():
    """A hand-made Dataset is all nominal by default; numeric numbers must be ascending and match the domain."""
    ds = Dataset(("f",), "c", (("a",),), ("p",), [[0]], [0])
    assert ds.kinds == ("nominal",) and ds.numbers == (None,)
    ok = Dataset(("f",), "c", (("0.5", "2"),), ("p",), [[1]], [0], kinds=("numeric",), numbers=((Fraction(1, 2), 2),))
    assert ok.numbers == ((Fraction(1, 2), Fraction(2)),) and ok.column_values("f") == [2]
    bad = [
        (dict(kinds=("numeric",), numbers=((Fraction(2), Fraction(1, 2)),)), (("2", "0.5"),),
         "numbers of feature 'f' are not strictly ascending"),
        (dict(kinds=("numeric",), numbers=((Fraction(1, 2),),)), (("0.5", "2"),),
         "feature 'f' has 1 number but 2 domain values; expected one per number"),
        (dict(kinds=("numeric",), numbers=((Fraction(1, 2), Fraction(2)),)), (("0.50", "2"),),
         "domain value '0.50' of numeric feature 'f' is not the canonical text '0.5' of its number"),
        (dict(kinds=("numeric",), numbers=((0.5, 2.0),)), (("0.5", "2"),),
         "numbers of feature 'f' must be exact (int or Fraction)"),
        (dict(kinds=("real",)), (("0.5", "2"),), "kind of feature 'f' is 'real'; expected 'nominal' or 'numeric'"),
        (dict(kinds=("numeric",)), (("0.5", "2"),), "feature 'f' is numeric but has no numbers"),
        (dict(numbers=((Fraction(1),),)), (("1", "2"),), "feature 'f' is nominal but has numbers; expected None"),
        (dict(kinds=()), (("1", "2"),), "kinds has 0 entries and numbers 1; expected 1, one per feature"),
    ]
    for options, domains, message in bad:
        with pytest.raises(DataError) as e:
            Dataset(("f",), "c", domains, ("p",), [[1]], [0], **options)
        assert str(e.value) == message


# ---- refusals ------------------------------------------------------------------

W_ARFF = WEATHER_NUMERIC_ARFF
# (what, files, reader, path, options, message): the numeric refusals, as in test_data.BAD_FILES.
BAD_NUMERIC = [
    ("numeric: a value that is not a number (`hot`, numeric=['temperature'])",
     {"w.csv": WEATHER_NUMERIC_CSV.replace(b"sunny,80,", b"sunny,hot,")}, "read_csv", "w.csv",
     {"numeric": ["temperature"]},
     "w.csv line 3, column 'temperature': value 'hot' is not a number; a numeric column takes decimal numbers "
     "such as 75, -2.45 or 1.5e3 (or categorical=['temperature'] to read its values as categories)"),
    ("numeric: ARFF `numeric` attribute with a value `80x`",
     {"w.arff": W_ARFF.replace(b"sunny,80,", b"sunny,80x,")}, "load", "w.arff", {},
     "w.arff line 11, column 'temperature': value '80x' is not a number; a numeric column takes decimal numbers "
     "such as 75, -2.45 or 1.5e3 (or categorical=['temperature'] to read its values as categories)"),
    ("numeric: a fraction `1/2` in a file", {"w.csv": WEATHER_NUMERIC_CSV.replace(b"sunny,80,", b"sunny,1/2,")},
     "load", "w.csv", {"numeric": ["temperature"]},
     "w.csv line 3, column 'temperature': value '1/2' is not a number; a numeric column takes decimal numbers "
     "such as 75, -2.45 or 1.5e3 (or categorical=['temperature'] to read its values as categories)"),
    ("numeric: 41 significant digits", {"w.csv": WEATHER_NUMERIC_CSV.replace(b"sunny,80,", b"sunny,1" + b"2" * 40 + b",")},
     "load", "w.csv", {"numeric": ["temperature"]},
     "w.csv line 3, column 'temperature': value '1222222222222222222222222222222222222222...' is out of range; "
     "a number may have at most 40 significant digits and a decimal exponent from -400 to 400"),
    ("numeric: exponent beyond 400 (`1e401`)", {"w.csv": WEATHER_NUMERIC_CSV.replace(b"sunny,80,", b"sunny,1e401,")},
     "load", "w.csv", {"numeric": ["temperature"]},
     "w.csv line 3, column 'temperature': value '1e401' is out of range; "
     "a number may have at most 40 significant digits and a decimal exponent from -400 to 400"),
    ("numeric: a missing value (`?` on line 12)", {"w.arff": W_ARFF.replace(b"overcast,83,", b"overcast,?,")},
     "load", "w.arff", {},
     "w.arff line 12, column 'temperature': missing value '?'; missing values are refused by default "
     "(allowed: on_missing='keep')"),
    ("numeric: a missing value with `on_missing='value'`", {"w.arff": W_ARFF.replace(b"overcast,83,", b"overcast,?,")},
     "load", "w.arff", {"on_missing": "value"},
     "w.arff line 12, column 'temperature': missing value '?' in a numeric column; on_missing='value' cannot make "
     "it a number (use on_missing='keep', or categorical=['temperature'] to read the column as categories)"),
    ("numeric: an unknown name in `numeric=`", {"w.csv": WEATHER_NUMERIC_CSV}, "load", "w.csv",
     {"numeric": ["temprature"]},
     "numeric= names unknown column 'temprature' in w.csv; columns are: outlook, temperature, humidity, windy, play "
     "(did you mean 'temperature'?)"),
    ("numeric: an unknown name in `categorical=`", {"w.arff": W_ARFF}, "load", "w.arff",
     {"categorical": ["humid"]},
     "categorical= names unknown column 'humid' in w.arff; columns are: outlook, temperature, humidity, windy, play "
     "(did you mean 'humidity'?)"),
    ("numeric: a name in both lists", {"w.csv": WEATHER_NUMERIC_CSV}, "load", "w.csv",
     {"numeric": ["temperature", "humidity"], "categorical": ["humidity"]},
     "column 'humidity' is in both numeric= and categorical=; name it in one of them"),
    ("numeric: the target named in `numeric=`", {"w.csv": WEATHER_NUMERIC_CSV}, "load", "w.csv",
     {"numeric": ["play"]},
     "column 'play' is the target, and the target is always nominal; take it out of numeric="),
    ("numeric: ARFF numeric class attribute", {"w.arff": W_ARFF}, "load", "w.arff", {"target": "humidity"},
     "w.arff line 5: the class attribute 'humidity' is numeric; a decision tree needs a nominal class, as J48 does "
     "(choose another target=, or categorical=['humidity'] to read its values as classes)"),
    ("numeric: ARFF `@attribute t date`", {"w.arff": W_ARFF.replace(b"temperature numeric", b"temperature date")},
     "load", "w.arff", {},
     "w.arff line 4: attribute 'temperature' is date; only nominal {v1, v2, ...} and numeric attributes are "
     "supported (make it nominal or numeric)"),
    ("numeric: ARFF `@attribute t numeric [0,100]`",
     {"w.arff": W_ARFF.replace(b"temperature numeric", b"temperature numeric [0,100]")}, "load", "w.arff", {},
     "w.arff line 4: unexpected '[0,100]' after the type of attribute 'temperature'"),
]
READERS = {"load": load, "read_csv": read_csv, "read_arff": read_arff}


@pytest.mark.parametrize("what, files, reader, path, options, message", BAD_NUMERIC, ids=[c[0] for c in BAD_NUMERIC])
def test_bad_numeric(tmp_path, monkeypatch, what, files, reader, path, options, message):
    """Each numeric refusal is a DataError with exactly this one-line message."""
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        (tmp_path / name).write_bytes(content)
    with pytest.raises(DataError) as e:
        READERS[reader](path, **options)
    assert str(e.value) == message


BAD_OPTIONS = [
    ("read_csv('weather.csv', numeric='temperature')",
     "numeric must be None, 'auto', 'all' or a list of column names, not 'temperature'"),
    ("read_csv('weather.csv', categorical='outlook')", "categorical must be 'all' or a list of column names, not 'outlook'"),
]


@pytest.mark.parametrize("code, message", BAD_OPTIONS)
def test_bad_kind_options(code, message, monkeypatch):
    """numeric= and categorical= of the wrong type are usage errors (InfotreeError, not DataError)."""
    monkeypatch.chdir(DATA)
    with pytest.raises(InfotreeError) as e:
        eval(code, {"read_csv": read_csv})
    assert not isinstance(e.value, DataError) and str(e.value) == message


def test_docs_list_every_numeric_message():
    """docs/bad_input.md shows the message of every numeric refusal tested here."""
    doc = (ROOT / "docs" / "bad_input.md").read_text(encoding="utf-8")
    for case in BAD_NUMERIC:
        assert case[-1].replace("|", "\\|") in doc, case[0]
    for code, message in BAD_OPTIONS:
        assert message in doc, code


# ---- fast reading ----------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(2, 5).flatmap(lambda w: st.tuples(st.just(w), st.lists(
    st.lists(st.sampled_from(["a", "b", " a", "1", "1.0", "?", "", "é", "abcdefgh", "abcdefghi", "x y", "\t"]),
             min_size=w, max_size=w), min_size=1, max_size=30))))
def test_vectorised_codes_match_the_dict_codes(table):
    """_plain_codes (bytes packed into uint64, or str.split for long fields) codes as _raw_codes does."""
    width, rows = table
    lines = [",".join(r) for r in rows]
    fast = csvfile._plain_codes(lines, ",", width)
    for j in range(width):
        labels, codes = codes_module._raw_codes([r[j] for r in rows])
        assert fast[j][0] == labels and fast[j][1].tolist() == codes.tolist()


_AWKWARD = [0.0, -0.0, 1.0, -1.0, 0.1, 0.30000000000000004, 1e16, 1e-05, 1.5e-07, 123456789012345678.0,
            5e-324, 1.7976931348623157e308, -2.675, 1e22, 9007199254740993.0]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_AWKWARD), st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(-10**6, 10**6).map(lambda i: i / 1000)), min_size=1, max_size=40))
def test_float_column_read_per_distinct_value_as_cell_by_cell(values):
    """A float64 column (numbers read per distinct value, _float_numbers) gives the Dataset of
    the same floats as Python objects (each cell's text parsed): numbers, texts, ranks."""
    X = np.array([values, values[::-1]], dtype=np.float64).T
    y = [str(i % 2) for i in range(len(values))]
    fast, cells = from_arrays(X, y, numeric="auto"), from_arrays(X.astype(object), y, numeric="auto")
    assert fast.kinds == cells.kinds == ("numeric", "numeric")
    assert fast.numbers == cells.numbers and fast.domains == cells.domains
    assert fast.X.tolist() == cells.X.tolist()
    assert fast.numbers[0] == tuple(sorted({Fraction(repr(v)) for v in values}))


def test_float_column_with_a_missing_token_or_nan_takes_the_general_path():
    """A float whose text is a missing token, or a NaN, is missing as cell by cell."""
    X = np.array([[1.0, 0.5], [2.0, np.nan], [1.0, 0.25]])
    ds = from_arrays(X, ["a", "b", "a"], numeric="auto", missing=("?", "1.0"), on_missing="keep")
    assert ds.X.tolist() == [[-1, 1], [0, -1], [-1, 0]] and ds.domains == (("2",), ("0.25", "0.5"))


def test_large_plain_file_reads_like_the_csv_module(tmp_path):
    """A plain file of many rows (more than one chunk) gives the same Dataset by both splitting paths."""
    rng = np.random.default_rng(0)
    values = np.array(["b", "x", "o", "win", "long-value-here", " x", "3.25", "?"])
    table = values[rng.integers(0, len(values), size=(5000, 6))]
    table[:, -1] = values[rng.integers(0, 3, size=5000)]
    text = "a,b,c,d,e,f\n" + "\n".join(",".join(r) for r in table) + "\n"
    plain, quoted = csv_file(tmp_path, text, "p.csv"), csv_file(tmp_path, text.replace("a,b", '"a",b', 1), "q.csv")
    for options in ({"on_missing": "keep"}, {"on_missing": "value", "numeric": "auto"}):
        a, b = read_csv(plain, **options), read_csv(quoted, **options)
        assert a.domains == b.domains and a.kinds == b.kinds and (a.X == b.X).all() and (a.y == b.y).all()
