"""The words of UCI commands parsed into values: `go`, `position` and `setoption`. Standard library only."""

from mpcmc_engine.search.timeman import GoParams

GO_NUMBERS = ("wtime", "btime", "winc", "binc", "movestogo", "movetime", "depth", "nodes", "mate", "perft")
GO_FLAGS = ("infinite", "ponder")
GO_KEYWORDS = GO_NUMBERS + GO_FLAGS + ("searchmoves",)


def parse_go(tokens: list) -> tuple:
    """(GoParams, [problems]) from the words after `go`: any subset and order; unreadable words are reported and
    skipped."""
    params, problems = GoParams(), []
    index = 0
    while index < len(tokens):
        word = tokens[index].lower()
        index += 1
        if word in GO_FLAGS:
            setattr(params, word, True)
        elif word in GO_NUMBERS:
            text = tokens[index] if index < len(tokens) else ""
            try:
                value = int(text)
                index += 1
            except ValueError:
                problems.append(f"go: {word} needs an integer, not {text!r}")
                continue
            if word in ("depth", "nodes", "mate", "perft", "movetime") and value < 1:
                problems.append(f"go: {word} {value} ignored (must be at least 1)")
            else:
                setattr(params, word, value)
        elif word == "searchmoves":
            while index < len(tokens) and tokens[index].lower() not in GO_KEYWORDS:
                params.searchmoves.append(tokens[index])
                index += 1
        else:
            problems.append(f"go: unknown word {tokens[index - 1]!r} ignored")
    return params, problems


def parse_position(tokens: list) -> tuple:
    """(fen or None for startpos, [move texts]) from the words after `position`; raise ValueError when malformed."""
    if not tokens:
        raise ValueError("position needs startpos or fen")
    moves_at = next((i for i, word in enumerate(tokens) if word == "moves"), len(tokens))
    moves = tokens[moves_at + 1:]
    if tokens[0] == "startpos" and moves_at == 1:
        return None, moves
    if tokens[0] == "fen" and moves_at > 1:
        return " ".join(tokens[1:moves_at]), moves
    raise ValueError(f"malformed position command: position {' '.join(tokens)}")


def parse_setoption(tokens: list) -> tuple:
    """(name, value text or None) from the words after `setoption`; raise ValueError when malformed."""
    if not tokens or tokens[0] != "name":
        raise ValueError("setoption needs: name <name> [value <value>]")
    value_at = next((i for i, word in enumerate(tokens) if word == "value"), None)
    name = " ".join(tokens[1:value_at])
    if not name:
        raise ValueError("setoption: missing option name")
    return name, None if value_at is None else " ".join(tokens[value_at + 1:])


def parse_bench(tokens: list):
    """The depth of `bench [depth]` (None when not given); raise ValueError when it is not a positive integer."""
    if not tokens:
        return None
    try:
        depth = int(tokens[0])
    except ValueError:
        raise ValueError(f"bench: depth must be an integer, not {tokens[0]!r}") from None
    if depth < 1:
        raise ValueError(f"bench: depth must be at least 1, not {depth}")
    return depth
