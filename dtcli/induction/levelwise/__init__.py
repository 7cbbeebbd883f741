"""The C4.5/ID3 level-wise engine: the tree grows one level at a time over column blocks and sorted lists."""
