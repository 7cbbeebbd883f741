"""One node's split search (the plain-numpy reference): nominal, numeric, C4.5, CART, regression, missing."""
