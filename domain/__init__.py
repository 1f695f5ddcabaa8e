"""The rules of the four games. Pure and deterministic: no I/O, no clock, no global random."""
