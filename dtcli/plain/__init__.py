"""``dtree gain`` without numpy on small plain CSV files: a second path, kept because it halves start-up."""
