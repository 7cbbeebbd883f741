"""Using a grown tree: predictions, paths, rules, and the gain report behind a split choice."""
