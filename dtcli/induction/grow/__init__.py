"""The reference grower (node by node, depth first or best first) and the flat array form of a tree."""
