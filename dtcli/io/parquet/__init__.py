"""Parquet files and directories of them (pyarrow): read into columns, and bounded from their footers."""
