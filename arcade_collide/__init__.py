"""arcade_collide: exact, fast 2D collision detection for Arcade games, built on esper."""

from arcade_collide.geometry.contact import Contact
from arcade_collide.geometry.shapes import Circle, Point, Polygon, Rect, Triangle

__all__ = [
    "Circle",
    "Contact",
    "Point",
    "Polygon",
    "Rect",
    "Triangle",
]
