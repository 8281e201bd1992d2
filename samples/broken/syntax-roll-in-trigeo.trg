; expect SY05 at 4:10: 'B5W4' is not a Trigeo action: Trigeo dice are never rolled (rolls like B5W4 are Hexalit only)
[Game "Trigeo"]

1. F1XE1 B5W4 *
