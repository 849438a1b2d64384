"""The model checker: every interleaving of the shipped state machine, up to a depth.

``python -m tests.model`` runs it from the command line (docs/reliability.md, "Every
interleaving"); tests/model/test_model.py runs the part CI can afford.
"""
