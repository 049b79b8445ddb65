"""Long compiled work stops at Ctrl-C and at a game's time limit; its cost is said before it starts.

The subprocess tests send a real SIGINT to ``evo-mastermind`` (or a short script) while it is
inside a compiled kernel, found by the child's CPU time or by a line it prints just before,
and allow a generous 10 s for it to stop: stopping takes well under a second, so nothing here
relies on the machine's speed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from evo_mastermind import watchdog
from evo_mastermind.codes import CodeSpace
from evo_mastermind.players import known_player, make_player, validate_params
from evo_mastermind.players.cost import tree_announcement
from evo_mastermind.sampling import Constraints, _kernels
from evo_mastermind.scoring import Response
from tests.reliability.conftest import Failure

ROOT = Path(__file__).resolve().parents[2]
STOP_BOUND = 10.0
"""Seconds a process may take to exit after SIGINT (it needs well under one)."""

HARD_26 = (
    ("AABCDEFGHIJKLMNOPQRSTUVWXY", 0, 15),
    ("DTUWGVBJZOQRZHZHULLDVCQFVO", 1, 10),
    ("OSIAXWNXWZRXZDQSXATTPNMQHH", 0, 12),
)
"""The sampler's first three guesses on (26,26) with seed 4 (secret XWWTOPYTAOUEDJTBVXGJUXEGME):
the compiled listing of the codes consistent with them runs for minutes."""

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/stat").exists(), reason="reads a child's CPU time from /proc"
)


@pytest.fixture(autouse=True, scope="module")
def _compiled_kernels() -> None:
    """Every kernel compiled and cached before the children start.

    A signal during a first compilation (minutes on a loaded machine, once per machine) is
    not what these tests time.
    """
    from evo_mastermind.kernels import warm
    from evo_mastermind.sampling import warm as warm_sampler

    warm()
    warm_sampler()


def hard_constraints() -> Constraints:
    space = CodeSpace(26, 26)
    guesses = np.stack([space.parse(guess) for guess, _, _ in HARD_26])
    responses = [Response(black, white) for _, black, white in HARD_26]
    return Constraints.from_responses(space, guesses, responses)


def start(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a running process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(process: subprocess.Popen[str], seconds: float) -> None:
    """Wait until the child has used ``seconds`` of CPU (its work, whatever the machine's load)."""
    while process.poll() is None and cpu_seconds(process.pid) < seconds:
        time.sleep(0.05)
    assert process.poll() is None, process.communicate()


def interrupt(process: subprocess.Popen[str]) -> tuple[float, str, str]:
    """Send SIGINT; the seconds the child took to exit, and its output.

    Its stderr may also hold a line saying that a kernel took long to load (a loaded machine).
    """
    sent = time.monotonic()
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"still running {STOP_BOUND:g} s after Ctrl-C")
    return time.monotonic() - sent, out, err


def test_ctrl_c_stops_the_samplers_listing_kernel() -> None:
    script = textwrap.dedent(
        """
        import sys
        from tests.reliability.test_interrupts import hard_constraints
        from evo_mastermind.sampling import SamplingError, consistent_codes
        hard = hard_constraints()
        try:
            consistent_codes(type(hard)(hard.space, hard.guesses[:1], hard.blacks[:1],
                                        hard.matches[:1]))
        except SamplingError:
            pass  # the kernel is loaded: the next call goes straight into it
        print("listing", flush=True)
        try:
            consistent_codes(hard)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(130)
        """
    )
    process = start("-c", script)
    assert process.stdout is not None
    assert process.stdout.readline() == "listing\n", process.communicate()
    time.sleep(0.5)
    seconds, out, err = interrupt(process)
    assert process.returncode == 130, err
    assert out == "interrupted\n" and "Traceback" not in err
    assert seconds < STOP_BOUND


def test_ctrl_c_stops_the_optimal_search_inside_its_stretch() -> None:
    # One stretch for the whole search, as after an hour with a full table: without the
    # signal reaching the stretch, (4,7) would run on for its whole quarter of a minute.
    script = textwrap.dedent(
        """
        from evo_mastermind.codes import CodeSpace
        from evo_mastermind.optimal import search
        from evo_mastermind.optimal.solver import OptimalSolver
        search.STRETCH = 10**15
        solver = OptimalSolver(CodeSpace(4, 7))
        print("searching", flush=True)
        solution = solver.solve()
        print("complete" if solution.complete else "interrupted", flush=True)
        """
    )
    process = start("-c", script)
    assert process.stdout is not None
    assert process.stdout.readline() == "searching\n", process.communicate()
    wait_for_cpu(process, cpu_seconds(process.pid) + 1.5)
    seconds, out, err = interrupt(process)
    assert out == "interrupted\n" and "Traceback" not in err, (out, err)
    assert seconds < STOP_BOUND


def test_ctrl_c_stops_a_sampler_game_on_26_pegs_in_one_line() -> None:
    # Its fourth guess lists the codes consistent with HARD_26: minutes of compiled work.
    process = start(
        "-m", "evo_mastermind.cli", "play", "--player", "sampler", "--pegs", "26",
        "--colors", "26", "--seed", "4",
    )  # fmt: skip
    wait_for_cpu(process, 2.2)  # about a second into the listing
    seconds, _, err = interrupt(process)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "evo-mastermind: interrupted" and "Traceback" not in err
    assert seconds < STOP_BOUND


