"""Record files as a library, without a command line: listing inputs
(files, folders, zip/tar archives, standard input) under limits, checking
them, the check report and its writers, the record↔JSON codec and the
data of the pictures and viewer page of a replayed game."""
