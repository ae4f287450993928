"""Tests of infotree.data: reading CSV/ARFF/in-memory tables into integer codes."""

import doctest
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from infotree import data as data_module
from infotree.data import csvfile
from infotree.data import Dataset, from_arrays, from_records, load, read_arff, read_csv
from infotree.errors import DataError, InfotreeError

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).parent.parent
WEATHER = (DATA / "weather.csv").read_bytes()
WEATHER_ARFF = (DATA / "weather.arff").read_bytes()
FEATURES = ("outlook", "temperature", "humidity", "windy")
WEATHER_X = [[0, 0, 0, 0], [0, 0, 0, 1], [1, 0, 0, 0], [2, 1, 0, 0], [2, 2, 1, 0], [2, 2, 1, 1], [1, 2, 1, 1],
             [0, 1, 0, 0], [0, 2, 1, 0], [2, 1, 1, 0], [0, 1, 1, 1], [1, 1, 0, 1], [1, 0, 1, 0], [2, 1, 0, 1]]
WEATHER_Y = [0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0]


def weather_with(line, text):
    """The weather CSV with file line ``line`` (1-based) replaced by ``text``."""
    lines = WEATHER.decode().split("\n")
    lines[line - 1] = text
    return "\n".join(lines).encode()


def decoded(ds):
    """The table of values (not codes) of a dataset, missing as None."""
    cols = [[d[c] if c >= 0 else None for c in ds.X[:, j]] for j, d in enumerate(ds.domains)]
    return [list(r) for r in zip(*cols, [ds.classes[c] for c in ds.y])]


# ---- reading the fixtures -------------------------------------------------

def test_weather_csv_codes_follow_first_appearance():
    """CSV codes number each column's values in order of first appearance."""
    ds = read_csv(DATA / "weather.csv")
    assert ds.features == FEATURES and ds.target == "play"
    assert ds.domains == (("sunny", "overcast", "rainy"), ("hot", "mild", "cool"),
                          ("high", "normal"), ("FALSE", "TRUE"))
    assert ds.classes == ("no", "yes")
    assert ds.X.dtype == np.int32 and ds.y.dtype == np.int32
    assert ds.X.tolist() == WEATHER_X and ds.y.tolist() == WEATHER_Y
    assert ds.lines.tolist() == list(range(2, 16))
    assert (ds.n_rows, ds.n_features, ds.notes) == (14, 4, ())
    assert ds.source == str(DATA / "weather.csv")


def test_weather_arff_codes_follow_declaration_order():
    """ARFF codes follow the declared order, which differs from appearance for windy and play."""
    ds = read_arff(DATA / "weather.arff")
    assert ds.features == FEATURES and ds.target == "play"
    assert ds.domains == (("sunny", "overcast", "rainy"), ("hot", "mild", "cool"),
                          ("high", "normal"), ("TRUE", "FALSE"))
    assert ds.classes == ("yes", "no")
    assert ds.lines.tolist() == list(range(12, 26))


def test_weather_csv_and_arff_agree():
    """CSV and ARFF weather hold the same values; codes agree where declared order is appearance order."""
    c, a = read_csv(DATA / "weather.csv"), read_arff(DATA / "weather.arff")
    assert decoded(c) == decoded(a)
    assert (c.X[:, :3] == a.X[:, :3]).all()  # outlook, temperature, humidity
    assert (c.X[:, 3] == 1 - a.X[:, 3]).all() and (c.y == 1 - a.y).all()  # windy and play are flipped


def test_contact_lenses_csv_and_arff_agree():
    """The contact-lenses CSV and ARFF give the same table; ARFF keeps its class order."""
    c, a = load(DATA / "contact-lenses.csv"), load(DATA / "contact-lenses.arff")
    assert decoded(c) == decoded(a)
    assert c.classes == ("none", "soft", "hard") and a.classes == ("soft", "hard", "none")
    assert c.features == a.features == ("age", "spectacle-prescrip", "astigmatism", "tear-prod-rate")


def test_reading_never_modifies_files():
    """Reading leaves the bytes and modification time of every fixture unchanged."""
    paths = [DATA / name for name in ("weather.csv", "weather.arff", "contact-lenses.csv", "contact-lenses.arff")]
    before = [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]
    for p in paths:
        load(p, on_missing="keep")
    assert before == [(p.read_bytes(), p.stat().st_mtime_ns) for p in paths]


def test_target_can_be_any_column():
    """A named target is taken out; the other columns stay in order."""
    ds = read_csv(DATA / "weather.csv", target="outlook")
    assert ds.features == ("temperature", "humidity", "windy", "play")
    assert ds.classes == ("sunny", "overcast", "rainy")
    assert ds.y.tolist() == [row[0] for row in WEATHER_X]


def test_unknown_target(tmp_path, monkeypatch):
    """An unknown target names the file, lists the columns and suggests the closest."""
    monkeypatch.chdir(tmp_path)
    Path("weather.csv").write_bytes(WEATHER)
    with pytest.raises(DataError) as e:
        read_csv("weather.csv", target="plya")
    assert str(e.value) == ("unknown column 'plya' in weather.csv; columns are: "
                            "outlook, temperature, humidity, windy, play (did you mean 'play'?)")


def test_data_errors_are_value_errors():
    """DataError is an InfotreeError and a ValueError, so callers may catch either."""
    with pytest.raises(ValueError):
        read_csv(DATA / "no-such-file.csv")


