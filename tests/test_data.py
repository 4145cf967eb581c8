"""The shipped data (mpcmc_engine/data/): every path the package names is there, every file there is named by the
package and has a row in the folder's README, and each file holds the rows that README states."""

import gzip
from pathlib import Path

import mpcmc_engine.data as data

NAMED = {value for value in vars(data).values() if isinstance(value, Path) and value != data.DATA}
SHIPPED = {path for path in data.DATA.rglob("*") if path.is_file() and path.suffix not in (".py", ".pyc", ".md")}
ROWS = {"perft/standard.epd": 128, "perft/cpw.epd": 7, "perft/chess960.epd": 960, "perft/tricky.perft": 19,
        "tactical/wac.epd": 300, "tactical/mate2.fen": 212, "tactical/mate3.fen": 14, "positional/sts.epd": 1500,
        "openings/4mvs_+90_+99.epd": 635, "openings/8moves_v3.pgn.gz": 34_700, "openings/chess960.epd": 960}


def _rows(path: Path) -> int:
    """Games of a gzip-compressed PGN file, `id` lines of a .perft file, non-blank lines of any other file."""
    if path.name.endswith(".pgn.gz"):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            return sum(line.startswith("[Event ") for line in handle)
    lines = path.read_text(encoding="utf-8").splitlines()
    if path.suffix == ".perft":
        return sum(line.startswith("id ") for line in lines)
    return sum(bool(line.strip()) for line in lines)


def test_every_named_file_is_shipped_and_every_shipped_file_is_named():
    assert NAMED == SHIPPED


def test_every_shipped_file_has_a_readme_row_with_its_count():
    assert {path.relative_to(data.DATA).as_posix(): _rows(path) for path in SHIPPED} == ROWS
    readme = (data.DATA / "README.md").read_text(encoding="utf-8")
    table = [[cell.strip() for cell in line.split("|")[1:-1]] for line in readme.splitlines() if line.startswith("| ")]
    assert {cells[0]: int(cells[2].replace(",", "")) for cells in table[2:]} == ROWS
