[Game "Trigeo"]
[Event "Trigeo Pokal"]
[Site "Göttingen"]
[Date "1999.11.06"]
[Round "2"]
[North "Ute Sommer"]
[South "Karl Brandt"]
[Result "0-1"]

1. C7°D7 {A leap between two jump fields opens the game.} 1... E6°D7 2. B7°D7
E8°D7 {Four dice have already changed hands on D7.} 3. A5XB3 F8°B8 4. A8°B8
D7XC8^ 5. A7XA5 (5. A7XA8 C8°B9^ {and the One stays under fire.}) 5... C8°B9
6. B3XF3 B9°A10=6 {The 2 reaches row A and becomes a 6.} 7. F3°E5^ F7°E5
{The One defends itself.} 8. B8XC11^ E5XE3 9. A4XA3^ E3XE2 10. C11XE5 A10°B10
11. A3XD3 B10°A6^ 12. A5°A6 E2°D3 13. E5XC5^ D3XE3 14. C5°E10 E7XB7 15. A6°B7
F5XE7^ 16. B7XC8 F6XD6^ 17. C8°D6 E7XD7^ 18. D6°D7 E3XF5 19. E10°F10 F5XE6^
20. D7XC5 E6XD5+ 0-1
