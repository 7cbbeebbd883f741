"""dtree: decision trees (ID3, C4.5, CART) from CSV and ARFF files."""

__version__ = "0.1.0"
