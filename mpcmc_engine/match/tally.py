"""The running result of a match from engine 1's point of view, and its report lines.

Game indices pair up as (0, 1), (2, 3), ...: the same opening with colours reversed. The SPRT and the
pentanomial figures use complete pairs only; W/D/L, the Elo line and the LOS use every game. The SPRT is checked
after each game added, in the order the games were added (the order they finished, which is their order in the PGN
file), and its decision is kept from the first game that reaches a bound: games still in play then are added
afterwards but do not revoke it.
"""

from typing import NamedTuple

from mpcmc_engine.match.stats import (PENTANOMIAL_VALUES, TRINOMIAL_VALUES, Sprt, estimate_elo,
                                      likelihood_of_superiority, pentanomial)

POINTS_OF_RESULT = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}  # PGN result -> (White, Black)


def engine1_points(result: str, engine1_is_white: bool):
    """Engine 1's points in a game with PGN `result` (None for an unfinished `*`)."""
    if result not in POINTS_OF_RESULT:
        return None
    white, black = POINTS_OF_RESULT[result]
    return white if engine1_is_white else black


class SprtDecision(NamedTuple):
    """The SPRT's decision: the hypothesis accepted ("H0" or "H1"), the LLR that reached its bound and how many
    games had been added then."""

    hypothesis: str
    llr: float
    games: int


class Tally:
    """Engine 1's points per game index, and the SPRT's decision once one is taken (None before)."""

    def __init__(self):
        self.points = {}
        self.decision = None

    def __contains__(self, game_index: int) -> bool:
        return game_index in self.points

    def __len__(self) -> int:
        return len(self.points)

    def add(self, game_index: int, points: float, sprt=None) -> None:
        """Record engine 1's points (0, 0.5 or 1) in game `game_index`; with `sprt` and no decision yet, check it
        on the complete pairs and keep its decision (SprtDecision) if it takes one."""
        self.points[game_index] = points
        if sprt is not None and self.decision is None:
            counts = self.pentanomial()
            llr = sprt.llr(counts, PENTANOMIAL_VALUES)
            hypothesis = sprt.decision(llr, sum(counts))
            if hypothesis:
                self.decision = SprtDecision(hypothesis, llr, len(self.points))

    def wdl(self) -> tuple:
        """(wins, draws, losses) of engine 1."""
        values = list(self.points.values())
        return values.count(1.0), values.count(0.5), values.count(0.0)

    def pentanomial(self) -> tuple:
        """(LL, LD, DD/WL, WD, WW) over the complete game pairs."""
        return pentanomial(points + self.points[index + 1] for index, points in self.points.items()
                           if index % 2 == 0 and index + 1 in self.points)

    def sprt_llr(self, sprt: Sprt) -> float:
        """The SPRT log-likelihood ratio of the complete pairs."""
        return sprt.llr(self.pentanomial(), PENTANOMIAL_VALUES)

    def elo_text(self) -> str:
        """`W-D-L, Elo +x` for the progress bar."""
        wins, draws, losses = self.wdl()
        elo = f", Elo {estimate_elo((losses, draws, wins), TRINOMIAL_VALUES).elo:+.0f}" if self.points else ""
        return f"{wins}-{draws}-{losses}{elo}"

    def report(self, names: tuple, sprt=None) -> list:
        """The final report lines: score, Elo with 95% interval and LOS, pentanomial counts, SPRT state."""
        wins, draws, losses = self.wdl()
        games = len(self.points)
        lines = [f"{names[0]} vs {names[1]}: {games} games, W-D-L {wins}-{draws}-{losses} (from {names[0]}'s view)"]
        if games:
            elo = estimate_elo((losses, draws, wins), TRINOMIAL_VALUES)
            lines.append(f"score {100 * elo.score:.1f}%, Elo {elo.elo:+.1f} (95%: {elo.low:+.1f} .. {elo.high:+.1f}),"
                         f" LOS {100 * likelihood_of_superiority(wins, losses):.1f}%")
        pairs = self.pentanomial()
        line = f"pentanomial [LL, LD, DD/WL, WD, WW]: {list(pairs)}"
        if sum(pairs):
            elo = estimate_elo(pairs, PENTANOMIAL_VALUES)
            line += f", pair Elo {elo.elo:+.1f} (95%: {elo.low:+.1f} .. {elo.high:+.1f}) from {sum(pairs)} pairs"
        lines.append(line)
        if sprt is not None:
            head = f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}: "
            bounds = f"(bounds {sprt.lower_bound:.2f}, {sprt.upper_bound:.2f})"
            decision = self.decision
            if decision is None:
                lines.append(f"{head}LLR {self.sprt_llr(sprt):.2f} {bounds}: no decision yet")
            else:
                line = (f"{head}LLR {decision.llr:.2f} {bounds} after {decision.games} games: "
                        f"{decision.hypothesis} accepted")
                if games > decision.games:
                    late = games - decision.games
                    line += f"; LLR {self.sprt_llr(sprt):.2f} with the {late} game{'s' * (late > 1)} then in play"
                lines.append(line)
        return lines
