"""Reading tables (CSV, ARFF) into columns and a Table, and writing files atomically."""
