"""The rules of Hexalit, Trigeo and Hüpfer, and the replay of records."""
