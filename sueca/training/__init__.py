"""``sueca train``: the learned bot's network, trained in plain NumPy (or CuPy on a GPU).

- :mod:`sueca.training.device`: the array module of ``--device`` (NumPy; CuPy for ``cuda``);
- :mod:`sueca.training.examples`: records and positions as training arrays;
- :mod:`sueca.training.fit`: the loss, its gradients and Adam over minibatches;
- :mod:`sueca.training.pipeline`: imitation from the expert's self-play records, then rounds
  of DAgger (the network plays, the expert labels its positions), and the weights file.

docs/neural.md says what is trained, how, and how to retrain.
"""
