"""Tournaments: a series of games with players, fair seating, standings and a verifiable record.

Pure like a game's rules: the configuration (``config``), seating (``pairing``), derived seeds
(``seeds``), clocks (``clock``), standings and ratings (``standings``), the tournament's own
hash-chained log and its rules (``log``, ``rules``), and the verifier of a tournament bundle
(``verification``).
"""
