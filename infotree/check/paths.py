"""The one path parser: a node's path in every claim kind (``leaf(...)``, ``split(...)``, an ``At`` line, a
measure's conditions, a region, cost-complexity's ``alpha(...)``), step by step: ``outlook = sunny``,
``humidity <= 75`` (C4.5's ``<=``/``>``; CART also rpart's ``<``/``>=``), CART's ``outlook in {sunny, rainy}``;
the tokens come from :func:`~.grammar._split_claim`, the names from :class:`~.names.Names`."""

from __future__ import annotations

from fractions import Fraction

from .grammar import _Cut, _Subset, _clip, _cut_item, _set_item, _show_toks, _split_on, _value_item
from .names import Unreadable as _Unreadable


class Paths:
    """The checker's path steps (a mixin of the checker)."""

    def path(self, toks, head) -> tuple:
        """The steps ((feature, value or _Cut or _Subset), ...) of a node's path from the root, written in
        ``head(...)``; ``root`` or nothing: the root."""
        if not toks or (len(toks) == 1 and toks[0].kind == "w" and toks[0].text.lower() == "root"):
            return ()
        out, seen = [], set()
        for item in _split_on(toks, ","):
            if _value_item(item):
                f = self.names.feature(item[0].text)
                if f in seen:
                    raise _Unreadable(f"feature {f} appears twice in {head}(...); a path fixes each feature once")
                seen.add(f)
            step = self.step(item, tree=True)   # a numeric feature may be cut again below (CART: any)
            if step is None:
                raise _Unreadable(f"cannot read {_show_toks(item) if item else 'an empty part'} in {head}(...); "
                                  f"write the path from the root: {head}(outlook = sunny, humidity = high)")
            out.append(step)
        return tuple(out)

    def step(self, item, *, tree=False, target=False):
        """(feature, value), (feature, _Cut) or (feature, _Subset) of one step's tokens, or None when they are
        no step; ``tree``: a step of a tree's node (ID3 and C4.5 have no subsets); ``target``: ``play = yes``
        too (a measure's condition may fix the target)."""
        if _value_item(item):
            var = self.names.variable(item[0].text) if target else self.names.feature(item[0].text)
            return var, self.names.value(var, item[2].text)
        if _cut_item(item) or _set_item(item):
            return self.cut(item, tree=tree)
        return None

    def cut(self, item, tree=False):
        """(feature, _Cut) of ``humidity <= 75`` / ``humidity > 75`` (CART also ``< t``, ``>= t``), or
        (feature, _Subset) of CART's ``outlook in {sunny, rainy}``."""
        cart = self.grower.binary
        if _set_item(item):
            name, op, text = _set_item(item)
            f = self.names.feature(name)
            if tree and not cart:   # a measure may take any rows; a node of an ID3/C4.5 tree is one value's
                raise _Unreadable(f"{f} {op} {_clip(text, 20)}: a set of values is CART's split; "
                                  f"check with --algorithm cart")
            if self.names.kinds[f] != "nominal":
                raise _Unreadable(f"{f} is numeric: a condition on it is {f} <= t or {f} > t, not {op} a set")
            given = [v.strip() for v in text[1:-1].split(",")]
            if not all(given):
                raise _Unreadable(f"an empty value in {f} {op} {_clip(text, 30)}")
            chosen = {self.names.value(f, v) for v in given}
            return f, _Subset(op, tuple(v for v in self.domain[f] if v in chosen))
        if not _cut_item(item):
            raise _Unreadable(f"cannot read the split {_show_toks(item)}; write it as humidity <= 75, "
                              f"Start >= 8.5 or outlook in {{sunny, rainy}}")
        name, op, text = _cut_item(item)
        f = self.names.feature(name)
        if self.names.kinds[f] != "numeric":
            what = "CART's subset: {f} in {{a, b}}" if cart else "{f} = value"
            raise _Unreadable(f"{f} is nominal: a condition on it is {what.format(f=f)}, not {op} "
                              f"{_clip(text, 20)}")
        if op not in ("<=", ">") and not cart:
            raise _Unreadable(f"{f} {op} {_clip(text, 20)}: a numeric condition is {f} <= t or {f} > t "
                              f"(C4.5's two branches)")
        try:
            t = Fraction(text)
        except (ValueError, ZeroDivisionError):
            raise _Unreadable(f"{f} {op} {_clip(text, 20)!r}: the threshold is not a number") from None
        return f, _Cut(op, t)
