"""The terminal table: ``sueca play`` and ``sueca replay``.

- :mod:`sueca.terminal.i18n`: the table's words in Portuguese, Brazilian Portuguese and English;
- :mod:`sueca.terminal.table`: the game loop, which hands every seat only its information state;
- :mod:`sueca.terminal.render`: the Rich screen and the plain-text one;
- :mod:`sueca.terminal.replay`: stepping through a saved record;
- :mod:`sueca.terminal.commands`: what the two commands do.
"""
