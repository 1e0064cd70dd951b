"""Training the networks of :mod:`mazo.nets` (``mazo train GAME``).

:mod:`mazo.train.data` plays the self-play games (numpy and the engine only);
:mod:`mazo.train.fit` trains with torch (the ``train`` extra) and exports the weights
:mod:`mazo.nets` reads.  Only the ``train`` command imports this package.
"""
