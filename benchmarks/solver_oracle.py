"""How much a better move order could save the solver, estimated with an oracle.

    .venv/bin/python benchmarks/solver_oracle.py --seed 3 --deals 170,152
    .venv/bin/python benchmarks/solver_oracle.py --seed 3 --deals 170,152 --min-size 9

Builds, in a temporary folder, a copy of ``sueca/solver/_dds.c`` with an *oracle*: a table
from (position, target) to the card that cut off there. Each deal is solved twice from the
opening lead, each time with an empty transposition table: the first solve records every
cut-off, the second tries the recorded card first wherever it has one (at every node whose
player holds at least ``--min-size`` cards). The second solve's nodes are what a move order
that always found a card that cuts off would cost, with the solver otherwise unchanged. It is
an estimate, not a strict bound: the recorded card is the first that cut off in the solver's
own order, not necessarily the one whose proof is cheapest. ``--deals`` names deals by their
number (from 0) as ``bench_solver.py --seed S`` deals them, not a count.

The oracle holds ``2 ** --bits`` entries (9 bytes each: 1.2 GB at the default 27); a solve
that finds it full says so and prints nothing, since a dropped entry makes the second solve
guess worse than the oracle should.

The copy is made by inserting a few lines at named places of the C file; if the file has
changed so that a place is no longer found, the script says which and stops. It needs a C
compiler (``cc``) and the Python headers, as ``pip install`` does.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType

from sueca.deal import deal_cards
from sueca.rules import STANDARD
from sueca.solver import position_of
from sueca.state import State

SOURCE = Path(__file__).resolve().parent.parent / "sueca" / "solver" / "_dds.c"

ORACLE_TABLE = """
/* ---- the oracle of benchmarks/solver_oracle.py ---- */
static u64 *oracle_keys;
static unsigned long long oracle_dropped;
static signed char *oracle_cards;
static int oracle_mode; /* 0 off, 1 record, 2 use and record */
static int oracle_min_size, oracle_target;
static u64 oracle_mix(u64 h) {
    h ^= h >> 33; h *= 0xFF51AFD7ED558CCDULL; h ^= h >> 33; h *= 0xC4CEB9FE1A85EC53ULL;
    return h ^ (h >> 33);
}
static u64 oracle_key(const Pos *P) {
    u64 h = oracle_mix(P->hand[0] + 1) ^ oracle_mix(P->hand[1] + 2) * 3 ^
            oracle_mix(P->hand[2] + 3) * 5 ^ oracle_mix(P->hand[3] + 4) * 7;
    h = oracle_mix(h + (u64)P->leader * 1000003ULL + (u64)P->n * 77);
    for (int i = 0; i < P->n; i++)
        h = oracle_mix(h + (u64)(P->cards[i] + 1) * 0x9E3779B97F4A7C15ULL);
    return oracle_mix(h + (u64)(oracle_target + 1000) * 0x51ED27ULL) | 1;
}
static int oracle_get(const Pos *P, int target) {
    int seat = (P->leader + P->n) & 3;
    if (oracle_mode != 2 || __builtin_popcountll(P->hand[seat]) < oracle_min_size) return -1;
    oracle_target = target;
    u64 k = oracle_key(P), mask = (1ULL << ORACLE_BITS) - 1;
    for (u64 i = 0; i < 64; i++) {
        u64 j = (k + i) & mask;
        if (oracle_keys[j] == k) return oracle_cards[j];
        if (!oracle_keys[j]) return -1;
    }
    return -1;
}
static void oracle_put(const Pos *P, int target, int card) {
    if (!oracle_mode) return;
    oracle_target = target;
    u64 k = oracle_key(P), mask = (1ULL << ORACLE_BITS) - 1;
    for (u64 i = 0; i < 64; i++) {
        u64 j = (k + i) & mask;
        if (!oracle_keys[j] || oracle_keys[j] == k) {
            oracle_keys[j] = k;
            oracle_cards[j] = (signed char)card;
            return;
        }
    }
    oracle_dropped++;
}
"""

ORACLE_METHOD = """
static PyObject *Solver_oracle_value(Solver *S, PyObject *args) {
    PyObject *hands, *trick;
    int trump, leader;
    if (!PyArg_ParseTuple(args, "OiiOi", &hands, &trump, &leader, &trick, &oracle_min_size))
        return NULL;
    PyObject *position = Py_BuildValue("(OiiO)", hands, trump, leader, trick);
    if (!position) return NULL;
    Pos P;
    int guess;
    int failed = parse_position(S, position, &P, &guess) < 0;
    Py_DECREF(position);
    if (failed) return NULL;
    size_t slots = (size_t)1 << ORACLE_BITS;
    if (!oracle_keys) {
        oracle_keys = calloc(slots, sizeof *oracle_keys);
        oracle_cards = calloc(slots, 1);
        if (!oracle_keys || !oracle_cards) return PyErr_NoMemory();
    }
    memset(oracle_keys, 0, slots * sizeof *oracle_keys);
    oracle_dropped = 0;
    int values[2];
    unsigned long long nodes[2];
    for (int pass = 0; pass < 2; pass++) {
        memset(S->tt, 0, (S->tt_mask + 1) * BUCKET * sizeof(Entry));
        oracle_mode = pass + 1;
        Pos Q = P;
        unsigned long long before = S->nodes;
        values[pass] = solve_value(S, &Q, -1);
        nodes[pass] = S->nodes - before;
    }
    oracle_mode = 0;
    return Py_BuildValue("(iiKKK)", values[0], values[1], nodes[0], nodes[1], oracle_dropped);
}
"""

# (what to find, what to put in its place): each must be found exactly once.
EDITS = [
    ("static unsigned char compress_table[32][32];",
     ORACLE_TABLE + "static unsigned char compress_table[32][32];"),
    # search(): the recorded card first, and every cut-off recorded.
    ("    int moves[10];\n    int count = ordered_moves(S, P, seat, hint, moves);",
     "    int moves[10];\n    { int o = oracle_get(P, target); if (o >= 0) hint = o; }\n"
     "    int count = ordered_moves(S, P, seat, hint, moves);"),
    ("            if (best) *best = c;\n            if ((g >= target) == maximizing) return g;",
     "            if (best) *best = c;\n"
     "            if ((g >= target) == maximizing) { oracle_put(P, target, c); return g; }"),
    # fourth_hand(): likewise.
    ("    int bound = maximizing ? -1 : 1 << 30;\n    int leader = P->leader, cards[4];",
     "    { int o = oracle_get(P, target);\n"
     "      for (int i = 0; o >= 0 && i < count; i++) if (moves[i] == o) {\n"
     "          for (int j = i; j > 0; j--) moves[j] = moves[j - 1];\n"
     "          moves[0] = o; break; } }\n"
     "    int bound = maximizing ? -1 : 1 << 30;\n    int leader = P->leader, cards[4];"),
    ("            bound = g;\n            if ((g >= target) == maximizing) return g;\n",
     "            bound = g;\n"
     "            if ((g >= target) == maximizing) { oracle_put(P, target, c); return g; }\n"),
    ("static PyObject *Solver_clear(", ORACLE_METHOD + "\nstatic PyObject *Solver_clear("),
    ('    {"clear", (PyCFunction)Solver_clear,',
     '    {"oracle_value", (PyCFunction)Solver_oracle_value, METH_VARARGS, ""},\n'
     '    {"clear", (PyCFunction)Solver_clear,'),
]


def patched_source() -> str:
    text = SOURCE.read_text()
    for find, replace in EDITS:
        found = text.count(find)
        if found != 1:
            sys.exit(f"solver_oracle: {SOURCE.name} has changed: {found} places match {find!r}")
        text = text.replace(find, replace)
    return text


def build(folder: Path, bits: int) -> ModuleType:
    source = folder / "_dds.c"
    source.write_text(patched_source())
    target = folder / ("_dds" + str(sysconfig.get_config_var("EXT_SUFFIX")))
    include = sysconfig.get_paths()["include"]
    command = ["cc", "-O2", "-std=c99", "-shared", "-fPIC", f"-DORACLE_BITS={bits}",
               f"-I{include}", str(source), "-o", str(target)]
    if sysconfig.get_platform().endswith("x86_64"):
        command.insert(1, "-mpopcnt")
    subprocess.run(command, check=True)
    spec = importlib.util.spec_from_file_location("_dds", target)
    if spec is None or spec.loader is None:
        sys.exit(f"solver_oracle: cannot load {target}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--deals", default="170,152", help="deal numbers, from 0")
    parser.add_argument("--min-size", type=int, default=0,
                        help="use the oracle only where the player holds at least this many")
    parser.add_argument("--bits", type=int, default=27,
                        help="the oracle holds 2**BITS entries of 9 bytes")
    args = parser.parse_args()
    wanted = sorted(int(d) for d in args.deals.split(","))
    rng = random.Random(args.seed)
    positions = {}
    for number in range(wanted[-1] + 1):
        state = State(STANDARD, deal_cards(STANDARD, number % 4, rng))
        if number in wanted:
            positions[number] = position_of(state)
    with tempfile.TemporaryDirectory() as folder:
        module = build(Path(folder), args.bits)
        rules = STANDARD
        core = module.Solver(rules.card_points, rules.teams, rules.must_trump,
                             rules.last_trick_bonus, 18)
        for number in wanted:
            hands, trump, leader, trick = positions[number][:4]
            value, again, plain, ordered, dropped = core.oracle_value(
                hands, trump, leader, trick, args.min_size)
            assert value == again, "the oracle changed a value"
            if dropped:
                sys.exit(f"solver_oracle: the oracle was full ({dropped} cut-offs not "
                         f"recorded on deal {number}): run again with --bits {args.bits + 1}")
            print(f"--seed {args.seed} deal {number}: value {value}, nodes {plain / 1e6:.1f} M; "
                  f"with the oracle (min size {args.min_size}) {ordered / 1e6:.1f} M "
                  f"({plain / ordered:.1f}x fewer)")


if __name__ == "__main__":
    main()
