[Game "Trigeo"]
[Event "Trigeo Pokal"]
[North "Ute Sommer"]
[South "Karl Brandt"]
[Result "*"]

1. B5W4 *
