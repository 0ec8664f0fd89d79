"""Sueca for reinforcement-learning libraries (``pip install 'sueca[env]'``, docs/env.md).

- :mod:`sueca.env.pettingzoo`: a PettingZoo AEC environment (``env()``, ``raw_env``);
- :mod:`sueca.env.openspiel`: an OpenSpiel game, registered with ``pyspiel`` as ``"sueca"``;
- :mod:`sueca.env.observation`: the observation tensor both share, from a seat's information
  state alone; :mod:`sueca.env.actions`: their one action numbering;
- :mod:`sueca.env.table`: one deal played by agents through the referee.

Importing this package imports neither PettingZoo nor OpenSpiel: each wrapper needs its own
library, the encoder NumPy.
"""
