"""Perft test suites: EPD lines `FEN ;D1 20 ;D2 400 ...` with their expected node counts."""

from dataclasses import dataclass


@dataclass(frozen=True)
class PerftCase:
    """One position of a suite: where it came from, its FEN and the expected count per depth."""
    source: str          # "file:line"
    fen: str
    counts: dict         # depth -> expected leaf count
    name: str = ""


class SuiteError(ValueError):
    """A line of a suite that cannot be read; the message starts with file:line."""


def parse_perft_line(text: str, source: str) -> PerftCase:
    """Parse `FEN ;D1 n ;D2 n ... [;id "name"]`; raise SuiteError (naming `source`) when malformed."""
    fields = [field.strip() for field in text.split(";")]
    fen = fields[0]
    if len(fen.split()) < 4:
        raise SuiteError(f"{source}: expected a FEN before the first ';', got {fen!r}")
    counts = {}
    name = ""
    for field in fields[1:]:
        if not field:
            continue
        key, _, value = field.partition(" ")
        if key == "id":
            name = value.strip().strip('"')
        elif key.startswith("D") and key[1:].isdigit():
            try:
                counts[int(key[1:])] = int(value.strip())
            except ValueError:
                raise SuiteError(f"{source}: count of {key} is not an integer: {value.strip()!r}") from None
        else:
            raise SuiteError(f"{source}: unknown field {field!r} (expected Dn COUNT or id)")
    if not counts:
        raise SuiteError(f"{source}: no ;Dn counts")
    return PerftCase(source, fen, counts, name)


def read_perft_suite(path):
    """Yield a PerftCase or a SuiteError for every non-blank, non-comment line of an EPD perft file."""
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            try:
                yield parse_perft_line(text, f"{path}:{number}")
            except SuiteError as error:
                yield error
