"""BlockMask.plot: attnc's tile plan of a FlexAttention mask drawn as SVG with axes and a legend,
through the attnc binary the package carries, with captured tensors and numbers passed along."""

import xml.dom.minidom

import torch

from attnc.torch import create_block_mask


def _rects(svg):
    doc = xml.dom.minidom.parseString(svg)
    return [(r.getAttribute("class"), int(r.getAttribute("x")), int(r.getAttribute("y")), int(r.getAttribute("width")))
            for r in doc.getElementsByTagName("rect") if r.getAttribute("class")]


def test_causal_plan_is_drawn_tile_by_tile(tmp_path):
    def causal(b, h, q_idx, kv_idx):
        return q_idx >= kv_idx

    mask = create_block_mask(causal, None, None, 256, 256, BLOCK_SIZE=128)
    svg = mask.plot(tmp_path / "causal.svg", corner=8)
    assert (tmp_path / "causal.svg").read_text() == svg
    assert mask._repr_svg_() == mask.plot()  # what a notebook shows
    tiles = [r for r in _rects(svg) if r[0] in "fpe" and r[3] >= 256]  # 2 x 2 tiles of 256 px a side
    # Query tile 0: the diagonal (partial) then nothing; query tile 1: a full tile, then the diagonal.
    assert tiles[:4] == [("p", 64, 56, 256), ("e", 320, 56, 256), ("f", 64, 312, 256), ("p", 320, 312, 256)]
    for words in ("full tile", "partial tile", "empty tile", "queries", "keys 256"):
        assert words in svg


def test_captured_tensors_and_numbers_reach_the_plan():
    doc = torch.zeros(300, dtype=torch.int64)
    doc[100:] = 1
    window = 100

    def documents_in_window(b, h, q_idx, kv_idx):
        return (doc[q_idx] == doc[kv_idx]) & (q_idx - kv_idx < window) & (q_idx >= kv_idx)

    mask = create_block_mask(documents_in_window, 1, 1, 300, 300, BLOCK_SIZE=64)
    svg = mask.plot()
    # The tile panel (5 x 5 tiles of 102 px from (64, 56)) cell by cell: a tile attnc computes
    # (full or partial) wherever FlexAttention's dense block mask has an allowed element.
    grid = [[None] * 5 for _ in range(5)]
    for kind, x, y, width in _rects(svg):
        if 64 <= x < 64 + 5 * 102 and 56 <= y < 56 + 5 * 102 and kind in "fpe":
            for c in range((x - 64) // 102, (x - 64 + width) // 102):
                grid[(y - 56) // 102][c] = kind
    dense = mask.to_dense()[0, 0]
    assert [[cell != "e" for cell in row] for row in grid] == (dense != 0).tolist()
    assert grid[2][0] == "e"  # inside the window: the captured documents alone empty it
    assert grid[4][1] == "e" and grid[3][1] == "p"  # the window (a captured number) alone empties [4][1]
