"""The archive as a collection: index, search, duplicates, statistics, split and merge."""