# ---- missing values --------------------------------------------------------

def test_missing_rejected_by_default(tmp_path, monkeypatch):
    """A missing value is refused with the file, line, column and token."""
    monkeypatch.chdir(tmp_path)
    Path("weather.csv").write_bytes(weather_with(5, "rainy,mild,?,FALSE,yes"))
    with pytest.raises(DataError) as e:
        read_csv("weather.csv")
    assert str(e.value) == ("weather.csv line 5, column 'humidity': missing value '?'; missing values are "
                            "refused by default (allowed: on_missing='keep' or on_missing='value')")


def test_missing_kept_as_minus_one(tmp_path):
    """on_missing='keep' codes missing cells -1 and leaves them out of the domain."""
    p = tmp_path / "w.csv"
    p.write_bytes(weather_with(5, "rainy,mild,?,FALSE,yes").replace(b"sunny,cool,normal", b"sunny,cool,"))
    ds = read_csv(p, on_missing="keep")
    assert ds.domains[2] == ("high", "normal")
    assert ds.X[:, 2].tolist() == [0, 0, 0, -1, 1, 1, 1, 0, -1, 1, 1, 0, 1, 0]


def test_missing_as_value(tmp_path):
    """on_missing='value' makes '?' an ordinary value in order of first appearance."""
    p = tmp_path / "w.csv"
    p.write_bytes(weather_with(5, "rainy,mild,?,FALSE,yes"))
    ds = read_csv(p, on_missing="value")
    assert ds.domains[2] == ("high", "?", "normal")
    assert ds.X[3:5, 2].tolist() == [1, 2]


def test_missing_tokens_are_configurable(tmp_path):
    """missing=('NA',) makes only 'NA' missing; '?' is then a value."""
    p = tmp_path / "m.csv"
    p.write_bytes(b"a,b\nNA,x\n?,y\n")
    ds = read_csv(p, missing=("NA",), on_missing="keep")
    assert ds.domains == (("?",),) and ds.X.tolist() == [[-1], [0]]
    assert read_csv(p, missing="NA", on_missing="keep").X.tolist() == [[-1], [0]]


@pytest.mark.parametrize("on_missing", ["reject", "keep"])
def test_missing_class_is_always_an_error(tmp_path, monkeypatch, on_missing):
    """A row without a class is refused even when missing features are kept."""
    monkeypatch.chdir(tmp_path)
    Path("weather.csv").write_bytes(weather_with(4, "overcast,hot,high,FALSE,"))
    with pytest.raises(DataError) as e:
        read_csv("weather.csv", on_missing=on_missing)
    assert str(e.value) == ("weather.csv line 4, column 'play': missing class ''; "
                            "every row needs a class, even with on_missing='keep'")


def test_missing_class_as_value(tmp_path):
    """With on_missing='value' a '?' class is an ordinary class."""
    p = tmp_path / "w.csv"
    p.write_bytes(weather_with(4, "overcast,hot,high,FALSE,?"))
    assert read_csv(p, on_missing="value").classes == ("no", "?", "yes")


def test_first_problem_in_file_order_is_reported(tmp_path, monkeypatch):
    """Of several missing cells the first in reading order (line, then column) is named."""
    monkeypatch.chdir(tmp_path)
    Path("w.csv").write_bytes(b"a,b,c\nx,?,p\n?,y,q\n")
    with pytest.raises(DataError) as e:
        read_csv("w.csv")
    assert str(e.value).startswith("w.csv line 2, column 'b': missing value '?';")


def test_bad_on_missing():
    """An unknown on_missing is a usage error listing the choices."""
    with pytest.raises(InfotreeError) as e:
        read_csv(DATA / "weather.csv", on_missing="drop")
    assert str(e.value) == "on_missing must be 'reject', 'keep' or 'value', not 'drop'"


# ---- CSV details -----------------------------------------------------------

def test_whitespace_is_stripped(tmp_path):
    """Whitespace around values and header names is removed, so ' sunny' is 'sunny'."""
    p = tmp_path / "w.csv"
    p.write_bytes(b" outlook ,\tplay\nsunny , no\n  sunny,yes \n  ,  no\n")
    ds = read_csv(p, on_missing="keep")
    assert ds.features == ("outlook",) and ds.target == "play"
    assert ds.domains == (("sunny",),) and ds.classes == ("no", "yes")
    assert ds.X.tolist() == [[0], [0], [-1]] and ds.y.tolist() == [0, 1, 0]


def test_quotes_blank_lines_and_line_numbers(tmp_path):
    """Quoted commas are values; blank lines are skipped; lines count from 1 in the file; a quoted
    line break is read, and refused as a value (every printer shows a value on one line: a
    break inside it would make a tree line say something else, issue 25)."""
    p = tmp_path / "q.csv"
    p.write_bytes(b'a,b\n\n"x, y",1\n   \n"multi line",2\r\nz,3\n\n')
    ds = read_csv(p)
    assert ds.domains == (("x, y", "multi line", "z"),)
    assert ds.lines.tolist() == [3, 5, 6]
    p.write_bytes(b'a,b\n\n"x, y",1\n   \n"multi\nline",2\r\nz,3\n\n')
    with pytest.raises(DataError) as e:
        read_csv(p)
    assert str(e.value) == (f"{p} line 5, column 'a': value 'multi\\nline' holds a line break; a value is one "
                            "line of text (a tree, its rules and its derivations print it on one line)")


