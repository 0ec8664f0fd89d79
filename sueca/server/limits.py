"""Rate limits: what one socket may send, how many tables one address (and the whole server)
may open, and how many tables may be in play at once.

A token bucket per socket and per client address: each message (or new table) takes a token,
tokens come back at a steady rate up to a burst. A socket over its limit gets a
``rate_limited`` error for that message, which changes nothing; an address over its limit
gets HTTP 429, and so does anyone once the server as a whole has opened its share of tables
this minute (many addresses together); a server already holding its most tables in play
answers 503 until one ends. ``sueca serve`` runs with :data:`DEFAULT_LIMITS`; tests and
benchmarks that build the app themselves run without limits unless they pass some.

>>> clock = [0.0]
>>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: clock[0])
>>> [bucket.take() for _ in range(3)]
[True, True, False]
>>> clock[0] = 1.5  # a second and a half later: one token back (and half of the next)
>>> bucket.take(), bucket.take()
(True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

Clock = Callable[[], float]


class TokenBucket:
    """``burst`` tokens at most, ``rate`` more a second."""

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        """Take one token if there is one."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def refund(self) -> None:
        """Give back a token taken for something that was then refused (it cost nothing)."""
        self._tokens = min(float(self.burst), self._tokens + 1)

    def idle(self) -> bool:
        """Whether the bucket is full again (its owner may be forgotten)."""
        now = self._clock()
        return self._tokens + (now - self._last) * self.rate >= self.burst


@dataclass(frozen=True)
class Limits:
    """Messages a second per socket (with a burst), new tables a minute per client address and
    for the whole server (each with a burst), and the tables in play at once."""

    messages_per_second: float = 10.0
    message_burst: int = 40
    tables_per_minute: float = 10.0
    table_burst: int = 10
    # Many addresses together (a botnet, or a cross-site page's visitors): the server's share.
    server_tables_per_minute: float = 120.0
    server_table_burst: int = 60
    # Tables whose match is not over; a finished one no longer counts.
    max_tables_in_play: int = 1000
    # Reviews one address may ask for (each a few seconds of the one review worker's CPU).
    reviews_per_minute: float = 6.0
    review_burst: int = 6

    def socket_bucket(self, clock: Clock = time.monotonic) -> TokenBucket:
        return TokenBucket(self.messages_per_second, self.message_burst, clock)

    def server_bucket(self, clock: Clock = time.monotonic) -> TokenBucket:
        return TokenBucket(self.server_tables_per_minute / 60, self.server_table_burst, clock)


DEFAULT_LIMITS = Limits()
"""A person plays a card every few seconds and a bot program a few times a second; a client
that sends more is broken or hostile."""


class AddressLimiter:
    """A token bucket per client address, forgetting those whose bucket is full again so that
    the table of addresses cannot grow without bound."""

    def __init__(self, rate_per_minute: float, burst: int, clock: Clock = time.monotonic,
                 remember: int = 10_000) -> None:
        self.rate = rate_per_minute / 60
        self.burst = burst
        self._clock = clock
        self._remember = remember
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> bool:
        if len(self._buckets) >= self._remember:
            self._buckets = {a: b for a, b in self._buckets.items() if not b.idle()}
            if len(self._buckets) >= self._remember:  # that many busy addresses: start over
                self._buckets.clear()
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self._clock)
        return bucket.take()

    def refund(self, address: str) -> None:
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.refund()
