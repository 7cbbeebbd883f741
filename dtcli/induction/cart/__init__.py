"""The compiled CART builders: classification and regression trees grown depth first on value lists sorted once."""