def test_a_long_tree_build_says_its_estimate_then_stops_at_ctrl_c(tmp_path: Path) -> None:
    process = start(
        "-m", "evo_mastermind.cli", "tree", "--player", "knuth", "--first-guess", "all",
        "--pegs", "6", "--colors", "9", "--out", str(tmp_path / "trees"), "--no-progress",
    )  # fmt: skip
    assert process.stderr is not None
    announced = process.stderr.readline()
    assert announced.startswith("evo-mastermind: estimate: about "), process.communicate()
    assert "11 trees of knuth on (6,9)" in announced
    wait_for_cpu(process, cpu_seconds(process.pid) + 1.5)  # growing the first tree
    seconds, _, err = interrupt(process)
    assert process.returncode == 130, err
    assert err.splitlines()[-1] == "evo-mastermind: interrupted" and "Traceback" not in err
    assert seconds < STOP_BOUND


def test_a_time_limit_stops_the_samplers_listing() -> None:
    hard = hard_constraints()
    player = make_player("sampler", hard.space, {})
    player.start(np.random.default_rng(4))
    for guess, black, white in HARD_26:
        player.tell(hard.space.parse(guess), Response(black, white))
    used = time.thread_time()
    with pytest.raises(watchdog.GameTimeout), watchdog.time_limit(0.5):
        player.ask()
    assert time.thread_time() - used < STOP_BOUND


def test_a_time_limit_stops_the_lookahead_kernel() -> None:
    from evo_mastermind.kernels.lookahead import fewest_totals

    members = np.arange(20_000, dtype=np.int64)
    responses = (members % 36).astype(np.uint8)[None, :]
    rows = np.zeros(2_000_000, dtype=np.int64)  # forty billion counts: minutes
    used = time.thread_time()
    with pytest.raises(watchdog.GameTimeout), watchdog.time_limit(0.3):
        fewest_totals(responses, rows, members, np.zeros(members.size + 1), 36, 30)
    assert time.thread_time() - used < STOP_BOUND
    # The flag is down again: the next call runs whole.
    assert fewest_totals(responses, rows[:2], members, np.zeros(members.size + 1), 36, 30) == 0


def test_a_time_limit_stops_a_trees_growth() -> None:
    from evo_mastermind import engine
    from evo_mastermind.heuristics import known_heuristic
    from evo_mastermind.scoring import indexed_scorer

    space = CodeSpace(6, 7)  # a whole tree of knuth's: about a minute
    scorer = indexed_scorer(space)
    every = np.arange(space.size, dtype=np.int64)
    first = space.index(space.parse("AABBCD"))
    used = time.thread_time()
    with pytest.raises(watchdog.GameTimeout), watchdog.time_limit(0.3):
        engine.grow_tree(scorer, every, 0, 1, first, True, known_heuristic("worst_case"), 100)
    assert time.thread_time() - used < STOP_BOUND


def test_the_halves_kernels_return_at_once_when_told_to_stop() -> None:
    space = CodeSpace(10, 20)
    guess = space.parse("AABBCCDDEF")
    constraints = Constraints.from_responses(space, guess[None, :], [Response(1, 2)])
    caps = constraints.guess_counts.max(axis=0)
    args = (0, 5, 10, constraints.guesses, constraints.guess_counts, constraints.blacks)
    run = np.zeros(1, dtype=np.uint8)
    halt = np.ones(1, dtype=np.uint8)
    whole = _kernels.half_codes(*args, constraints.matches, caps, run)[0]
    stopped = _kernels.half_codes(*args, constraints.matches, caps, halt)[0]
    assert stopped.shape[0] == 0 < whole.shape[0]
    codes, complete = _kernels.list_consistent(
        26, *(lambda c: (c.guesses, c.guess_counts, c.blacks, c.matches))(hard_constraints()),
        1 << 21, halt,
    )  # fmt: skip
    assert not complete and codes.shape[0] < 1 << 21


def test_a_sampler_too_large_for_memory_is_refused_by_the_plan(
    fails: Failure, tmp_path: Path
) -> None:
    config = tmp_path / "huge.yaml"
    config.write_text(
        "name: huge\ngame: {pegs: 8, colors: 12}\nsecrets: {sample: 2}\n"
        "players:\n  - {label: S, player: sampler, mu: 1000000000}\n"
    )
    out = tmp_path / "out"
    fails(
        "run", config, "--out", out, "--executor", "serial", "--no-progress",
        pattern=r"the plan needs about [\d,.]+ (GiB|TiB|PiB) \(populations, archives, samples",
    )  # fmt: skip
    assert not out.exists()


def test_tree_builds_are_announced_only_past_a_minute() -> None:
    def line(player: str, pegs: int, colors: int, trees: int) -> str | None:
        space = CodeSpace(pegs, colors)
        cost = known_player(player).estimate(validate_params(player, {}), space)
        return tree_announcement(cost, f"{player} on {space}", trees, 2)

    assert line("knuth", 4, 6, 5) is None
    announced = line("knuth", 6, 9, 11)
    assert announced is not None and announced.startswith("estimate: about ")
    assert "11 trees of knuth on (6,9)" in announced
