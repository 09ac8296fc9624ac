"""The convex kernels' reused work arrays: results never depend on earlier calls or threads."""

from __future__ import annotations

import threading

import numpy as np

from arcade_collide.geometry.query.dispatch import contact_batch, intersects_batch
from arcade_collide.geometry.shapes import ShapeKind
from tests.geometry.query.narrow_cases import random_side


def batches(seed: int) -> list[tuple[object, object]]:
    rng = np.random.default_rng(seed)
    out = []
    # Sizes on both sides of the block sizes, so the work arrays grow and shrink.
    for m in (40, 700, 5, 1500, 90):
        for kinds in ((ShapeKind.POLYGON, ShapeKind.POLYGON), (ShapeKind.RECT, ShapeKind.TRIANGLE)):
            out.append((random_side(kinds[0], m, rng)[2], random_side(kinds[1], m, rng)[2]))
    return out


def results(work: list[tuple[object, object]]) -> list[tuple[np.ndarray, ...]]:  # type: ignore[type-arg]
    out = []
    for a, b in work:
        c = contact_batch(a, b)  # type: ignore[arg-type]
        out.append((intersects_batch(a, b), c.hit, c.normal, c.depth, c.point))  # type: ignore[arg-type]
    return out


def same(x: list[tuple[np.ndarray, ...]], y: list[tuple[np.ndarray, ...]]) -> bool:  # type: ignore[type-arg]
    return all(
        all(np.array_equal(p, q) for p, q in zip(rx, ry, strict=True))
        for rx, ry in zip(x, y, strict=True)
    )


def test_results_do_not_depend_on_call_order() -> None:
    work = batches(1)
    forward = results(work)
    backward = results(work[::-1])[::-1]
    assert same(forward, backward)


def test_threads_get_their_own_work_arrays() -> None:
    works = [batches(seed) for seed in range(4)]
    expected = [results(w) for w in works]
    got: list[list[tuple[np.ndarray, ...]]] = [[] for _ in works]  # type: ignore[type-arg]

    def run(k: int) -> None:
        for _ in range(3):
            got[k] = results(works[k])

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(works))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(len(works)):
        assert same(got[k], expected[k])
