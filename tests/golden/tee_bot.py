"""A protocol program for the golden transcripts: runs ``sueca bot`` (this project's bot side)
in-process and writes every line it reads and every line it answers to a log file.

Usage: python tee_bot.py LOGFILE BOT [SEED]
"""

from __future__ import annotations

import io
import sys

from sueca.bots import make_bot
from sueca.protocol import serve


def main() -> int:
    log_path, name, *rest = sys.argv[1:]
    seed = int(rest[0]) if rest else None
    bot = make_bot(name, seed=seed)
    with open(log_path, "a", encoding="utf-8") as log:

        class Reader(io.TextIOBase):
            def __iter__(self):  # type: ignore[override]
                for line in sys.stdin:
                    log.write("> " + line.rstrip("\n") + "\n")
                    log.flush()
                    yield line

        class Writer(io.TextIOBase):
            def write(self, text: str) -> int:  # type: ignore[override]
                for line in text.splitlines():
                    log.write("< " + line + "\n")
                log.flush()
                sys.stdout.write(text)
                return len(text)

            def flush(self) -> None:
                sys.stdout.flush()

        return serve(bot, Reader(), Writer())  # type: ignore[arg-type]


if __name__ == "__main__":
    raise SystemExit(main())
