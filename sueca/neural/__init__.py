"""The learned bot: the observation encoder and action codec, a small policy/value network
(NumPy inference), its shipped weights, and the ``neural`` bots (docs/neural.md).

- :mod:`sueca.neural.encoding`: the tensor and the action numbering (the environments
  re-export them);
- :mod:`sueca.neural.network`: the network, its weights file and its metadata;
- :mod:`sueca.neural.bot`: :class:`~sueca.neural.bot.NeuralBot` (``neural``) and
  ``neural+search`` (pimc guided by the network's play model).
"""
