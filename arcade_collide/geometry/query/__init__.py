"""The narrow-phase queries: one module per shape pair, one dispatch table.

Each ``<a>_<b>.py`` module handles one pair, named in the canonical order of
:class:`~arcade_collide.geometry.shapes.ShapeKind` (point < circle < rect <
triangle < polygon), and holds exactly four functions:
``intersects_<a>_<b>`` (bool), ``contact_<a>_<b>`` (Contact or None) and their
``_batch`` forms over world-space array records. The pair functions take
already-validated poses; the public, validating entry points are in
:mod:`arcade_collide.geometry.query.dispatch`, whose single table registers
every pair once and derives the reversed order by swapping and flipping.
``_convex.py`` holds the shared separating-axis and circle-against-outline cores.
"""
