"""Using a grown tree: predictions, evaluation, rules, and the gain report behind a split choice."""
