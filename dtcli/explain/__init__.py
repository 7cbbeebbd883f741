"""Why a tree looks as it does: the gain report behind a split choice (``dtree gain``), worked out."""
