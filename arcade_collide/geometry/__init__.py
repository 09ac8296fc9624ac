"""Pure 2D geometry: shapes in local coordinates, poses, and the collision queries.

Nothing under this package imports esper or arcade.
"""
