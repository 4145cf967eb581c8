"""How far the integer network the engine plays lies from the float network it was trained as, at each output-weight
scale qb: from a train-network checkpoint (its float vector) and the same data and settings, the validation rows'
mean and largest score difference (centipawns) and their loss, at the float model and at each qb written.
docs/NETWORK.md quotes it.

    python experiments/output_scale.py --checkpoint NET.json.checkpoint.npz --data DIR [DIR ...]
        [--activation crelu] [--result-weight 0.0] [--validation 0.02] [--seed 1] [--qb 64 128 256 512 1024]
"""

import argparse

import numpy as np

from checkout import use_checkout

use_checkout()

from mpcmc_engine.eval.network import ACTIVATION_CODES, OUTPUT_SCALE  # noqa: E402 (after use_checkout)
from mpcmc_engine.training.network.position_data import load_positions  # noqa: E402
from mpcmc_engine.training.network.trainer import mean_loss, split, targets_of  # noqa: E402
from mpcmc_engine.training.network_model import active_inputs, dequantize, network_outputs, quantize  # noqa: E402


def main() -> None:
    """Print one row per output scale: qb, mean and largest |score difference| from the float model, loss."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--data", required=True, nargs="+")
    parser.add_argument("--activation", default="crelu", choices=sorted(ACTIVATION_CODES))
    parser.add_argument("--result-weight", type=float, default=0.0)
    parser.add_argument("--validation", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--qb", type=int, nargs="+", default=[64, 128, 256, 512, 1024])
    args = parser.parse_args()
    positions = load_positions(*args.data).quiet_only()
    _, rows = split(positions, args.validation, args.seed)
    inputs = active_inputs(positions.board, positions.side)
    targets = targets_of(positions, args.result_weight)
    code = ACTIVATION_CODES[args.activation]
    with np.load(args.checkpoint) as data:
        vector = data["vector"].astype(np.float32)
    exact = network_outputs(vector, inputs[rows], code) * OUTPUT_SCALE
    loss = mean_loss(vector, inputs, targets, rows, args.activation)
    print(f"{len(rows)} validation positions; the float model's loss {loss:.6f}")
    for qb in args.qb:
        integer = dequantize(quantize(vector, "", args.activation, qb))
        difference = np.abs(network_outputs(integer, inputs[rows], code) * OUTPUT_SCALE - exact)
        print(f"qb {qb:5d}: mean |difference| {difference.mean():6.2f} cp, largest {difference.max():6.1f} cp, "
              f"loss {mean_loss(integer, inputs, targets, rows, args.activation):.6f}")


if __name__ == "__main__":
    main()
