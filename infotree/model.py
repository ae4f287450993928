"""Saving a tree as JSON and loading it back for prediction.

A saved model is the JSON contract (:mod:`infotree.printers.json`).  Loading
checks it thoroughly, because a model file may have been edited by hand: every
error names the file, the node path and what was expected.

    >>> tree = load_model("model.json")       # doctest: +SKIP
    >>> tree.predict([{"outlook": "sunny", ...}])  # doctest: +SKIP
"""

from __future__ import annotations

import io
import json
import os

import numpy as np

from .errors import DataError
from .parse import ParseError, parse_exact
from .printers.json import FORMAT_VERSION, write
from .tree import CRITERIA, Node, Tree

__all__ = ["dumps", "load_model", "loads", "save_model"]


def dumps(tree, *, nodes="none") -> str:
    buf = io.StringIO()
    write(tree, buf, nodes=nodes)
    return buf.getvalue()


def save_model(tree, path, *, nodes="none") -> None:
    """Write the tree's JSON to ``path`` atomically (temporary file, then rename)."""
    from .output import write_atomic

    write_atomic(path, dumps(tree, nodes=nodes))


def load_model(path) -> Tree:
    """Read a model saved by ``infotree tree --format json`` (or :func:`save_model`)."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        raise DataError(f"{name}: no such model file") from None
    except IsADirectoryError:
        raise DataError(f"{name}: is a directory, not a model file") from None
    except UnicodeDecodeError:
        raise DataError(f"{name}: not a UTF-8 JSON model file (bytes that are not UTF-8)") from None
    return loads(text, source=name)


def loads(text: str, *, source="model") -> Tree:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise DataError(f"{source} line {e.lineno}: not valid JSON ({e.msg}); expected a model written by 'infotree tree --format json'") from None
    return _Loader(source).tree(doc)


class _Loader:
    def __init__(self, source):
        self.source = source

    def fail(self, where, what):
        raise DataError(f"{self.source}: {where}: {what}")

    def get(self, obj, key, kind, where):
        if not isinstance(obj, dict) or key not in obj:
            self.fail(where, f"missing key {key!r}")
        v = obj[key]
        if kind is not None and not isinstance(v, kind):
            self.fail(where, f"{key!r} is {type(v).__name__}, expected {kind.__name__ if isinstance(kind, type) else 'a value'}")
        return v

    def tree(self, doc):
        from . import __version__

        if not isinstance(doc, dict) or "infotree" not in doc:
            self.fail("top level", "not an infotree model (no 'infotree' key); save one with 'infotree tree --format json'")
        fmt = doc.get("format")
        if fmt != FORMAT_VERSION:
            self.fail("top level", f"model format {fmt!r} written by infotree {doc.get('infotree')!r}; "
                      f"this is infotree {__version__}, which reads format {FORMAT_VERSION}")
        features = self.get(doc, "features", list, "top level")
        classes = self.get(doc, "classes", list, "top level")
        domains = self.get(doc, "domains", dict, "top level")
        criterion = self.get(doc, "criterion", str, "top level")
        if criterion not in CRITERIA:
            self.fail("top level", f"unknown criterion {criterion!r}; allowed: {', '.join(CRITERIA)}")
        if not all(isinstance(f, str) for f in features + classes) or len(set(features)) != len(features) or len(set(classes)) != len(classes):
            self.fail("top level", "features and classes must be lists of distinct strings")
        doms = []
        for f in features:
            d = domains.get(f)
            if not isinstance(d, list) or not all(isinstance(v, str) for v in d) or len(set(d)) != len(d):
                self.fail("domains", f"feature {f!r} needs a list of distinct value strings")
            doms.append(d)
        t = Tree(features=features, domains=doms, classes=classes, target=str(doc.get("target", "class")),
                 criterion=criterion, params=doc.get("params") if isinstance(doc.get("params"), dict) else {})
        root = self.get(doc, "root", dict, "top level")
        t.root = self.node(t, root, (), 0, None)
        return t

    def count(self, text, where):
        try:
            v = parse_exact(text) if isinstance(text, str) else None
        except ParseError:
            v = None
        if v is None or not hasattr(v, "denominator") or v < 0 or v.denominator != 1:
            self.fail(where, f"count {text!r} is not a non-negative integer string")
        return int(v)

    def node(self, t, obj, path, depth, parent):
        where = "node " + (", ".join(f"{t.features[f]} = {t.domains[f][v]}" for f, v in path) or "root")
        cc = self.get(obj, "class_counts", dict, where)
        if list(cc) != list(t.classes):
            self.fail(where, f"class_counts must list the classes {', '.join(t.classes)} in order")
        counts = np.array([self.count(cc[c], where) for c in t.classes], dtype=np.int64)
        n = self.count(self.get(obj, "n", str, where), where)
        if n != counts.sum():
            self.fail(where, f"n = {n} but the class counts sum to {int(counts.sum())}")
        node = Node(t, path, depth, counts, parent=parent)
        label = self.get(obj, "label", str, where)
        if label not in t.classes:
            self.fail(where, f"label {label!r} is not a class; classes are: {', '.join(t.classes)}")
        node.label = t.classes.index(label)
        split = obj.get("split")
        children = self.get(obj, "children", list, where)
        if split is None:
            if children:
                self.fail(where, "a leaf ('split': null) must have no children")
            node.stop = "loaded"
            return node
        if split not in t.features:
            self.fail(where, f"split feature {split!r} is not a feature; features are: {', '.join(t.features)}")
        f = t.features.index(split)
        values = [self.get(c, "value", str, where) for c in children]
        if values != list(t.domains[f]):
            self.fail(where, f"children of a split on {split!r} must be its values {', '.join(t.domains[f])} in order")
        node.split = f
        for v, c in enumerate(children):
            node.children.append(self.node(t, self.get(c, "node", dict, where), path + ((f, v),), depth + 1, node))
        total = sum(ch.class_counts for ch in node.children)
        if not np.array_equal(total, counts):
            self.fail(where, "the children's class counts do not add up to the node's")
        return node
