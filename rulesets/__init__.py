"""Rulesets as data and the pure rules core.

Nothing in this package imports Django: the core takes time as an argument and is
deterministic, so every rule can be tested in microseconds.
"""
from .engine import CharacterState, Outcome, Rules, RuleRefused, UnknownOption
from .instants import DECLARED, ENDING
from .loader import RulesetError, load_ruleset, available_rulesets, get_ruleset

__all__ = [
    "CharacterState", "DECLARED", "ENDING", "Outcome", "Rules", "RuleRefused",
    "UnknownOption",
    "RulesetError", "load_ruleset", "available_rulesets", "get_ruleset",
]
