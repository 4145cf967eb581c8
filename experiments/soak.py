"""The soak test (issue 22): many games through the match runner, counting what must never happen.

Usage: python experiments/soak.py [--games N] [--mpcmc-games M] [--elo E] [--concurrency K] [--out DIR]

Part a plays N games (default 1000) at 1+0.01 against Stockfish 15.1 limited with UCI_LimitStrength; part b plays M
games (default 100) at 10+0.1 with MPC-MC on (one-step, internal sub-engines) against the same opponent. Both use
`mpcmc-engine match` from the shipped 8moves_v3 openings and write DIR/part-a.pgn and DIR/part-b.pgn: rerunning the
command resumes each part where it stopped (and a larger N or M adds games). For this engine it counts, from the
PGN's Termination and reason: time losses, illegal moves (rules infractions) and crashes (abandoned: died, stalled or
could not start); and after each run of a part, orphan processes: processes still alive 10 s after the match ended
that descend from the engine (each engine is started with a tag in its environment, which its sub-engines inherit).
Orphan counts of every run are kept in DIR/orphans.json. The summary is printed at the end (also after Ctrl-C).
"""

import argparse
import json
import os
import shlex
import sys
import time
import uuid
from pathlib import Path

import chess.pgn
from checkout import use_checkout

REPOSITORY = use_checkout()

from mpcmc_engine.cli import main as cli_main
from mpcmc_engine.data import BALANCED_OPENINGS
from mpcmc_engine.uci_process import this_engine_command

STOCKFISH = "/usr/games/stockfish"
ENGINE = "mpcmc-engine"
TAG_VARIABLE = "MPCMC_SOAK_RUN"
ORPHAN_GRACE_S = 10.0
FAILURES = {"time forfeit": "time losses", "rules infraction": "illegal moves", "abandoned": "crashes"}
# how match/game.py's reasons name the engine that failed: "NAME lost on time (...)", "NAME crashed: ...", ...
OFFENCES = ("lost on time", "stalled", "crashed", "sent an invalid move", "played an illegal move", "could not start")
PARTS = {  # part: (time control, this engine's UCI options, description)
    "a": ("1+0.01", [], "1+0.01"),
    "b": ("10+0.1", ["MPCMC=one"], "MPC-MC one-step, 10+0.1"),
}


def tagged_processes(tag: str) -> list:
    """Process ids of the live processes whose environment holds TAG_VARIABLE=tag (Linux /proc)."""
    marker = f"{TAG_VARIABLE}={tag}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as handle:
                if marker in handle.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:  # gone, or not ours to read
            continue
    return found


def orphans_after(tag: str) -> list:
    """The processes of run `tag` still alive after ORPHAN_GRACE_S seconds (they are given that long to exit)."""
    deadline = time.monotonic() + ORPHAN_GRACE_S
    while (alive := tagged_processes(tag)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive


def command_line(pid: int) -> str:
    """The command line of process `pid` ('?' when it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


def play_part(part: str, games: int, elo: int, concurrency: int, out: Path) -> int:
    """Play (or resume) one part through `mpcmc-engine match`; record its orphans; return the match's exit status."""
    time_control, options, _ = PARTS[part]
    tag = uuid.uuid4().hex
    engine = shlex.join(["env", f"{TAG_VARIABLE}={tag}", *this_engine_command()])
    arguments = ["match", "--engine", engine, "--name", ENGINE]
    for option in options:
        arguments += ["--option", option]
    arguments += ["--engine", STOCKFISH, "--name", f"stockfish-{elo}", "--option", "UCI_LimitStrength=true",
                  "--option", f"UCI_Elo={elo}", "--option", "Threads=1", "--option", "Hash=16",
                  "--tc", time_control, "--openings", str(BALANCED_OPENINGS), "--seed", "1", "--games", str(games),
                  "--concurrency", str(concurrency), "--event", f"soak {part}", "--pgn", str(out / f"part-{part}.pgn")]
    print(f"== part {part}: mpcmc-engine {shlex.join(arguments)}", flush=True)
    status = cli_main(arguments)
    orphans = orphans_after(tag)
    for pid in orphans:
        print(f"orphan: pid {pid}: {command_line(pid)}")
    runs = orphan_runs(out)
    runs.setdefault(part, []).append(len(orphans))
    (out / "orphans.json").write_text(json.dumps(runs, indent=1) + "\n")
    return status


def orphan_runs(out: Path) -> dict:
    """{part: [orphans left by each run of it]} recorded in out/orphans.json."""
    record = out / "orphans.json"
    return json.loads(record.read_text()) if record.exists() else {}


def failure_counts(pgn: Path) -> dict:
    """{"games", "W-D-L" (this engine's), and per kind of FAILURES: [this engine's, the opponent's]} of a part."""
    counts = {"games": 0, "W-D-L": [0, 0, 0], **{kind: [0, 0] for kind in FAILURES.values()}}
    if not pgn.exists():
        return counts
    with open(pgn, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            headers = game.headers
            ours = chess.WHITE if headers["White"] == ENGINE else chess.BLACK
            result = headers["Result"]
            counts["games"] += 1
            counts["W-D-L"][1 if result == "1/2-1/2" else 0 if (result == "1-0") == (ours == chess.WHITE) else 2] += 1
            kind = FAILURES.get(headers.get("Termination", ""))
            if kind is not None:
                comment = game.end().comment
                counts[kind][0 if any(f"{ENGINE} {offence}" in comment for offence in OFFENCES) else 1] += 1
    return counts


def summary(out: Path) -> tuple:
    """(the soak's summary table: per part, games, this engine's score and failures, the opponent's in brackets;
    whether this engine had no failure and left no orphan)."""
    orphans = orphan_runs(out)
    lines = ["| part | games | W-D-L | time losses | illegal moves | crashes | orphans (runs) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    clean = True
    for part, (_, _, description) in PARTS.items():
        counts = failure_counts(out / f"part-{part}.pgn")
        failures = " | ".join(f"{counts[kind][0]} ({counts[kind][1]})" for kind in FAILURES.values())
        runs = orphans.get(part, [])
        lines.append(f"| {part}: {description} | {counts['games']} | {'-'.join(map(str, counts['W-D-L']))} | "
                     f"{failures} | {sum(runs)} ({len(runs)}) |")
        clean = clean and not sum(runs) and not any(counts[kind][0] for kind in FAILURES.values())
    return "\n".join(lines) + "\n(failures: this engine's, the opponent's in brackets)", clean


def main(argv=None) -> int:
    """Play both parts (resuming), then print the summary; the exit status is the match's when it failed (130 on
    Ctrl-C), else 1 when this engine failed anywhere or left an orphan, else 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="part a: games at 1+0.01 (default %(default)s)")
    parser.add_argument("--mpcmc-games", type=int, default=100, help="part b: games with MPC-MC at 10+0.1 "
                                                                     "(default %(default)s)")
    parser.add_argument("--elo", type=int, default=1500, help="Stockfish's UCI_Elo (default %(default)s)")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default %(default)s)")
    parser.add_argument("--out", default="soak", help="directory of the PGNs and orphan counts (default %(default)s)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    for part, games in (("a", args.games), ("b", args.mpcmc_games)):
        status = play_part(part, games, args.elo, args.concurrency, out) if games > 0 else 0
        if status:
            break
    table, clean = summary(out)
    print(table)
    return status or int(not clean)


if __name__ == "__main__":
    sys.exit(main())