def test_plain_and_quoted_splitting_agree_on_line_endings(tmp_path):
    """CRLF and CR line endings count lines as LF does, with and without quotes."""
    for eol in (b"\r\n", b"\r"):
        for cell in (b"x", b'"x"'):
            p = tmp_path / "e.csv"
            p.write_bytes(eol.join([b"a,b", b"", cell + b",1", b"y,2", b""]))
            assert read_csv(p).lines.tolist() == [3, 4]


def test_utf8_bom_is_accepted(tmp_path):
    """A UTF-8 byte order mark does not become part of the first column name."""
    p = tmp_path / "bom.csv"
    p.write_bytes(b"\xef\xbb\xbf" + WEATHER)
    assert read_csv(p).features[0] == "outlook"


def test_unicode_values(tmp_path):
    """Non-ASCII UTF-8 values are read as text."""
    p = tmp_path / "u.csv"
    p.write_bytes("météo,ok\nsoleil é,oui\npluie,non\n".encode())
    ds = read_csv(p)
    assert ds.features == ("météo",) and ds.domains == (("soleil é", "pluie"),)


def test_other_delimiter(tmp_path):
    """delimiter=';' reads semicolon-separated files."""
    p = tmp_path / "s.csv"
    p.write_bytes(WEATHER.replace(b",", b";"))
    assert read_csv(p, delimiter=";").X.tolist() == WEATHER_X


def test_load_dispatches_on_suffix(tmp_path):
    """load reads .arff as ARFF, .tsv as tab-separated and anything else as CSV."""
    (tmp_path / "w.tsv").write_bytes(WEATHER.replace(b",", b"\t"))
    (tmp_path / "w.txt").write_bytes(WEATHER)
    (tmp_path / "w.ARFF").write_bytes(WEATHER_ARFF)
    assert load(tmp_path / "w.tsv").X.tolist() == WEATHER_X
    assert load(tmp_path / "w.txt").X.tolist() == WEATHER_X
    assert load(tmp_path / "w.ARFF").classes == ("yes", "no")


def test_distinct_value_per_row(tmp_path):
    """A column with a different value in every row is an ordinary feature."""
    p = tmp_path / "id.csv"
    p.write_bytes(b"id,c\n" + b"".join(b"r%d,%s\n" % (i, b"ab"[i % 2:i % 2 + 1]) for i in range(50)))
    ds = read_csv(p)
    assert len(ds.domains[0]) == 50 and ds.X[:, 0].tolist() == list(range(50))


def test_single_class_gets_a_note(tmp_path):
    """A target with one class reads fine and says so in notes."""
    p = tmp_path / "one.csv"
    p.write_bytes(b"outlook,play\nsunny,yes\nrainy,yes\n")
    ds = read_csv(p)
    assert ds.classes == ("yes",) and ds.notes == ("target 'play' has a single class 'yes'",)


def test_bad_delimiter():
    """A multi-character delimiter is a usage error."""
    with pytest.raises(InfotreeError) as e:
        read_csv(DATA / "weather.csv", delimiter=";;")
    assert str(e.value) == "delimiter must be one character other than a quote or newline, not ';;'"


# ---- ARFF details ----------------------------------------------------------

ARFF_QUOTED = b"""% a comment
@RELATION 'r q'
@Attribute 'out look' { 'sunny day', "it's", 'a,b', 'c\\'d' } % trailing comment
@ATTRIBUTE windy{t,f}
@attribute "play" {yes, no, maybe}

@DATA
% rows follow
'sunny day', t, yes
"it's",f,no % inline comment
'a\\,b' , ? , no
'c\\'d', t, 'yes'
"""


def test_arff_quoting_case_comments_and_unused_values(tmp_path):
    """Quoted names and values, escapes, any-case keywords and comments; undeclared-in-data values stay."""
    p = tmp_path / "q.arff"
    p.write_bytes(ARFF_QUOTED)
    ds = read_arff(p, on_missing="keep")
    assert ds.features == ("out look", "windy") and ds.target == "play"
    assert ds.domains == (("sunny day", "it's", "a,b", "c'd"), ("t", "f"))
    assert ds.classes == ("yes", "no", "maybe")  # 'maybe' never occurs but is kept
    assert ds.X.tolist() == [[0, 0], [1, 1], [2, -1], [3, 0]]
    assert ds.y.tolist() == [0, 1, 1, 0]
    assert ds.lines.tolist() == [9, 10, 11, 12]


def test_arff_quoted_question_mark_is_a_value(tmp_path):
    """An unquoted ? is missing; a quoted '?' is the declared value '?'."""
    p = tmp_path / "q.arff"
    p.write_bytes(b"@relation r\n@attribute a {x, '?'}\n@attribute c {p, q}\n@data\n'?', p\n?, q\nx, q\n")
    ds = read_arff(p, on_missing="keep")
    assert ds.domains == (("x", "?"),) and ds.X.tolist() == [[1], [-1], [0]]


def test_arff_missing_as_value_extends_the_domain(tmp_path):
    """With on_missing='value' an undeclared ? becomes a value after the declared ones."""
    p = tmp_path / "q.arff"
    p.write_bytes(b"@relation r\n@attribute a {x, y}\n@attribute c {p, q}\n@data\n?, p\ny, q\n")
    ds = read_arff(p, on_missing="value")
    assert ds.domains == (("x", "y", "?"),) and ds.X.tolist() == [[2], [1]]


