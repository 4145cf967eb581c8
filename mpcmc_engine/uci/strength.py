"""A playing strength a person can choose: `UCI_LimitStrength` with `UCI_Elo`, or `Skill Level`.

A weaker level plays the way people find natural rather than by random blunders: it searches fewer nodes (half as
many for every ELO_PER_DOUBLING Elo less) with a few MultiPV lines, and plays one of those lines, each
with a chance that falls with how much worse its score is than the best one's (a softmax whose temperature grows as
the level falls). A line far worse than the best is almost never chosen; among near-equal lines the choice varies
from game to game. The Elo scale is Stockfish 15.1's `UCI_Elo` at 10+0.1, where the calibration in docs/UCI.md was
measured. Standard library only.
"""

import math
import random
from dataclasses import dataclass
from typing import Optional

MIN_ELO = 1320
MAX_ELO = 2400           # the engine's own strength on that scale at 10+0.1: UCI_Elo at or above it plays at full
MAX_SKILL = 20           # Skill Level 0-20; 20 plays at full strength
ANCHOR_ELO = 2000        # the node limit is NODES_AT_ANCHOR at this UCI_Elo ...
NODES_AT_ANCHOR = 115_000
ELO_PER_DOUBLING = 110   # ... and doubles for every this many Elo above it (halves below)
MIN_NODES = 200
LINES = 4                # MultiPV lines the weakened search keeps to choose from
COOL_ELO = 2170          # the choice's softmax temperature is 0 from this UCI_Elo up ...
TEMPERATURE_PER_ELO = 0.084  # ... and grows by this many centipawns for every Elo below it (71 cp at MIN_ELO)
MATE_CP = 10_000         # a mate score, in the choice, as this many centipawns


@dataclass(frozen=True)
class Strength:
    """How a weakened search plays: at most `nodes` nodes, `lines` MultiPV lines, the choice's `temperature` (cp)."""

    elo: int
    nodes: int
    lines: int
    temperature: float


def skill_elo(level: int) -> int:
    """The UCI_Elo that Skill Level `level` (0-20) stands for: MIN_ELO at 0, MAX_ELO at 20, evenly between."""
    level = max(0, min(MAX_SKILL, level))
    return round(MIN_ELO + (MAX_ELO - MIN_ELO) * level / MAX_SKILL)


def strength_for(limit_strength: bool, uci_elo: int, skill_level: int) -> Optional[Strength]:
    """The Strength the options ask for, the weaker of UCI_Elo (when UCI_LimitStrength is on) and Skill Level; None
    for full strength."""
    elo = skill_elo(skill_level)
    if limit_strength:
        elo = min(elo, uci_elo)
    if elo >= MAX_ELO:
        return None
    elo = max(MIN_ELO, elo)
    nodes = max(MIN_NODES, round(NODES_AT_ANCHOR * 2.0 ** ((elo - ANCHOR_ELO) / ELO_PER_DOUBLING)))
    temperature = TEMPERATURE_PER_ELO * max(0, COOL_ELO - elo)
    return Strength(elo, nodes, LINES, temperature)


def choice_weights(scores: list, temperature: float) -> list:
    """The chance of each line given its score (centipawns, or mate as +-MATE_CP), best line first: a softmax of the
    scores' distance below the best at `temperature` (0: the best line alone)."""
    best = max(scores)
    if temperature <= 0:
        return [1.0 if score == best else 0.0 for score in scores]
    weights = [math.exp((score - best) / temperature) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def choose_line(scores: list, temperature: float, rng: random.Random) -> int:
    """The index of the line to play among lines with `scores`, drawn with choice_weights' chances."""
    weights = choice_weights(scores, temperature)
    return rng.choices(range(len(scores)), weights=weights)[0]
