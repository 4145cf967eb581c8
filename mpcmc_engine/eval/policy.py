"""The move policy: a head on a network's hidden layer that gives MCTS its priors, and its file format.

The policy reads the 2 x HIDDEN clipped sums of the network it was trained on (side to move's view, then the
other's, each clip(sum, 0, QA) / QA: the values the network's output layer reads) as a vector h, and scores a legal
move by
    logit = to_w[to] . h + to_b[to] + from_w[from] . h + from_b[from] + capture_b[capture]
where, with squares oriented as the side to move's view orients them (network_features.bucket_flip),
to = (type of the piece put down - PAWN) * 64 + its square (a promotion puts down the new piece, castling the king
on its destination), from = (type of the moving piece - PAWN) * 64 + its origin, and capture = ((mover type - PAWN)
* CAPTURED_KINDS + the captured type (0 none, PAWN..QUEEN)) * MOVE_CLASSES + the move's tactical class (whether its
exchange loses material, whether it checks, whether the moving piece stands attacked: mpcmc_engine.search.
policy_moves). MCTS adds the logits to its priors' logits (mpcmc_engine.search.mcts_tree).

A policy file is a compressed numpy archive: "format" (FORMAT), "version" (VERSION), "network" (the digest of the
network whose hidden layer it reads, network_digest), "provenance" (how it was made) and "weights" (float32,
PARAMETERS values: to_w, from_w (SQUARE_INDICES x FEATURES each, row-major), to_b, from_b, capture_b). The loader
refuses anything else with a ValueError that names the file and the reason.
"""

import hashlib
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mpcmc_engine.atomic_files import write_atomically
from mpcmc_engine.eval.network import HIDDEN, Network

FORMAT = "mpcmc-engine policy"
VERSION = 2           # 1: no tactical classes
FEATURES = 2 * HIDDEN                 # h: both views' clipped sums
SQUARE_INDICES = 6 * 64               # piece type x oriented square
CAPTURED_KINDS = 6                    # nothing, pawn, knight, bishop, rook, queen
MOVE_CLASSES = 8                      # tactical classes: loses material, checks, escapes (3 bits)
CAPTURE_INDICES = 6 * CAPTURED_KINDS * MOVE_CLASSES  # mover type x captured kind x tactical class
TO_W = 0
FROM_W = TO_W + SQUARE_INDICES * FEATURES
TO_B = FROM_W + SQUARE_INDICES * FEATURES
FROM_B = TO_B + SQUARE_INDICES
CAPTURE_B = FROM_B + SQUARE_INDICES
PARAMETERS = CAPTURE_B + CAPTURE_INDICES
SHIPPED_POLICY_PATH = Path(__file__).resolve().parent / "weights" / "policy.npz"  # PolicyFile <policy>


@dataclass
class Policy:
    """A policy's float32 weights (PARAMETERS, layout above), the digest of its network and its provenance."""

    weights: np.ndarray
    network: str
    provenance: str = ""


def network_digest(network: Network) -> str:
    """A short fingerprint of a network's integer weights: a policy reads only the hidden layer it was trained on."""
    digest = hashlib.sha256()
    for array in (network.w1, network.b1, network.w2, network.b2):
        digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return digest.hexdigest()[:16]


def load_policy(path) -> Policy:
    """Read and check a policy file; raise ValueError naming the file and the reason when it is unusable."""
    try:
        with np.load(path, allow_pickle=False) as data:
            fields = {name: data[name] for name in data.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile, zlib.error) as error:
        raise ValueError(f"policy file {path}: cannot be read: {error}") from None
    for name in ("format", "version", "network", "weights"):
        if name not in fields:
            raise ValueError(f"policy file {path}: no {name!r} field")
    if str(fields["format"]) != FORMAT:
        raise ValueError(f"policy file {path}: format is {str(fields['format'])!r}, expected {FORMAT!r}")
    if int(fields["version"]) != VERSION:
        raise ValueError(f"policy file {path}: version {int(fields['version'])}, this engine reads {VERSION}")
    weights = fields["weights"]
    if weights.dtype != np.float32 or weights.shape != (PARAMETERS,):
        raise ValueError(f"policy file {path}: weights are {weights.dtype} {weights.shape}, expected float32 "
                         f"({PARAMETERS},)")
    if not np.isfinite(weights).all():
        raise ValueError(f"policy file {path}: weights hold values that are not finite")
    return Policy(weights, str(fields["network"]), str(fields.get("provenance", "")))


def save_policy(policy: Policy, path) -> None:
    """Write `policy` as a policy file, atomically."""
    def write(temporary):
        with open(temporary, "wb") as handle:
            np.savez_compressed(handle, format=np.array(FORMAT), version=np.array(VERSION),
                                network=np.array(policy.network), provenance=np.array(policy.provenance),
                                weights=np.asarray(policy.weights, dtype=np.float32))
    write_atomically(path, write)
