"""The MCTS search algorithms (`SearchAlgorithm` mcts, with the shipped policy and without one, and mcts-rollout)
through python-chess on the engine process: every limit ends in a legal move, searchmoves and MultiPV, mates and a
hanging queen, terminal positions one move away, reproducible random playouts, the tree kept between moves, Threads,
a full node pool."""

import time

import chess
import chess.engine
import pytest

MODES = ("mcts", "mcts-quick", "mcts-rollout")  # mcts-quick: mcts without a policy (PolicyFile <none>)
PUCT_MODES = ("mcts", "mcts-quick")
MIDDLEGAME = "r1bq1r1k/1pp1n1pp/1p1p4/4p2Q/4Pp2/1BNP4/PPP2PPP/3R1RK1 w - - 2 14"
MATE_IN_ONE = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"          # Rd8#
QUEEN_ATTACKED = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 3"  # Nf3 attacks the queen
MATE_OR_STALEMATE = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1"             # Qf8# mates, Qf7 stalemates
MATED_NEXT = "7k/8/6K1/8/8/8/8/R7 b - - 0 1"                     # Kg8 is forced, then Ra8#


@pytest.fixture(scope="module")
def engine(open_engine):
    return open_engine()


def use(engine, mode, **options):
    """A fresh game (ucinewgame: an empty tree) with SearchAlgorithm `mode` (mcts-quick: mcts without a policy) and
    the other options given."""
    policy = "<none>" if mode == "mcts-quick" else "<policy>"
    engine.configure({"SearchAlgorithm": "mcts" if mode == "mcts-quick" else mode, "PolicyFile": policy,
                      "Threads": 1, **options})
    engine.play(chess.Board(), chess.engine.Limit(nodes=1), game=object())


def visits(info) -> int:
    """The visits of an info line's root move (`string visits N`)."""
    word, count = info["string"].split()
    assert word == "visits"
    return int(count)