def test_arff_target_by_name():
    """An ARFF target may be any attribute."""
    ds = read_arff(DATA / "weather.arff", target="windy")
    assert ds.features == ("outlook", "temperature", "humidity", "play") and ds.classes == ("TRUE", "FALSE")


# ---- every bad file gets one line -----------------------------------------

# (what, files to create, reader, path, options, message); a None file is a directory.
BAD_FILES = [
    ("file does not exist", {"weather.csv": WEATHER}, "load", "weathr.csv", {},
     "no such file 'weathr.csv' (did you mean 'weather.csv'?)"),
    ("a directory", {"data": None}, "load", "data", {},
     "'data' is a directory; expected a data file (.csv or .arff)"),
    ("empty file", {"empty.csv": b""}, "load", "empty.csv", {},
     "empty.csv is empty; expected a header line naming the columns, then data rows"),
    ("only blank lines", {"blank.csv": b"\n  \n\r\n"}, "load", "blank.csv", {},
     "blank.csv is empty; expected a header line naming the columns, then data rows"),
    ("header only", {"header.csv": b"outlook,play\n\n"}, "load", "header.csv", {},
     "header.csv has a header but no data rows"),
    ("a row with too few fields (line 8 is `sunny,mild,high,no`)",
     {"weather.csv": weather_with(8, "sunny,mild,high,no")}, "load", "weather.csv", {},
     "weather.csv line 8 has 4 fields, header has 5"),
    ("a row with too many fields (line 3 ends `,no,x`)",
     {"weather.csv": weather_with(3, "sunny,hot,high,TRUE,no,x")}, "load", "weather.csv", {},
     "weather.csv line 3 has 6 fields, header has 5"),
    ("an unclosed quote (`\"x,1` on line 2)", {"q.csv": b'a,b\n"x,1\ny,2\n'}, "load", "q.csv", {},
     "q.csv line 2 has 1 field, header has 2 (a quoted field runs on to line 3; is a closing quote missing?)"),
    ("duplicate column names (`a,b, a,c`)", {"dup.csv": b"a,b, a,c\n1,2,3,4\n"}, "load", "dup.csv", {},
     "dup.csv line 1: duplicate column name 'a' (columns 1 and 3); names must be unique"),
    ("an empty column name (`a,,c`)", {"e.csv": b"a,,c\n1,2,3\n"}, "load", "e.csv", {},
     "e.csv line 1: column 2 has an empty name; every column needs a name"),
    ("a comma at the end of every line (`a,b,`)", {"t.csv": b"a,b,\n1,2,\n"}, "load", "t.csv", {},
     "t.csv line 1: column 3 has an empty name; every column needs a name"),
    ("semicolons read as CSV (`a;b;c`)", {"semi.csv": b"a;b;c\n1;2;3\n"}, "load", "semi.csv", {},
     "semi.csv has 1 column 'a;b;c'; need the target and at least one feature "
     "(is it delimited by ';'? use delimiter=';')"),
    ("not UTF-8 (Latin-1 `café`)", {"latin.csv": "a,b\ncaf\xe9,1\n".encode("latin-1")}, "load", "latin.csv", {},
     "latin.csv line 2: byte b'\\xe9' is not UTF-8; re-save the file as UTF-8"),
    ("UTF-16", {"u16.csv": "a,b\nx,1\n".encode("utf-16")}, "load", "u16.csv", {},
     "u16.csv is UTF-16 text; re-save the file as UTF-8"),
    ("binary junk (NUL bytes)", {"junk.csv": b"a,b\n\x00\x01\x02\xff\n"}, "load", "junk.csv", {},
     "junk.csv line 2 contains a NUL byte; the file looks binary, expected text (CSV or ARFF)"),
    ("unknown target", {"weather.csv": WEATHER}, "load", "weather.csv", {"target": "Play"},
     "unknown column 'Play' in weather.csv; columns are: outlook, temperature, humidity, windy, play "
     "(did you mean 'play'?)"),
    ("a missing value (`?` on line 5)", {"weather.csv": weather_with(5, "rainy,mild,?,FALSE,yes")}, "load", "weather.csv", {},
     "weather.csv line 5, column 'humidity': missing value '?'; missing values are refused by default "
     "(allowed: on_missing='keep' or on_missing='value')"),
    ("an empty field (spaces only, line 5)", {"weather.csv": weather_with(5, "rainy,mild, ,FALSE,yes")}, "load", "weather.csv",
     {}, "weather.csv line 5, column 'humidity': missing value ''; missing values are refused by default "
     "(allowed: on_missing='keep' or on_missing='value')"),
    ("a missing class (`?` in the target)", {"weather.csv": weather_with(5, "rainy,mild,high,FALSE,?")}, "load", "weather.csv",
     {"on_missing": "keep"},
     "weather.csv line 5, column 'play': missing class '?'; every row needs a class, even with on_missing='keep'"),
    ("ARFF: `@attribute temperature numeric` with values `hot`, ...",
     {"w.arff": WEATHER_ARFF.replace(b"{hot,mild,cool}", b"numeric")}, "load",
     "w.arff", {}, "w.arff line 12, column 'temperature': value 'hot' is not a number; a numeric column takes "
     "decimal numbers such as 75, -2.45 or 1.5e3 (or categorical=['temperature'] to read its values as categories)"),
    ("ARFF: `@attribute humidity STRING`", {"w.arff": WEATHER_ARFF.replace(b"{high,normal}", b"STRING")}, "load",
     "w.arff", {}, "w.arff line 7: attribute 'humidity' is string; only nominal {v1, v2, ...} "
     "and numeric attributes are supported (make it nominal or numeric)"),
    ("ARFF: `@attribute humidity boolean`", {"w.arff": WEATHER_ARFF.replace(b"{high,normal}", b"boolean")}, "load",
     "w.arff", {}, "w.arff line 7: attribute 'humidity' has unknown type 'boolean'; "
     "expected a nominal list {v1, v2, ...} or numeric, real or integer"),
    ("ARFF: sparse row `{0 sunny, 4 no}`", {"w.arff": WEATHER_ARFF.replace(b"sunny,hot,high,TRUE,no", b"{0 sunny, 4 no}")},
     "load", "w.arff", {},
     "w.arff line 13: sparse rows {index value, ...} are not supported; write every value, separated by commas"),
    ("ARFF: instance weight `TRUE,no,{2}`", {"w.arff": WEATHER_ARFF.replace(b"TRUE,no", b"TRUE,no,{2}")}, "load", "w.arff",
     {}, "w.arff line 13: instance weights '{2}' are not supported"),
    ("ARFF: value not declared (`cloudy`)", {"w.arff": WEATHER_ARFF.replace(b"overcast,hot,high", b"cloudy,hot,high", 1)},
     "load", "w.arff", {},
     "w.arff line 14, column 'outlook': value 'cloudy' is not declared; allowed: 'sunny', 'overcast', 'rainy'"),
    ("ARFF: a row with too few values (`sunny,hot`)", {"w.arff": WEATHER_ARFF.replace(b"sunny,hot,high,TRUE,no", b"sunny,hot")},
     "load", "w.arff", {}, "w.arff line 13 has 2 values, 5 attributes are declared"),
    ("ARFF: no `@data` line", {"w.arff": WEATHER_ARFF.split(b"@data")[0]}, "load", "w.arff", {},
     "w.arff has no @data line; expected @attribute declarations, then @data and rows"),
    ("ARFF: no rows after `@data`", {"w.arff": WEATHER_ARFF.split(b"@data")[0] + b"@data\n% none\n"}, "load", "w.arff", {},
     "w.arff has no data rows after @data (line 11)"),
    ("ARFF: a header line without `@`", {"w.arff": WEATHER_ARFF.replace(b"@relation", b"relation")}, "load",
     "w.arff", {}, "w.arff line 3: expected @relation, @attribute or @data, found 'relation weather.nominal'"),
    ("ARFF: `{high,normal,high}`", {"w.arff": WEATHER_ARFF.replace(b"{high,normal}", b"{high,normal,high}")},
     "load", "w.arff", {}, "w.arff line 7: attribute 'humidity' declares 'high' twice"),
    ("ARFF: `{high,normal` (no closing brace)", {"w.arff": WEATHER_ARFF.replace(b"{high,normal}", b"{high,normal")},
     "load", "w.arff", {},
     "w.arff line 7: attribute 'humidity' has no closing '}'; expected {v1, v2, ...} on one line"),
    ("ARFF: two attributes named `outlook`", {"w.arff": WEATHER_ARFF.replace(b"@attribute humidity", b"@attribute outlook")},
     "load", "w.arff", {},
     "w.arff line 7: attribute 'outlook' is declared again (first on line 5); names must be unique"),
    ("ARFF: a missing value (`?` on line 17)", {"w.arff": WEATHER_ARFF.replace(b"rainy,cool,normal,TRUE", b"rainy,cool,?,TRUE")},
     "load", "w.arff", {}, "w.arff line 17, column 'humidity': missing value '?'; missing values are refused "
     "by default (allowed: on_missing='keep' or on_missing='value')"),
    ("ARFF: an unbalanced quote (`'sunny,...`)", {"w.arff": WEATHER_ARFF.replace(b"sunny,hot,high,TRUE", b"'sunny,hot,high,TRUE")},
     "load", "w.arff", {}, "w.arff line 13: cannot read values at \"'sunny,hot,high,TRUE,no\"; "
     "expected values separated by commas, quoted with ' or \" if needed"),
]
READERS = {"load": load, "read_csv": read_csv, "read_arff": read_arff}


