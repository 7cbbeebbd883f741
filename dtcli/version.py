"""The version of dtree, at the bottom of the house: the model and rule formats record it."""

__version__ = "0.1.0"
