"""The papers' analyses: exact counts, simulated rates and studies built on the solvers.

One module per study; each is a library (no click), driven by ``patience analyze <study>``.
"""