def make_files(folder, files):
    for name, content in files.items():
        if content is None:
            (folder / name).mkdir()
        else:
            (folder / name).write_bytes(content)


@pytest.mark.parametrize("what, files, reader, path, options, message", BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_file(tmp_path, monkeypatch, what, files, reader, path, options, message):
    """Each bad file raises a DataError with exactly this one-line message."""
    monkeypatch.chdir(tmp_path)
    make_files(tmp_path, files)
    with pytest.raises(DataError) as e:
        READERS[reader](path, **options)
    assert str(e.value) == message


# ---- in-memory data --------------------------------------------------------

RECORDS = [{"outlook": "sunny", "windy": False, "play": "no"},
           {"outlook": "rainy", "windy": True, "play": "yes"},
           {"outlook": None, "windy": False, "play": "yes"},
           {"outlook": "sunny", "windy": float("nan"), "play": "yes"}]


def test_records_of_dicts():
    """Dicts give their columns; bools become 'False'/'True'; None and NaN are missing."""
    ds = from_records(RECORDS, on_missing="keep", source="records")
    assert ds.features == ("outlook", "windy") and ds.target == "play"
    assert ds.domains == (("sunny", "rainy"), ("False", "True")) and ds.classes == ("no", "yes")
    assert ds.X.tolist() == [[0, 0], [1, 1], [-1, 0], [0, -1]]
    assert ds.source == "records" and ds.lines is None


def test_records_none_and_nan_as_value():
    """With on_missing='value' None and NaN become the value '?'."""
    ds = from_records(RECORDS, on_missing="value")
    assert ds.domains == (("sunny", "rainy", "?"), ("False", "True", "?"))


def test_records_missing_rejected():
    """A None cell is refused by default, named by 0-based row and column."""
    with pytest.raises(DataError) as e:
        from_records(RECORDS)
    assert str(e.value) == ("row 2, column 'outlook': missing value None; missing values are refused by default "
                            "(allowed: on_missing='keep' or on_missing='value')")


def test_records_absent_key_is_missing():
    """A dict without one of the columns has a missing value there."""
    ds = from_records([{"a": "x", "c": "p"}, {"c": "q"}], on_missing="keep")
    assert ds.X.tolist() == [[0], [-1]]


def test_dict_of_columns():
    """A dict of equal-length columns reads like a DataFrame."""
    ds = from_records({"outlook": ["sunny", "rainy"], "play": ["no", "yes"]})
    assert ds.features == ("outlook",) and ds.X.tolist() == [[0], [1]]


def test_table_with_names_target_included():
    """A list of lists needs names for all columns; numbers become str."""
    ds = from_records([[1, "a", "yes"], [2.5, "a", "no"], [1, "b", "yes"]], feature_names=["n", "s", "c"])
    assert ds.features == ("n", "s") and ds.domains == (("1", "2.5"), ("a", "b"))
    assert ds.classes == ("yes", "no") and ds.X.tolist() == [[0, 0], [1, 0], [0, 1]]


def test_arrays():
    """from_arrays names features x0, x1, ... and the target 'class' unless told."""
    X = np.array([[0, 1], [1, 1], [0, np.nan]])
    ds = from_arrays(X, ["a", "b", "a"], on_missing="keep")
    assert ds.features == ("x0", "x1") and ds.target == "class"
    assert ds.domains == (("0.0", "1.0"), ("1.0",)) and ds.X.tolist() == [[0, 0], [1, 0], [0, -1]]
    named = from_arrays([["s", "h"], ["r", "c"]], np.array(["no", "yes"]), feature_names=["o", "t"], target="play")
    assert named.features == ("o", "t") and named.target == "play" and named.classes == ("no", "yes")


def test_arrays_of_any_dtype():
    """Columns keep their dtype until str(): ints, bools, floats with NaN, objects with odd cells."""
    class NAType:  # like pandas.NA: no truth value when compared
        def __eq__(self, other):
            raise TypeError("boolean value of NA is ambiguous")
        __ne__ = __eq__
        __hash__ = object.__hash__

    ds = from_records({"i": np.array([1, 2, 1]), "b": np.array([True, False, True]),
                       "f": np.array([0.5, np.nan, 0.5]), "o": [(1, 2), NAType(), "x"], "c": ["p", "q", "p"]},
                      on_missing="keep")
    assert ds.domains == (("1", "2"), ("True", "False"), ("0.5",), ("(1, 2)", "x"))
    assert ds.X.tolist() == [[0, 0, 0, 0], [1, 1, -1, -1], [0, 0, 0, 1]]


def test_arrays_from_a_frame():
    """from_arrays takes feature names from a DataFrame's columns."""
    ds = from_arrays(FakeFrame(["outlook", "windy"], [["sunny", "t"], ["rainy", "f"]]), ["no", "yes"])
    assert ds.features == ("outlook", "windy") and ds.X.tolist() == [[0, 0], [1, 1]]


class FakeFrame:
    """The two things from_records uses of a DataFrame: columns and to_numpy."""

    def __init__(self, columns, rows):
        self.columns, self.rows = columns, rows

    def __len__(self):
        return len(self.rows)

    def to_numpy(self, dtype=None):
        return np.array(self.rows, dtype=dtype)


def test_dataframe_duck_typed():
    """Anything with .columns and .to_numpy reads as a DataFrame, without pandas."""
    ds = from_records(FakeFrame(["outlook", "play"], [["sunny", "no"], [None, "yes"]]), on_missing="keep")
    assert ds.features == ("outlook",) and ds.X.tolist() == [[0], [-1]]


def test_pandas_dataframe():
    """A pandas DataFrame with NaN/None/NA reads with those cells missing."""
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"outlook": ["sunny", None, "rainy"], "n": [1.0, float("nan"), 2.0],
                       "k": pd.array([1, None, 2], dtype="Int64"), "play": ["no", "yes", "yes"]})
    ds = from_records(df, on_missing="keep")
    assert ds.features == ("outlook", "n", "k")
    assert ds.X.tolist() == [[0, 0, 0], [-1, -1, -1], [1, 1, 1]]
    assert ds.domains == (("sunny", "rainy"), ("1.0", "2.0"), ("1", "2"))


