"""How the project compiles numba code: one decorator and an on-disk cache keyed by every source its compiled code
depends on.

numba's own cache stamp covers only the file that defines a function, so a constant or callee changed in another
module would be served stale. Every numba function of the project is therefore compiled through `jit` below, whose
cache lives in a directory named by a digest of the *numba sources*: the modules that define compiled functions
(decorated with jit, njit, intrinsic, ...) and every project module they import, transitively (found by reading the
import statements, lazy ones included; a package's __init__ counts with each of its modules), plus the Python and
numba versions. Editing such a module invalidates the whole cache at once; editing a pure-Python face that no compiled
code imports (search/searcher.py, the UCI layer, the tools) leaves it valid.

The cache directory is `$XDG_CACHE_HOME/mpcmc-engine/numba/<digest>` (default `~/.cache/...`); when that is not
writable, numba's default locators are used. In a stand-alone executable (PyInstaller, `sys.frozen`) the sources are
not on disk: the build ships a cache compiled for a generic CPU in `numba_cache/<digest>/` inside the bundle, the
digest is that folder's name, and the first start copies it to `.../numba/<digest>-executable` in the user's cache.
"""

import ast
import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

import numba
from numba.core.caching import CacheImpl, _CacheLocator

NUMBA_DECORATORS = ("jit", "njit", "intrinsic", "generated_jit", "vectorize", "guvectorize", "cfunc", "overload",
                    "overload_method", "register_jitable", "jitclass")
# A line that decorates with one of NUMBA_DECORATORS (@jit, @jit(...), @numba.njit, ...), and an import statement
# (parenthesised and backslash-continued ones whole); read as text, which is fast, and conservative: a docstring line
# that looks like either only adds a file, and one that does not parse as an import is skipped.
_NUMBA_DECORATOR = re.compile(rb"^[ \t]*@[ \t]*(?:\w+\.)*(?:" + "|".join(NUMBA_DECORATORS).encode() + rb")\b", re.M)
_IMPORT_STATEMENT = re.compile(
    rb"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|(?:[^\n]*\\\n)*[^\n]*)|import[ \t]+[^\n]*)", re.M)
_PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # mpcmc_engine/
FROZEN = bool(getattr(sys, "frozen", False))
BUNDLED_CACHE_FOLDER = "numba_cache"


def _module_files(root: Path, name: str) -> list:
    """The files Python runs to import module `name` of the package at `root` (named root.name): the module's own
    file and every package __init__ on its way; [] when `name` is not a module of that package."""
    parts = name.split(".")
    if parts[0] != root.name:
        return []
    files, folder = [], root
    for part in parts[1:]:
        if (folder / "__init__.py").is_file():
            files.append(folder / "__init__.py")
        folder = folder / part
    if (folder / "__init__.py").is_file():
        return files + [folder / "__init__.py"]
    module = folder.with_suffix(".py")
    return files + [module] if module.is_file() else []


def _imported_files(root: Path, path: Path, text: bytes) -> set:
    """The project files that importing the module at `path` (source `text`) runs, by its import statements."""
    package = [root.name, *path.relative_to(root).parent.parts]
    names = []
    for match in _IMPORT_STATEMENT.finditer(text):
        try:
            node = ast.parse(match.group(0).strip()).body[0]
        except SyntaxError:
            continue
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            names += [module] + [f"{module}.{alias.name}" for alias in node.names]  # a name may be a submodule
    return {file for name in names for file in _module_files(root, name)}


def numba_sources(root: Path = _PACKAGE_ROOT) -> list:
    """The sources the compiled code of the package at `root` depends on (see the module docstring), sorted."""
    texts = {path: path.read_bytes() for path in root.rglob("*.py")}
    pending = [path for path, text in texts.items() if _NUMBA_DECORATOR.search(text)]
    found = set()
    while pending:
        path = pending.pop()
        if path not in found:
            found.add(path)
            pending += _imported_files(root, path, texts[path]) - found
    return sorted(found)


def source_digest(root: Path = _PACKAGE_ROOT, sources=None) -> str:
    """Return a hex digest of the numba sources of the package at `root` (`sources`: numba_sources(root) when
    already known), the interpreter and numba."""
    digest = hashlib.sha256()
    digest.update(f"{sys.version_info[:3]} numba {numba.__version__}".encode())
    for path in numba_sources(root) if sources is None else sources:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _bundled_cache() -> Path:
    """The pre-built cache folder inside a stand-alone executable's bundle (one sub-folder named by the digest)."""
    return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent)) / BUNDLED_CACHE_FOLDER


def _bundled_digest() -> str:
    """The digest the bundled cache was built for; raise RuntimeError when the bundle has none."""
    folders = [p.name for p in _bundled_cache().iterdir() if p.is_dir()] if _bundled_cache().is_dir() else []
    if len(folders) != 1:
        raise RuntimeError(f"{_bundled_cache()}: expected one pre-built numba cache folder, found {folders}")
    return folders[0]


NUMBA_SOURCES = frozenset() if FROZEN else frozenset(numba_sources())
SOURCE_DIGEST = _bundled_digest() if FROZEN else source_digest(_PACKAGE_ROOT, sorted(NUMBA_SOURCES))


def cache_root() -> Path:
    """Return the directory that holds this build's numba cache (a stand-alone executable's own: its entries are
    compiled for a generic CPU, and a source tree of the same digest must not hide them)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mpcmc-engine" / "numba" / (f"{SOURCE_DIGEST}-executable" if FROZEN else SOURCE_DIGEST)


def _install_bundled_cache() -> None:
    """Copy the bundle's pre-built cache into the user's cache directory once (atomically, by rename)."""
    target = cache_root()
    if target.exists():
        return
    temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        shutil.copytree(_bundled_cache() / SOURCE_DIGEST, temporary)
        os.replace(temporary, target)
    except OSError:
        shutil.rmtree(temporary, ignore_errors=True)


if FROZEN:
    _install_bundled_cache()


class ProjectCacheLocator(_CacheLocator):
    """numba cache locator for the functions of the project's numba sources (in a stand-alone executable: every
    cached function, all of them frozen with it): one directory per source digest."""

    def __init__(self, py_func, py_file):
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_root() / Path(py_file).parent.name)

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return SOURCE_DIGEST

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not FROZEN and Path(py_file).resolve() not in NUMBA_SOURCES:
            return None
        locator = cls(py_func, py_file)
        try:
            locator.ensure_cache_path()
        except OSError:
            return None
        return locator


if ProjectCacheLocator not in CacheImpl._locator_classes:
    CacheImpl._locator_classes.insert(0, ProjectCacheLocator)


def jit(signature=None, allocates=False, **options):
    """`numba.njit` with the project's defaults (cached, nogil, no Python fallback); signature is optional.

    Only a function that `allocates` arrays (np.zeros, np.empty, slice assignment, array expressions) is compiled
    with numba's reference counting: every other one works on arrays its caller owns for the whole call, and
    counting references to them (atomic operations at each slice, view and call) cost a fifth of the search's time."""
    options.setdefault("cache", True)
    options.setdefault("nogil", True)
    options.setdefault("_nrt", allocates)
    if signature is None:
        return numba.njit(**options)
    return numba.njit(signature, **options)
