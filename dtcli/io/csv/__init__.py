"""CSV files: dialect detection, the plain reader and its array scans, pandas for large files, chunked reading."""
