"""The one sample rate of every clip and track: 44.1 kHz (CD audio).

A module of its own so that the encoder can be started (``export.open_audio``) before numpy,
which every other audio module needs, has been imported.
"""

RATE = 44_100