BAD_MEMORY = [
    ("a table without names", "from_records([['sunny', 'no']])",
     "a 2-D table needs feature_names naming all its columns, target included"),
    ("a ragged table", "from_records([['a', 'b'], ['c']], feature_names=['f', 'c'])",
     "row 1 has 1 value; expected 2, one per column"),
    ("a flat list", "from_records(['sunny', 'rainy'], feature_names=['f', 'c'])",
     "row 0 is 'sunny', not a sequence of values; expected a 2-D table"),
    ("a dict row with an extra key", "from_records([{'outlook': 'sunny', 'play': 'no'}, {'outlok': 'x', 'play': 'no'}])",
     "row 1 has column 'outlok', which row 0 lacks; columns are: outlook, play (did you mean 'outlook'?)"),
    ("no rows", "from_records([], feature_names=['f', 'c'])", "the table has no rows"),
    ("a string as a column", "from_records({'outlook': 'sunny', 'play': ['no']})",
     "column 'outlook' is 'sunny', not a sequence of values"),
    ("columns of different lengths", "from_records({'outlook': ['sunny', 'rainy'], 'play': ['no']})",
     "column 'play' has 1 value, column 'outlook' has 2"),
    ("feature_names with dicts", "from_records([{'outlook': 'sunny', 'play': 'no'}], feature_names=['o', 'p'])",
     "feature_names is only for 2-D tables; here the column names come from the dicts' keys"),
    ("a duplicate name", "from_records({'a': [1], ' a': [2]})",
     "duplicate column name 'a' (columns 1 and 2); names must be unique"),
    ("a single column", "from_records({'play': ['yes']})",
     "the table has 1 column; need the target and at least one feature"),
    ("X and y of different lengths", "from_arrays([[1], [2]], ['a'])", "X has 2 rows but y has 1 label"),
    ("target named like a feature", "from_arrays([[1]], ['a'], feature_names=['class'])",
     "target name 'class' is also a feature name; pass another target="),
    ("an unseen value", "WEATHER_DS.encode_rows([{'outlook': 'cloudy', 'temperature': 'hot', "
     "'humidity': 'high', 'windy': 'TRUE'}])",
     "row 0, feature 'outlook': unseen value 'cloudy'; allowed: 'sunny', 'overcast', 'rainy' "
     "(or unseen='missing' for -1)"),
    ("an unknown feature in a row", "WEATHER_DS.encode_rows([{'outlok': 'sunny'}])",
     "row 0 has unknown feature 'outlok'; features are: outlook, temperature, humidity, windy "
     "(did you mean 'outlook'?)"),
    ("a row of the wrong length", "WEATHER_DS.encode_rows([['sunny', 'hot']])",
     "rows have 2 values; expected 4, one per feature: outlook, temperature, humidity, windy"),
]


