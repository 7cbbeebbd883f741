"""Two models compared (``dtree diff``): trees node by node, rule sets rule by rule, agreement on data."""
