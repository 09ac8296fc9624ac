"""The narrow-phase queries: one module per shape pair, one dispatch table.

Each ``<a>_<b>.py`` module handles one pair, named in the canonical order of
:class:`~arcade_collide.geometry.shapes.ShapeKind` (point < circle < rect <
triangle < polygon), and holds its two compiled kernels, ``intersects_<a>_<b>``
and ``contact_<a>_<b>``, written against the world rows of
:mod:`~arcade_collide.geometry.query.kernel_base`. :mod:`.sat` and
:mod:`.circle_outline` hold the shared cores. :mod:`.dispatch` registers every
pair once (the reversed order by swapping and flipping) and holds the public,
validating queries; :mod:`.rows` runs the same kernels over a world table's
candidate pairs for the ECS.
"""
