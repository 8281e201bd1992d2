; expect SY04 at 4:1: unclosed tag: expected ']' to end the tag started at 3:1
[Game "Trigeo"]
[North "Anna"
[South "Ben"]

1. C7°D7 E6°D7 2. B7°D7 E8°D7 *
