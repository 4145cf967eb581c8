"""The numba cache is keyed by every source the compiled code depends on: the modules that define numba functions and
the project modules they import, transitively; not by the pure-Python faces."""

import shutil
from pathlib import Path

import pytest

from mpcmc_engine import jit as project_jit
from mpcmc_engine.bitboard.makemove import make_move
from mpcmc_engine.bitboard.movegen import generate_moves

ROOT = Path(project_jit.__file__).resolve().parent.parent


@pytest.fixture
def package(tmp_path) -> Path:
    """A copy of the mpcmc_engine package's sources to edit."""
    copy = tmp_path / ROOT.name
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns("__pycache__", "data"))
    return copy


def test_sources_are_the_numba_modules_and_what_they_import():
    sources = {str(path.relative_to(ROOT)) for path in project_jit.numba_sources()}
    assert {"bitboard/movegen.py", "bitboard/perft.py", "search/core.py", "eval/evaluate.py", "jit/intrinsics.py",
            "bitboard/constants.py", "search/constants.py", "jit/__init__.py", "bitboard/__init__.py"} <= sources
    assert not {"search/searcher.py", "bitboard/position.py", "uci/engine.py", "cli.py"} & sources
    assert set(project_jit.numba_sources()) == project_jit.NUMBA_SOURCES


def test_digest_matches_the_running_engine(package):
    assert project_jit.source_digest(package) == project_jit.SOURCE_DIGEST


@pytest.mark.parametrize("edited", ["bitboard/movegen.py", "bitboard/constants.py", "search/constants.py",
                                    "jit/intrinsics.py", "bitboard/__init__.py"])
def test_digest_changes_with_a_numba_module_or_what_it_imports(package, edited):
    original = project_jit.source_digest(package)
    path = package / edited
    path.write_text(path.read_text() + "\n# a changed comment\n")
    assert project_jit.source_digest(package) != original


@pytest.mark.parametrize("edited", ["search/searcher.py", "bitboard/position.py", "uci/engine.py", "cli.py"])
def test_digest_stays_when_only_a_python_face_changes(package, edited):
    original = project_jit.source_digest(package)
    path = package / edited
    path.write_text(path.read_text() + "\nCHANGED = 1\n")
    assert project_jit.source_digest(package) == original


def test_a_new_numba_module_and_its_imports_join_the_digest(package):
    original = project_jit.source_digest(package)
    (package / "eval" / "helper_constants.py").write_text("SCALE = 3\n")
    assert project_jit.source_digest(package) == original  # nothing compiled imports it yet
    (package / "eval" / "added.py").write_text(
        "from mpcmc_engine.jit import jit\nfrom .helper_constants import SCALE\n\n\n"
        "@jit(\"int64(int64)\")\ndef scaled(x):\n    return x * SCALE\n")
    with_module = project_jit.source_digest(package)
    assert with_module != original
    (package / "eval" / "helper_constants.py").write_text("SCALE = 4\n")
    assert project_jit.source_digest(package) != with_module


def test_project_functions_are_cached_under_the_digest_directory():
    for function in (make_move, generate_moves):
        locator = function._cache._impl.locator
        assert isinstance(locator, project_jit.ProjectCacheLocator)
        assert locator.get_cache_path().startswith(str(project_jit.cache_root()))
        assert project_jit.SOURCE_DIGEST in locator.get_cache_path()
