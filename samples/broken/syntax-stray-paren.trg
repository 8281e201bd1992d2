; expect SY01 at 4:16: ')' closes no variation
[Game "Trigeo"]

1. C7°D7 E6°D7 ) 2. B7°D7 E8°D7 *
