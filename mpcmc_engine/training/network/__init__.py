"""The neural network's training from positions labelled by search (`gen-positions`, `relabel-positions`,
`train-network`; see docs/NETWORK.md).

position_data: the labelled positions, a directory of chunk files; position_generation: self-play games whose
positions are kept with their search score and best move, flagged quiet or not (gen-positions); relabelling: chunks
searched again (relabel-positions);
chunk_workers: the two over worker processes; trainer: Adam on the float network (training/network_model.py) toward
the labels (train-network); loss_curve: the training and validation loss plot.
"""
