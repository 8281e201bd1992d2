; expect SY04 at 3:1: unclosed tag: expected ']' to end the tag started at 2:1
[Game "Trigeo"
[North "Anna"]

1. F1XE1 B6XC6 *
