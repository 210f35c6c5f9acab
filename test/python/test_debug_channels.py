"""The channel names `--debug-only` accepts are the ones the C++ passes print on: a channel
added to a pass without being listed would be refused, one listed but printed by no pass
would be accepted and stay silent."""

import re
from pathlib import Path

from carts_mlir.pipeline import DEBUG_CHANNELS

SRC = Path(__file__).resolve().parents[2] / "src"
PRINTED = re.compile(r'(?:CARTS_DEBUG|isDebugChannelOn)\(\s*"([^"]+)"|kChannel\s*=\s*"([^"]+)"')


def test_the_listed_channels_are_the_printed_ones():
    printed = set()
    for path in SRC.rglob("*.cpp"):
        for literal, constant in PRINTED.findall(path.read_text()):
            printed.add(literal or constant)
    assert printed and set(DEBUG_CHANNELS) == printed
    assert len(DEBUG_CHANNELS) == len(set(DEBUG_CHANNELS))


def test_channels_follow_one_convention_and_old_spellings_still_work():
    from carts_mlir.pipeline import CHANNEL_ALIASES, debug_channels

    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", name) for name in DEBUG_CHANNELS)
    assert set(CHANNEL_ALIASES.values()) <= set(DEBUG_CHANNELS)
    assert debug_channels(["db", "db_partitioning", "for_lowering", "host_sync"]) == \
        ["db", "db-partitioning", "for-lowering", "host-sync"]
