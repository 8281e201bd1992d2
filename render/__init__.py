"""Positions to pictures: SVG built here, PNG, GIF and sheets on top of it."""
