"""Applying a tree to rows: class probabilities, the compiled descent, and why each row got its prediction."""
