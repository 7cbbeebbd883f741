"""The names the core accepts for its options, apart from the classes and functions that use them.

A command's ``--help`` lists these (click's choices are made when the command
is defined), so this module imports nothing: ``dtree gain`` defines every
option without loading the presets, the typed options or the trees.
``algorithms.ALGORITHMS`` has one preset for each of ``ALGORITHM_NAMES``,
``params`` checks the others, and ``criteria.costs`` reads ``MEASURES``;
``criteria.impurity.CRITERIA`` has a score for each of ``CRITERION_NAMES``
(``cart``: ``search/cart.py``), and ``search.missing`` one policy for each of
``MISSING_POLICIES``.
"""

ALGORITHM_NAMES = ("id3", "cart", "c45")  # --algorithm: algorithms.ALGORITHMS's presets
THRESHOLDS = ("data", "midpoint")  # --thresholds: where a numeric threshold goes
TIES = ("sklearn", "column")  # --ties: CART's order among tied attributes
ZERO_GAIN = ("leaf", "split")  # --zero-gain: ID3 at an impure node where nothing gains
MEASURES = ("ratio", "tan-schlimmer", "nunez")  # --cost-measure (Mitchell 3.7.5)
CRITERION_NAMES = ("cart", "entropy", "gain", "gain-ratio", "gini")  # --criterion (sorted: as --help lists them)
MISSING_POLICIES = ("reject", "fractional", "majority", "class-majority", "root-majority", "root-class-majority")
