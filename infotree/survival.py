"""Poisson and survival trees (rpart's ``poisson`` and ``exp`` methods): the rows' event
terms, the exposure of survival times, and the node that predicts a rate.

A Poisson row has events d ≥ 0 over an exposure t > 0 (rpart's ``cbind(t, d)``; t = 1
when no exposure is given).  A survival row has an observed time and a status (1: the
event, 0: censored); ``rpart.exp`` rescales each time into the events a piecewise
exponential fit expects by then, :func:`exp_exposure`, and grows a Poisson tree of the
statuses over those exposures.  Every step is exact (times and rates are rationals).

    >>> exp_exposure([1, 2, 3, 4], [1, 0, 1, 1])
    (Fraction(1, 4), Fraction(9, 20), Fraction(13, 20), Fraction(33, 20))
"""

from __future__ import annotations

import math
from fractions import Fraction

from .errors import InfotreeError
from .lnpoly import LnSum
from .node import Node
from .records import RegressionCandidate

__all__ = ["RateCandidate", "RateNode", "exp_exposure", "row_terms", "status_codes"]

# R's .Machine$double.eps, which rpart.exp passes to rpartexp2
_EPS = Fraction(1, 2 ** 52)


class RateCandidate(RegressionCandidate):
    """A feature's best binary split of a Poisson node: ``table`` holds each side's statistics
    (Σw, events, exposure, Σw·d·ln(d/t)); ``impurities`` are each side's deviance about its
    own rate and ``decrease`` the split's deviance decrease (rpart's improvement)."""

    @property
    def events(self) -> tuple:
        return tuple(r[1] for r in self.table)

    @property
    def exposures(self) -> tuple:
        return tuple(r[2] for r in self.table)

    @property
    def means(self) -> tuple:
        """Each side's rate events/exposure, unshrunk as the split search uses it (None: empty)."""
        return tuple(Fraction(r[1]) / r[2] if r[0] else None for r in self.table)


class RateNode(Node):
    """A node of a Poisson or exp tree: its statistics are (Σw, events, exposure,
    Σw·d·log2(d/t)) and its prediction (``mean``) is the criterion's rate λ."""

    __slots__ = ()

    @property
    def mean(self):
        return self.tree.criterion.rate(self.class_counts.tolist()) if self.n else None


def row_terms(events, exposure) -> list:
    """Per row (d, t, d·ln(d/t)): its events, exposure (1 when ``exposure`` is None) and
    its term of the saturated log-likelihood (0 without events)."""
    out = []
    for i, d in enumerate(events):
        t = Fraction(1) if exposure is None else Fraction(exposure[i])
        d = Fraction(d)
        out.append((d, t, LnSum.of(d, d / t)))
    return out


def check_rows(events, exposure, where=lambda i: f"row {i + 1}"):
    """rpart's refusals: an exposure (time) must be above 0, an event count at least 0."""
    for i, d in enumerate(events):
        if d < 0:
            raise InfotreeError(f"{where(i)}: event count {d} is not allowed; a Poisson target counts events "
                                f"(0 or more)")
    if exposure is not None:
        if len(exposure) != len(events):
            raise InfotreeError(f"exposure has {len(exposure)} values; the data has {len(events)} rows")
        for i, t in enumerate(exposure):
            if t is None or t <= 0:
                raise InfotreeError(f"{where(i)}: exposure {t} is not allowed; an exposure (observation time) is a "
                                    f"number above 0 (rpart: 'Observation time must be > 0')")


def status_codes(values, where=lambda i: f"row {i + 1}") -> list:
    """Survival statuses as 0 (censored) / 1 (event), read as R's ``Surv`` reads them: 0/1,
    1/2 (1 censored, 2 the event) or false/true."""
    texts = [str(v).strip().lower() for v in values]
    if set(texts) <= {"false", "true"}:
        return [int(t == "true") for t in texts]
    try:
        nums = [Fraction(t) for t in texts]
    except (ValueError, ZeroDivisionError):
        nums = None
    if nums is not None and set(nums) <= {0, 1}:
        return [int(q) for q in nums]
    if nums is not None and set(nums) <= {1, 2}:
        return [int(q) - 1 for q in nums]
    bad = next(i for i, t in enumerate(texts) if nums is None or Fraction(t) not in (0, 1, 2))
    raise InfotreeError(f"{where(bad)}: status {values[bad]!r} is not allowed; a survival status is 0/1 "
                        f"(1: the event), 1/2 (2: the event) or false/true, as R's Surv reads it")


def _quantiles(x, k):
    """R's quantile(x, 0:k/k) (type 7), exact: x sorted."""
    n, out = len(x), []
    for i in range(k + 1):
        h = Fraction((n - 1) * i, k)
        lo = math.floor(h)
        out.append(x[lo] if lo + 1 >= n else x[lo] + (h - lo) * (x[lo + 1] - x[lo]))
    return out


def exp_exposure(times, status) -> tuple:
    """``rpart.exp``'s rescaled times, exactly: each observed time mapped through the
    cumulative hazard of a piecewise constant hazard whose pieces end at the death times
    (rate = deaths / person-time in each piece; the last piece ends at the largest time).
    Death times within 2^-52 × their interquartile range of the last one kept are merged
    (``rpartexp2``); more than 1000 are cut to their 1001 quantiles, as rpart does.  Case
    weights play no part (rpart's ``drate2`` ignores them)."""
    times = [Fraction(t) for t in times]
    if any(t <= 0 for t in times):
        raise InfotreeError("an observation time must be above 0 (rpart: 'Observation time must be > 0')")
    if not any(status):
        raise InfotreeError("no events: every status is censored (rpart: 'No deaths in data set')")
    dtimes = sorted({t for t, s in zip(times, status) if s})
    n = len(dtimes)
    delta = _EPS * (dtimes[(3 * n) // 4] - dtimes[n // 4])
    kept, last = [dtimes[0]], dtimes[0]
    for y in dtimes[1:]:
        if y - last > delta:
            kept.append(y)
            last = y
    if len(kept) > 1000:
        kept = _quantiles(kept, 1000)
    itable = [Fraction(0)] + kept[:-1] + [max(times)]
    k = len(itable) - 1
    # cut(time, itable, include.lowest = TRUE): piece i holds itable[i] < t <= itable[i+1]
    import bisect

    index = [max(bisect.bisect_left(itable, t) - 1, 0) for t in times]
    ending, inside, deaths = [0] * k, [Fraction(0)] * k, [0] * k
    for t, i, s in zip(times, index, status):
        ending[i] += 1
        inside[i] += t - itable[i]
        deaths[i] += s
    later, cum = 0, [Fraction(0)] * (k + 1)
    rates = [Fraction(0)] * k
    for i in reversed(range(k)):
        rates[i] = (itable[i + 1] - itable[i]) * later + inside[i]
        later += ending[i]
    for i in range(k):
        pyears = rates[i]
        rates[i] = Fraction(deaths[i]) / pyears if pyears else Fraction(0)
        cum[i + 1] = cum[i] + rates[i] * (itable[i + 1] - itable[i])
    return tuple(cum[i] + rates[i] * (t - itable[i]) for t, i in zip(times, index))
