; expect SY01 at 4:16: ')' closes no variation
[Game "Trigeo"]

1. F1XE1 B6XC6 ) 2. E1XD1 *
