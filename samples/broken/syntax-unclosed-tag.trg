; expect SY04 at 4:1: unclosed tag: expected ']' to end the tag started at 3:1
[Game "Trigeo"]
[North "Anna"
[South "Ben"]

1. F1XE1 B6XC6 *
