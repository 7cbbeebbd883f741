"""ARFF files read with liac-arff, declared types kept, every failure one line naming its line."""
