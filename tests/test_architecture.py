"""docs/ARCHITECTURE.md, the map of the code, kept in step with the files: every module or file it names exists,
and every module of the package is named. Reads files only (no engine, no import of the package)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mpcmc_engine"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"

# A path in a backticked span: folders and a file name (`search/movepick.py`, `experiments/soak.py`, `cli.py`,
# `pyproject.toml`) or folders alone (`training/td/`). Paths are relative to mpcmc_engine/ unless they start with a
# folder of the repository.
PATH = re.compile(r"(?:[A-Za-z_.][\w.-]*/)+(?:[\w-]+\.(?:py|md|toml|json))?|[\w-]+\.(?:py|toml)")
DOTTED = re.compile(r"mpcmc_engine(?:\.\w+)+")  # a module named by import path: mpcmc_engine.training.td.trainer
SPAN = re.compile(r"`([^`\n]+)`")
WORD_EDGE = r"(?<![\w/.$~<>-]){}(?![\w/<>-])"


def _spans() -> list:
    return SPAN.findall(ARCHITECTURE.read_text())


def _resolve(name: str):
    """The file or folder `name` stands for (relative to the repository or to mpcmc_engine/), or None."""
    for base in (ROOT, PACKAGE):
        if (base / name).exists():
            return (base / name).resolve()
    return None


def _named_paths() -> dict:
    """{path as written: the file it stands for, or None when there is none} for every path the page names."""
    named = {}
    for span in _spans():
        for match in re.finditer(WORD_EDGE.format(f"(?:{PATH.pattern})"), span):
            text = match.group(0).rstrip(".")
            named[text] = _resolve(text)
        for match in DOTTED.finditer(span):
            relative = Path(*match.group(0).split("."))
            module = ROOT / relative.with_suffix(".py")
            package = ROOT / relative / "__init__.py"
            named[match.group(0)] = next((p.resolve() for p in (module, package) if p.exists()), None)
    return named


def test_every_path_the_architecture_page_names_exists():
    named = _named_paths()
    assert len(named) > 100, "the page names far fewer paths than expected: is the pattern still right?"
    missing = sorted(text for text, path in named.items() if path is None)
    assert not missing, f"docs/ARCHITECTURE.md names paths that do not exist: {missing}"


def test_every_module_of_the_package_is_on_the_architecture_page():
    named = {path for path in _named_paths().values() if path is not None}
    modules = sorted(path for path in PACKAGE.rglob("*.py")
                     if path.name not in ("__init__.py", "__main__.py") and "__pycache__" not in path.parts)
    unnamed = [str(path.relative_to(PACKAGE)) for path in modules if path.resolve() not in named]
    assert not unnamed, f"docs/ARCHITECTURE.md does not name these modules: {unnamed}"
