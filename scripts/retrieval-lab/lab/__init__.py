"""A Python re-implementation of kenning's recall ranking, for measuring retrieval ideas on LoCoMo.

Standard library only. See README.md.
"""