@pytest.mark.parametrize("what, code, message", BAD_MEMORY, ids=[c[0] for c in BAD_MEMORY])
def test_bad_memory(what, code, message):
    """Each bad in-memory input raises a DataError with exactly this message."""
    namespace = {"from_records": from_records, "from_arrays": from_arrays,
                 "WEATHER_DS": read_csv(DATA / "weather.csv")}
    with pytest.raises(DataError) as e:
        eval(code, namespace)
    assert str(e.value) == message


# ---- Dataset methods -------------------------------------------------------

def test_subset_keeps_domains():
    """subset takes rows by index or mask and keeps every domain and class."""
    ds = read_csv(DATA / "weather.csv")
    sub = ds.subset([13, 0])
    assert sub.X.tolist() == [WEATHER_X[13], WEATHER_X[0]] and sub.y.tolist() == [0, 0]
    assert sub.domains == ds.domains and sub.classes == ds.classes and sub.lines.tolist() == [15, 2]
    assert sub.notes == ("target 'play' has a single class 'no'",)
    mask = ds.y == 1
    assert ds.subset(mask).n_rows == 9
    assert ds.subset(np.random.default_rng(0).permutation(14)).n_rows == 14


def test_subset_bad_mask():
    """A mask of the wrong length is refused."""
    with pytest.raises(DataError) as e:
        read_csv(DATA / "weather.csv").subset(np.ones(3, bool))
    assert str(e.value) == "boolean mask has shape (3,); expected (14,)"


def test_encode_rows():
    """New rows encode with the dataset's domains; missing values and unseen ones (if asked) are -1."""
    ds = read_csv(DATA / "weather.csv")
    rows = [{"outlook": "rainy", "temperature": "cool", "humidity": "high", "windy": "TRUE", "play": "x"},
            {"outlook": " overcast ", "humidity": None, "windy": "?"}]
    assert ds.encode_rows(rows).tolist() == [[2, 2, 0, 1], [1, -1, -1, -1]]
    assert ds.encode_rows([("sunny", "hot", "normal", "FALSE")]).tolist() == [[0, 0, 1, 0]]
    assert ds.encode_rows([["cloudy", "hot", "high", "TRUE"]], unseen="missing").tolist() == [[-1, 0, 0, 1]]
    assert ds.encode_rows([]).shape == (0, 4)


def test_encode_rows_missing_value_in_domain():
    """When '?' is a value of the dataset, encode_rows codes it as that value."""
    ds = from_records([["?", "a"], ["x", "b"]], feature_names=["f", "c"], on_missing="value")
    assert ds.encode_rows([["?"], [None], ["x"]]).tolist() == [[0], [0], [1]]


def test_dataset_is_read_only():
    """The code arrays of a Dataset cannot be changed in place."""
    ds = read_csv(DATA / "weather.csv")
    with pytest.raises(ValueError):
        ds.X[0, 0] = 1
    with pytest.raises(ValueError):
        ds.y[0] = 1


def test_dataset_checks_lines():
    """A hand-made Dataset needs one line number per row."""
    with pytest.raises(DataError) as e:
        Dataset(("f",), "c", (("a",),), ("p",), [[0]], [0], lines=[1, 2])
    assert str(e.value) == "lines has shape (2,); expected (1,), one line per row"


