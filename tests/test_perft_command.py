"""`mpcmc-engine perft` as a user runs it: counts, divide output, EPD validation with file:line errors."""

import subprocess
import sys

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def _perft(*arguments):
    return subprocess.run([sys.executable, "-m", "mpcmc_engine", "perft", *arguments],
                          capture_output=True, text=True, timeout=300)


def test_count_from_start_position():
    result = _perft("--depth", "4")
    assert result.returncode == 0
    assert result.stdout.strip() == "Nodes searched: 197281"


def test_divide_in_stockfish_format():
    result = _perft("--depth", "2", "--fen", KIWIPETE, "--divide")
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert lines[-2:] == ["", "Nodes searched: 2039"]
    moves = dict(line.split(": ") for line in lines[:-2])
    assert len(moves) == 48
    assert moves["e1g1"] == "43" and moves["e1c1"] == "43"
    assert sum(int(count) for count in moves.values()) == 2039


def test_chess960_divide_writes_castling_king_takes_rook():
    result = _perft("--depth", "1", "--divide", "--chess960", "--fen", "4k3/8/8/8/8/8/8/R3K2R w AH - 0 1")
    assert {"e1h1: 1", "e1a1: 1"} <= set(result.stdout.splitlines())


def test_invalid_fen_is_a_clear_error():
    result = _perft("--depth", "1", "--fen", "not a fen")
    assert result.returncode == 2
    assert "invalid FEN 'not a fen'" in result.stderr


def test_epd_validation_reports_mismatches_and_bad_lines(tmp_path):
    suite = tmp_path / "suite.epd"
    suite.write_text(
        "# a comment\n"
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n"
        f"{KIWIPETE} ;D1 48 ;D2 2040\n"
        "8/8/8/8 w - - ;D1 3\n"
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 five\n")
    result = _perft("--epd", str(suite))
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert lines[-1] == "1/4 positions exact"
    assert any(line.startswith(f"{suite}:3: depth 2: expected 2040, got 2039") for line in lines)
    assert any(line.startswith(f"{suite}:4: ") and "invalid FEN" in line for line in lines)
    assert any(line.startswith(f"{suite}:5: count of D1 is not an integer") for line in lines)


def test_epd_validation_depth_cap_and_success(tmp_path):
    suite = tmp_path / "suite.epd"
    suite.write_text(f"{KIWIPETE} ;D1 48 ;D2 2039 ;D3 97862 ;D4 1\n")
    assert _perft("--epd", str(suite)).returncode == 1
    result = _perft("--epd", str(suite), "--depth", "3")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["1/1 positions exact"]


def test_unreadable_epd_file():
    result = _perft("--epd", "/nonexistent/suite.epd")
    assert result.returncode == 2
    assert "/nonexistent/suite.epd: cannot read" in result.stderr
