"""The JSON formats of models and rule sets (man/dtree-formats.5): reading, validating and writing them, fast."""
