"""How long and how often each scenario runs: the full run, --quick and --smoke."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    name: str
    runs: int  # each figure is the median of this many runs
    warmup: float  # seconds of load before the measured window
    duration: float  # seconds of the measured window, at most
    max_count: int  # replies in the measured window, at most
    connections: tuple  # HTTP connection counts
    pipeline_window: int  # stdio requests in flight when pipelined
    sessions: int  # sessions opened for the rate and the memory per session
    micro_min_time: float  # Google Benchmark's --benchmark_min_time
    judges_targets: bool = True  # are its figures worth comparing with the targets?
    listen_streams: int = 1000  # subscriptions/listen streams held open at once (2026-07-28)
    listen_changes: int = 20  # tool list changes fanned out to all of them


FULL = Profile('full', runs=5, warmup=1.0, duration=3.0, max_count=10**9, connections=(1, 8, 64),
               pipeline_window=128, sessions=10_000, micro_min_time=0.5)
QUICK = Profile('quick', runs=3, warmup=0.3, duration=1.0, max_count=10**9, connections=(1, 8, 64),
                pipeline_window=128, sessions=2_000, micro_min_time=0.1)
# Count-bounded and tiny: proves that every scenario runs and every reply is
# right, in seconds; its figures mean nothing.
SMOKE = Profile('smoke', runs=1, warmup=0.0, duration=10.0, max_count=50, connections=(1, 8, 64),
                pipeline_window=128, sessions=50, micro_min_time=0.001, judges_targets=False,
                listen_streams=20, listen_changes=3)
