"""Compiled building blocks shared by the engines (the stable sort), and the cache of machine code."""