def test_dataset_checks_codes():
    """A hand-made Dataset with a code outside its domain is refused."""
    with pytest.raises(DataError) as e:
        Dataset(("f",), "c", (("a", "b"),), ("p", "q"), [[0], [2]], [0, 1])
    assert str(e.value) == "codes of feature 'f' run from 0 to 2; allowed: -1 to 1"


def test_repr():
    """The repr summarises instead of printing the arrays."""
    assert repr(from_records({"a": ["x"], "b": ["y"]})) == "Dataset(1 row, 1 feature, target 'b' with 1 class)"


def test_module_example_runs():
    """The example in the module docstring runs."""
    assert doctest.testmod(data_module).failed == 0


def test_docs_list_every_message():
    """docs/bad_input.md shows the message of every bad-input case tested here."""
    doc = (ROOT / "docs" / "bad_input.md").read_text(encoding="utf-8")
    for case in BAD_FILES + BAD_MEMORY:
        assert case[-1].replace("|", "\\|") in doc, case[0]


def test_result_does_not_depend_on_hash_seed():
    """Codes and domains are the same under different string hash seeds."""
    code = ("from infotree.data import read_csv, read_arff; import sys; "
            "a = read_csv(sys.argv[1], on_missing='value'); b = read_arff(sys.argv[2]); "
            "print(a.domains, a.classes, a.X.tolist(), b.domains)")
    outs = {subprocess.run([sys.executable, "-c", code, str(DATA / "contact-lenses.csv"), str(DATA / "weather.arff")],
                           capture_output=True, text=True, check=True, cwd=ROOT,
                           env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}).stdout
            for seed in ("1", "2")}
    assert len(outs) == 1


# ---- properties ------------------------------------------------------------

@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(["a", "b", "?", " ", ",", "\n", "\r", "\r\n", "\t", "é"]), max_size=40).map("".join))
def test_plain_splitting_matches_the_csv_module(text):
    """Without quotes, the str.split fast path reads exactly as the csv module does."""
    def run(split):
        try:
            header, header_line, cells, lines = split(text, ",", "f")
        except DataError as e:
            return str(e)
        return header, header_line, cells, [int(n) for n in lines]
    assert run(csvfile._split_plain) == run(csvfile._split_quoted)


PIECES = [",", '"', "'", "\n", "\r\n", " ", "?", "%", "{", "}", "a", "b", "\\", "\t", "é", "\ufeff",
          "@data\n", "@attribute a {a,b}\n", "@attribute 'q' {'a',?}\n", "@attribute n numeric\n", "a,b\n"]


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(content=st.one_of(st.binary(max_size=200),
                         st.lists(st.sampled_from(PIECES), max_size=50).map(lambda p: "".join(p).encode())),
       arff=st.booleans(), on_missing=st.sampled_from(["reject", "keep", "value"]))
def test_fuzz_reads_or_raises_data_error(tmp_path, content, arff, on_missing):
    """Any bytes either read as a Dataset or raise a one-line DataError, never another exception."""
    path = tmp_path / ("f.arff" if arff else "f.csv")
    path.write_bytes(content)
    try:
        ds = load(path, on_missing=on_missing)
    except DataError as e:
        assert "\n" not in str(e)
    else:
        assert isinstance(ds, Dataset) and ds.X.shape == (ds.n_rows, ds.n_features)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.floats(allow_nan=False), st.sampled_from([0.0, -0.0, 1.5, 0.1, 1e300])), min_size=1,
                max_size=30),
       st.lists(st.sampled_from(["a", " a", "b ", "", "?", "1", "é"]), min_size=1, max_size=30))
def test_columns_of_floats_and_str_are_factorized_as_their_texts(floats, words):
    """The distinct-value path of in-memory float64 and str columns gives the labels and
    codes that str() of every cell gives (-0.0 and 0.0 apart, as their texts are)."""
    from infotree.data.cells import _strings
    from infotree.data.codes import _distinct_codes, _raw_codes

    # a column of a 2-D array too: strided, as from_arrays reads one
    for col in (np.array(floats, dtype=np.float64), np.array(words), np.array([words, words]).T[:, 1]):
        fast, plain = _distinct_codes(col), _raw_codes(_strings(col))
        assert fast[0] == plain[0] and fast[1].tolist() == plain[1].tolist()
        assert fast[2] == [plain[1].tolist().index(k) for k in range(len(plain[0]))]   # each one's first row
    assert _distinct_codes(np.array([1.0, np.nan])) is None  # NaN is missing: the general path


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab?1 é") + [chr(0x4E00 + i) for i in range(70)] + ["\U0001F600"]),
                min_size=1, max_size=200))
def test_one_character_columns_are_factorized_as_their_texts(letters):
    """One-character columns (a small alphabet marked, not sorted; more than 64 letters, or a
    code point past 2^16, sorted as before) give the labels and codes str() of every cell gives."""
    from infotree.data.cells import _strings
    from infotree.data.codes import _distinct_codes, _raw_codes

    for col in (np.array(letters), np.array([letters, letters[::-1]]).T[:, 0]):
        fast, plain = _distinct_codes(col), _raw_codes(_strings(col))
        assert fast[0] == plain[0] and fast[1].tolist() == plain[1].tolist()
        assert fast[2] == [plain[1].tolist().index(k) for k in range(len(plain[0]))]   # each one's first row
