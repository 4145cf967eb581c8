"""Match statistics: Elo from a score, 95% intervals, LOS, pentanomial pair counts and the SPRT.

Outcome counts are tuples ordered from the worst to the best result for engine 1, each paired with the score it is
worth in [0, 1]:
- trinomial (per game):   (L, D, W)                 worth (0, 1/2, 1)
- pentanomial (per pair): (LL, LD, DD/WL, WD, WW)   worth (0, 1/4, 1/2, 3/4, 1), i.e. the pair's points / 2.

One normal approximation serves both: the mean and variance of the per-unit score give the interval and the
SPRT log-likelihood ratio. The SPRT is the GSPRT of fastchess and OpenBench (after Michel Van den Bergh) with the
logistic Elo model (fastchess `model=logistic`):

    LLR = (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance / N),   s_i = 1 / (1 + 10 ** (-elo_i / 400)),

with bounds log(beta / (1 - alpha)) (accept H0 at or below) and log((1 - beta) / alpha) (accept H1 at or above).
As in OpenBench, empty outcome classes count 1e-3 in the LLR so that one-sided series still have a variance. That
variance is meaningless for a handful of pairs (one won pair alone gives LLR +3.8, past the usual bound +2.94), so no
decision is taken before SPRT_MIN_PAIRS complete pairs.
"""

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # two-sided 95% quantile of the standard normal distribution
TAIL_95 = 0.025  # the probability outside each end of a two-sided 95% interval
TRINOMIAL_VALUES = (0.0, 0.5, 1.0)
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)
SPRT_REGULARIZATION = 1e-3
SPRT_MIN_PAIRS = 20  # complete pairs before the SPRT may decide (the normal approximation needs a real variance)


def elo_from_score(score: float) -> float:
    """Return the logistic Elo difference that gives `score` in [0, 1] (+-inf at the ends)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def score_from_elo(elo: float) -> float:
    """Return the expected score in (0, 1) of a logistic Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def mean_and_variance(counts, values):
    """Return (units, mean, variance) of the per-unit score distribution given by outcome `counts` and their
    `values`."""
    units = sum(counts)
    if units <= 0:
        raise ValueError("no results")
    mean = sum(count * value for count, value in zip(counts, values)) / units
    variance = sum(count * (value - mean) ** 2 for count, value in zip(counts, values)) / units
    return units, mean, variance


@dataclass(frozen=True)
class EloEstimate:
    """An Elo difference with its 95% confidence interval (from the score mean +- 1.96 standard errors)."""

    elo: float
    low: float
    high: float
    score: float

    @property
    def margin(self) -> float:
        """Half the interval's width in Elo (a symmetric summary of the asymmetric interval)."""
        return (self.high - self.low) / 2.0


def estimate_elo(counts, values) -> EloEstimate:
    """Return the Elo estimate and 95% interval of outcome `counts` worth `values` (raises ValueError when empty).

    When every unit has the best (worst) outcome the normal interval has no width; its other end is then the exact
    one-sided bound: a per-unit score of mean p in [0, 1] gives n best outcomes with probability at most p ** n, so
    the bound is the p with p ** n = 2.5% (for 100 won games +570 Elo)."""
    units, mean, variance = mean_and_variance(counts, values)
    exact_bound = TAIL_95 ** (1.0 / units)
    if mean == 1.0:
        return EloEstimate(math.inf, elo_from_score(exact_bound), math.inf, mean)
    if mean == 0.0:
        return EloEstimate(-math.inf, -math.inf, elo_from_score(1.0 - exact_bound), mean)
    error = Z_95 * math.sqrt(variance / units)
    return EloEstimate(elo_from_score(mean), elo_from_score(mean - error), elo_from_score(mean + error), mean)


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """Return the probability that engine 1 is the stronger (cutechess's LOS: draws carry no information)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def pentanomial(pair_points) -> tuple:
    """Count game pairs by engine 1's points in the pair (0, 0.5, 1, 1.5, 2) as (LL, LD, DD/WL, WD, WW)."""
    counts = [0] * 5
    for points in pair_points:
        index = round(points * 2)
        if index != points * 2 or not 0 <= index <= 4:
            raise ValueError(f"pair points must be a multiple of 0.5 in [0, 2], got {points}")
        counts[index] += 1
    return tuple(counts)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1 with error rates alpha, beta."""

    elo0: float
    elo1: float
    alpha: float
    beta: float

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        """Read `elo0,elo1,alpha,beta` (e.g. `0,5,0.05,0.05`); raise ValueError when malformed."""
        parts = text.split(",")
        if len(parts) != 4:
            raise ValueError(f"expected elo0,elo1,alpha,beta, got {text!r}")
        elo0, elo1, alpha, beta = (float(part) for part in parts)
        if not elo0 < elo1 or not 0 < alpha < 1 or not 0 < beta < 1:
            raise ValueError(f"need elo0 < elo1 and 0 < alpha, beta < 1, got {text!r}")
        return cls(elo0, elo1, alpha, beta)

    @property
    def lower_bound(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper_bound(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, counts, values) -> float:
        """Return the log-likelihood ratio of outcome `counts` worth `values` (0.0 when there are none)."""
        if sum(counts) == 0:
            return 0.0
        regularized = [count if count > 0 else SPRT_REGULARIZATION for count in counts]
        units, mean, variance = mean_and_variance(regularized, values)
        score0, score1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return (score1 - score0) * (2.0 * mean - score0 - score1) / (2.0 * variance / units)

    def decision(self, llr: float, pairs: int):
        """Return "H0" or "H1" when `llr` of `pairs` complete pairs reached a bound, else None (continue); None while
        pairs < SPRT_MIN_PAIRS."""
        if pairs < SPRT_MIN_PAIRS:
            return None
        if llr >= self.upper_bound:
            return "H1"
        if llr <= self.lower_bound:
            return "H0"
        return None
