"""The terminal table: ``sueca play``, ``sueca replay`` and ``sueca watch``.

- :mod:`sueca.terminal.i18n`: the table's words in Portuguese, Brazilian Portuguese and English;
- :mod:`sueca.terminal.setup`: who sits where, the rules, the seed, the record to resume;
- :mod:`sueca.terminal.view`: what a screen is shown, always from an information state;
- :mod:`sueca.terminal.input`: a typed line as a card, a bid, an answer or a command, and the
  referee's refusals in the player's words;
- :mod:`sueca.terminal.player`: the person at the screen, who answers whatever the referee asks;
- :mod:`sueca.terminal.narrator`: referee listeners that say what happened (also
  ``sueca watch``);
- :mod:`sueca.terminal.table`: the match, a referee with bots and people seated;
- :mod:`sueca.terminal.render`: the Rich screen and the plain-text one;
- :mod:`sueca.terminal.replay`: stepping through a saved record;
- :mod:`sueca.terminal.commands`: what the commands do, behind the command line.
"""

import sueca.protocol  # noqa: F401 (registers cmd:)
