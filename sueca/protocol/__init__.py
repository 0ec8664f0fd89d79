"""The bot protocol ``sueca-bot/1`` (/work/shared/BOT_PROTOCOL.md, docs/protocol.md): JSON lines
over a program's standard input and output, at every table of the rules.

- :mod:`~sueca.protocol.messages`: every message type, defined once, with ``encode`` and
  ``decode`` and :class:`ProtocolError`;
- :mod:`~sueca.protocol.feed`: :class:`SeatFeed`, what the referee tells one seat, composed
  from that seat's :class:`~sueca.infostate.InformationState` alone (the hands as dealt at
  the deal's end too, as far as they are public), so a program can learn nothing its seat
  may not know;
- :mod:`~sueca.protocol.external`: :class:`ExternalBot`, the referee's side: a
  :class:`~sueca.bots.Bot` that runs a command and plays through it, so the arena, the
  terminal and the web table can seat any program that speaks the protocol
  (``--bots cmd:'python my_bot.py'``: importing this package registers the ``cmd`` prefix
  with :func:`sueca.bots.register_prefix`, so the bots never import the wire);
- :mod:`~sueca.protocol.tracker`: :class:`SeatTracker`, the bot's side: the seat's
  information state rebuilt from the messages;
- :mod:`~sueca.protocol.session`: :class:`BotSession` (one handler per message type) and
  :func:`serve`, the loop behind ``sueca bot NAME``.

Version 1 grew *extensions* for the tables of RULES.md sections 3 and 4 and the table rules
(docs/protocol.md): ``bid_turn``/``bid``, ``call_turn``/``call`` and ``contract`` for the
five-player auction, ``redeal_turn``/``redeal`` for the redeal on a weak hand, ``shown`` for
cards that become known during the play (a dummy, open hands), ``turn`` with a ``seat`` for
the dummy's card, ``played`` with ``turned`` for the turned trump card itself at a
double-deck table, ``deal_end`` with ``set_aside`` and ``seat_points``, and for renúncia
``turn`` with ``denounce``, the bot's ``denounce``, ``denounced`` broadcasts and, for a bot
that answers ``match`` with ``denounce_ready``, ``denounce_turn`` at each deal's end. A card
is named by its face: with two decks a hand names a card twice, and the referee plays the
copy the hand holds (:func:`sueca.cards.held_copy`).

**Error policy of the referee.** A program must never crash the referee. Every fault is
recorded in :attr:`ExternalBot.errors` with the bot's name and seat, and the play goes on:

- an answer that is not JSON, not the message asked for, or not a legal card, bid or call:
  the question is asked again (``retries`` times, default 1); after that the seat plays the
  *fallback card* (the first legal card in deck order), passes, or calls the fallback card
  (:meth:`Bot.call`'s default: the top card it lacks in its longest suit);
- no card within the move's ``time_ms`` plus ``grace_ms``, a program that exits or closes its
  output, or one that never says hello: the program is stopped and the seat is *forfeited*:
  it plays the fallback card (passes, calls the fallback card) until the bot is closed;
- no answer to a ``bid_turn``, ``call_turn`` or ``redeal_turn`` in that time: the program is
  taken to predate the extension. It is not stopped (it may still play cards): the seat
  passes (calls the fallback card, keeps its hand), and is not asked such questions again;
  likewise a program that said ``denounce_ready`` and lets a ``denounce_turn`` time out is
  not asked at a deal's end again.

A late card would otherwise be read as the answer to the next turn, so a timeout on a card
always disconnects; a late bid or call cannot be mistaken for a card (each answer has its own
type) and the seat is never asked for one again. Lines of type ``info`` are kept (the last
100, in :attr:`ExternalBot.infos`); other unknown types are ignored, as the protocol asks.
"""

from __future__ import annotations

from sueca.bots import register_prefix
from sueca.protocol.external import ExternalBot
from sueca.protocol.feed import SeatFeed, card_names
from sueca.protocol.messages import (
    PROTOCOL,
    TO_BOT,
    TO_REFEREE,
    Message,
    ProtocolError,
    decode,
    encode,
    read_answer,
    read_to_bot,
)
from sueca.protocol.session import BotSession, serve
from sueca.protocol.tracker import SeatTracker, copies

register_prefix("cmd", ExternalBot)  # cmd:COMMAND seats a program (sueca.bots.make_bot)

__all__ = [
    "PROTOCOL", "TO_BOT", "TO_REFEREE", "BotSession", "ExternalBot", "Message", "ProtocolError",
    "SeatFeed", "SeatTracker", "card_names", "copies", "decode", "encode", "read_answer",
    "read_to_bot", "serve",
]