@pytest.mark.parametrize("mode", MODES)
def test_node_limit_counts_simulations(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    result = engine.play(board, chess.engine.Limit(nodes=300), info=chess.engine.INFO_ALL, game=object())
    assert result.move in board.legal_moves
    assert result.info["nodes"] == 300
    assert result.info["pv"][0] == result.move
    assert 1 <= visits(result.info) <= 300
    if result.ponder is not None:
        assert result.info["pv"][1] == result.ponder


@pytest.mark.parametrize("mode", MODES)
def test_movetime_is_kept(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    started = time.monotonic()
    result = engine.play(board, chess.engine.Limit(time=0.3), info=chess.engine.INFO_ALL)
    elapsed = time.monotonic() - started
    assert result.move in board.legal_moves
    assert 0.15 <= elapsed < 0.8  # the search takes movetime less Move Overhead; generous for a busy machine
    assert result.info["nodes"] > 0


@pytest.mark.parametrize("mode", MODES)
def test_clock_is_kept(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    clock = {chess.WHITE: 1.0, chess.BLACK: 1.0}
    for _ in range(6):  # six moves of a game at 1 s + 50 ms a side, the tree kept from move to move
        if board.is_game_over():  # a timed search may play into a mate within the six moves
            break
        started = time.monotonic()
        result = engine.play(board, chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                                       white_inc=0.05, black_inc=0.05))
        clock[board.turn] -= time.monotonic() - started
        assert result.move in board.legal_moves
        assert clock[board.turn] > 0.5  # each move takes a small part of the clock, far from a loss on time
        clock[board.turn] += 0.05
        board.push(result.move)


@pytest.mark.parametrize("mode", MODES)
def test_depth_is_the_pv_length(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    result = engine.play(board, chess.engine.Limit(depth=3), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["depth"] >= 3 and len(result.info["pv"]) == result.info["depth"]


@pytest.mark.parametrize("mode", MODES)
def test_infinite_until_stop(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    with engine.analysis(board) as analysis:
        time.sleep(0.4)
        assert analysis.info.get("nodes", 0) > 0  # reports came during the search
        analysis.stop()
        best = analysis.wait()
    assert best.move in board.legal_moves


@pytest.mark.parametrize("mode", MODES)
def test_searchmoves(engine, mode):
    use(engine, mode)
    board = chess.Board()
    allowed = [chess.Move.from_uci("a2a3"), chess.Move.from_uci("h2h4")]
    result = engine.play(board, chess.engine.Limit(nodes=200), root_moves=allowed, info=chess.engine.INFO_ALL)
    assert result.move in allowed and result.info["pv"][0] == result.move


@pytest.mark.parametrize("mode", MODES)
def test_multipv_lines_ordered_by_visits(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    lines = engine.analyse(board, chess.engine.Limit(nodes=600), multipv=3)
    assert len(lines) == 3
    assert len({line["pv"][0] for line in lines}) == 3
    counts = [visits(line) for line in lines]
    assert counts == sorted(counts, reverse=True) and sum(counts) <= 600 + 1


@pytest.mark.parametrize("mode", PUCT_MODES)
def test_mcts_mates_in_one(engine, mode):
    use(engine, mode)
    board = chess.Board(MATE_IN_ONE)
    result = engine.play(board, chess.engine.Limit(nodes=100), info=chess.engine.INFO_ALL)
    board.push(result.move)
    assert board.is_checkmate()
    assert result.info["score"].relative == chess.engine.Mate(1)


@pytest.mark.parametrize("mode", PUCT_MODES)
def test_mcts_saves_its_queen(engine, mode):
    use(engine, mode)
    board = chess.Board(QUEEN_ATTACKED)
    result = engine.play(board, chess.engine.Limit(nodes=200))
    board.push(result.move)
    queen = board.pieces(chess.QUEEN, chess.BLACK)
    assert queen and not board.is_attacked_by(chess.WHITE, next(iter(queen)))


@pytest.mark.parametrize("mode", MODES)
def test_mate_rather_than_stalemate(engine, mode):
    use(engine, mode)
    board = chess.Board(MATE_OR_STALEMATE)
    result = engine.play(board, chess.engine.Limit(nodes=300))
    board.push(result.move)
    assert board.is_checkmate()


@pytest.mark.parametrize("mode", MODES)
def test_the_only_move_before_mate(engine, mode):
    use(engine, mode)
    board = chess.Board(MATED_NEXT)
    result = engine.play(board, chess.engine.Limit(nodes=50), info=chess.engine.INFO_ALL)
    assert result.move == chess.Move.from_uci("h8g8")
    if mode in PUCT_MODES:  # the solver proves the loss
        assert result.info["score"].relative == chess.engine.Mate(-1)


def test_rollout_is_reproducible(engine):
    board = chess.Board(MIDDLEGAME)
    seen = []
    for _ in range(2):
        use(engine, "mcts-rollout")
        result = engine.play(board, chess.engine.Limit(nodes=400), info=chess.engine.INFO_ALL, game=object())
        seen.append((result.move, result.info["score"], result.info["pv"], visits(result.info)))
    assert seen[0] == seen[1]


@pytest.mark.parametrize("mode", MODES)
def test_tree_kept_between_moves(engine, mode):
    use(engine, mode)
    board = chess.Board(MIDDLEGAME)
    game = object()
    first = engine.play(board, chess.engine.Limit(nodes=3000), game=game)
    assert first.ponder is not None
    board.push(first.move)
    board.push(first.ponder)

    def root_visits(game):
        """The visits of all root moves after one more simulation (every move a MultiPV line)."""
        lines = engine.analyse(board, chess.engine.Limit(nodes=1), multipv=256, game=game)
        assert all(line["pv"][0] in board.legal_moves for line in lines)
        return sum(visits(line) for line in lines)

    assert root_visits(game) > 1  # the subtree of the position two plies on was kept
    assert root_visits(object()) == 0  # ucinewgame emptied the tree: the one simulation expands the root


@pytest.mark.parametrize("mode", MODES)
def test_two_threads_share_the_tree(engine, mode):
    use(engine, mode, Threads=2)
    board = chess.Board(MIDDLEGAME)
    result = engine.play(board, chess.engine.Limit(nodes=400), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert 0 < result.info["nodes"] <= 400
    with engine.analysis(board) as analysis:
        time.sleep(0.3)
        analysis.stop()
        assert analysis.wait().move in board.legal_moves
    engine.configure({"Threads": 1})


@pytest.mark.parametrize("mode", MODES)
def test_a_full_pool_keeps_simulating(engine, mode):
    use(engine, mode, Hash=1)  # 13,107 nodes
    board = chess.Board(MIDDLEGAME)
    result = engine.play(board, chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
    assert result.move in board.legal_moves
    assert result.info["nodes"] == 3000 and result.info["hashfull"] == 1000
    deep = engine.play(board, chess.engine.Limit(depth=60), info=chess.engine.INFO_ALL)  # ends when the pool is full
    assert deep.move in board.legal_moves and deep.info["hashfull"] == 1000
    engine.configure({"Hash": 16})
