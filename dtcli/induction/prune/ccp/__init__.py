"""Cost-complexity pruning (Breiman et al. 1984): the weakest-link sequence and choosing its alpha."""
