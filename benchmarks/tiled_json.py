"""Tiny Tiled JSON maps written from text: for the tile-layer tests and benchmark.

Each character of a row is a tile (the first row is the top of the map, as in
Tiled): ``#`` a full tile, ``L`` a tile whose hit box (drawn in Tiled's collision
editor) is a concave L, ``=`` a full tile with the property ``one_way``, ``H`` a
full tile with the property ``ladder``, ``_`` a tile whose hit box is its lower half,
``.`` no tile. Every tile is a 16 x 16 opaque image.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

TILE = 16
GIDS = {"#": 1, "L": 2, "=": 3, "H": 4, "_": 5}


def _polygon(points: list[tuple[float, float]]) -> list[dict[str, float]]:
    return [{"x": x, "y": y} for x, y in points]


def _hit_box(points: list[tuple[float, float]]) -> dict[str, Any]:
    shape = {"id": 1, "name": "", "type": "", "x": 0, "y": 0, "width": 0, "height": 0,
             "rotation": 0, "visible": True, "polygon": _polygon(points)}
    return {"draworder": "index", "id": 1, "name": "", "objects": [shape], "opacity": 1,
            "type": "objectgroup", "visible": True, "x": 0, "y": 0}


def _tileset() -> dict[str, Any]:
    half = TILE / 2
    tiles: list[dict[str, Any]] = []
    for gid in GIDS.values():
        tiles.append({"id": gid - 1, "image": "tile.png", "imagewidth": TILE,
                      "imageheight": TILE})
    tiles[1]["objectgroup"] = _hit_box(
        [(0, 0), (TILE, 0), (TILE, half), (half, half), (half, TILE), (0, TILE)])
    tiles[2]["properties"] = [{"name": "one_way", "type": "bool", "value": True}]
    tiles[3]["properties"] = [{"name": "ladder", "type": "bool", "value": True}]
    tiles[4]["objectgroup"] = _hit_box([(0, half), (TILE, half), (TILE, TILE), (0, TILE)])
    return {"firstgid": 1, "name": "tiles", "tilewidth": TILE, "tileheight": TILE,
            "tilecount": len(tiles), "columns": 0, "margin": 0, "spacing": 0,
            "grid": {"orientation": "orthogonal", "width": 1, "height": 1}, "tiles": tiles}


def tile_layer(name: str, rows: list[str], properties: dict[str, Any] | None = None
               ) -> dict[str, Any]:
    """A tile layer from text rows (see the module docstring)."""
    data = [GIDS.get(c, 0) for row in rows for c in row]
    layer = {"type": "tilelayer", "name": name, "width": len(rows[0]), "height": len(rows),
             "x": 0, "y": 0, "opacity": 1, "visible": True, "data": data}
    return _with_properties(layer, properties)


def object_layer(name: str, objects: list[dict[str, Any]],
                 properties: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object layer; each object a dict of Tiled's fields (``x``, ``y``,
    ``width``, ``height``, ``rotation``, ``ellipse``, ``polygon``, ``point`` ...)."""
    full = []
    for k, obj in enumerate(objects):
        base = {"id": k + 1, "name": "", "type": "", "x": 0, "y": 0, "width": 0,
                "height": 0, "rotation": 0, "visible": True}
        base.update(obj)
        if "polygon" in base:
            base["polygon"] = _polygon(base["polygon"])
        if isinstance(base.get("properties"), dict):
            base["properties"] = _properties(base["properties"])
        full.append(base)
    layer = {"type": "objectgroup", "name": name, "draworder": "topdown", "opacity": 1,
             "visible": True, "x": 0, "y": 0, "objects": full}
    return _with_properties(layer, properties)


def _properties(values: dict[str, Any]) -> list[dict[str, Any]]:
    kinds = {bool: "bool", int: "int", float: "float", str: "string"}
    return [{"name": k, "type": kinds[type(v)], "value": v} for k, v in values.items()]


def _with_properties(layer: dict[str, Any], properties: dict[str, Any] | None
                     ) -> dict[str, Any]:
    if properties:
        layer["properties"] = _properties(properties)
    return layer


def write_map(folder: Path, layers: list[dict[str, Any]], width: int, height: int) -> Path:
    """Write ``map.json`` (and its tile image) into ``folder``; return the map's path."""
    from PIL import Image

    Image.new("RGBA", (TILE, TILE), (120, 90, 60, 255)).save(folder / "tile.png")
    for k, layer in enumerate(layers):
        layer["id"] = k + 1
    tiled = {"type": "map", "version": "1.10", "tiledversion": "1.10.2",
             "orientation": "orthogonal", "renderorder": "right-down", "width": width,
             "height": height, "tilewidth": TILE, "tileheight": TILE, "infinite": False,
             "nextlayerid": len(layers) + 1, "nextobjectid": 1, "compressionlevel": -1,
             "layers": layers, "tilesets": [_tileset()]}
    path = folder / "map.json"
    path.write_text(json.dumps(tiled))
    return path
