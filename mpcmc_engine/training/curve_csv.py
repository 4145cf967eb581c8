"""Learning-curve rows as CSV, one dict a row with the same keys: the TD trainer's curve (td/learning_curve.py),
the network trainer's losses (train-network) and the staged endgame run's figures (endgame/stage_curve.py).
"""

import csv
import io

from mpcmc_engine.atomic_files import write_text_atomically

INTEGER_FIELDS = ("games", "wac_solved", "wac_total", "match_games")


def write_curve_csv(rows: list, path) -> None:
    """Write the curve rows (dicts with the same keys: `games`, a probe's fields, `mean_abs_td`) as CSV,
    atomically."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=list(rows[0]) if rows else ["games"])
    writer.writeheader()
    writer.writerows(rows)
    write_text_atomically(path, text.getvalue())


def read_curve_csv(path) -> list:
    """The rows of a curve CSV, numbers converted (counts to int, the rest to float)."""
    with open(path) as handle:
        return [{key: int(value) if key in INTEGER_FIELDS else float(value) for key, value in row.items()}
                for row in csv.DictReader(handle)]
