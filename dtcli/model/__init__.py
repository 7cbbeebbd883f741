"""The data model: Table and Schema (columnar data), tree nodes, rule sets, and their JSON formats."""
