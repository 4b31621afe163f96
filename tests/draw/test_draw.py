"""Pictures: every bundled instance draws; the SVG parses and holds one element
per cell / path / move; the HTML page is self-contained and steps through a
clearing; PNG when matplotlib is present; the ``draw`` command's outputs and
exit codes."""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from search.app.cli import main
from search.core.registry import instance_files, load_puzzle
from search.draw import figure, solution_svg, svg, write
from search.draw.colours import colour
from search.draw.lianliankan import states, tiles
from search.draw.page import page
from search.draw.svg import to_string
from tests.conftest import INSTANCES

EVERY = [str(p.relative_to(INSTANCES)) for p in instance_files([INSTANCES])]
SMALL = {  # solved in a blink by the default backend
    "futoshiki": ["tatham/u05_easy_1.tatham", "handmade/seed_example_3.txt",
                  "hakank/futoshiki3_6x6.dat"],
    "numberlink": ["seed-article/seed_7x7.nl", "generated/numberlink_7x7_seed_3.nl",
                   "adc2015/Q04.txt"],
    "lianliankan": ["handmade/zigzag.llk", "handmade/u-shape.llk", "seed/seed-article.llk"],
}


def classes(text: str) -> Counter:
    """How many elements carry each class (an element may carry several)."""
    root = ET.fromstring(text)
    return Counter(name for node in root.iter() for name in node.get("class", "").split())


def loaded(relative: str, **rules):
    kind_, puzzle = load_puzzle(INSTANCES / relative)
    return kind_, dataclasses.replace(puzzle, **rules) if rules else puzzle


def solved(kind_, puzzle):
    result = kind_.backend(kind_.default_backend("solve")).solve(puzzle)
    assert result.solution is not None and not kind_.call("verify", puzzle, result.solution)
    return result.solution


# ---------------------------------------------------------------- every instance


@pytest.mark.parametrize("relative", EVERY)
def test_every_instance_draws_one_element_per_cell(relative):
    kind_, puzzle = loaded(relative)
    found = classes(svg(puzzle))
    if kind_.name == "futoshiki":
        assert found["cell"] == puzzle.n ** 2
        assert found["sign"] == len(puzzle.less)
        assert found["given"] == sum(1 for row in puzzle.givens for v in row if v)
    elif kind_.name == "numberlink":
        assert found["cell"] == len(puzzle.open_cells)
        assert found["blocked"] == len(puzzle.blocked)
        assert found["end"] == 2 * len(puzzle.pairs)
        assert found["path"] == 0
    else:
        assert found["tile"] == len(puzzle.tiles)
        assert found["ring"] == 0


def test_the_ring_shows_when_the_rule_has_it():
    _, board = loaded("lianliankan/handmade/ring.llk", border=True)
    assert classes(svg(board))["ring"] == 1


# ---------------------------------------------------------------- solutions


@pytest.mark.parametrize("relative", [f"{k}/{f}" for k, fs in SMALL.items() for f in fs])
def test_solutions_draw_one_element_per_path_or_move(relative):
    kind_, puzzle = loaded(relative)
    solution = solved(kind_, puzzle)
    found = classes(to_string(figure(puzzle, [solution])))
    if kind_.name == "futoshiki":
        assert found["given"] + found["value"] == puzzle.n ** 2
    elif kind_.name == "numberlink":
        assert found["path"] == len(puzzle.pairs)
    else:
        assert found["order"] == 2 * len(solution.moves)  # each tile: the move that takes it
        assert found["move"] == len(solution.moves)  # the lines, under the tiles
        stepped = classes(to_string(figure(puzzle, [solution], steps=True)))
        assert stepped["move"] == len(solution.moves)
        assert stepped["step-caption"] == len(solution.moves) + 1
        assert stepped["turn"] == sum(len(m.corners) for m in solution.moves)


def test_solutions_alone_and_in_jupyter():
    for kind_name, files in SMALL.items():
        kind_, puzzle = loaded(f"{kind_name}/{files[0]}")
        solution = solved(kind_, puzzle)
        for text in (puzzle._repr_svg_(), solution._repr_svg_(), solution_svg(solution)):
            assert ET.fromstring(text).tag.endswith("svg")


@pytest.mark.parametrize("gravity", [False, True])
def test_tiles_followed_through_the_clearing_give_the_rules_boards(gravity):
    kind_, board = loaded("lianliankan/seed/seed-article.llk", gravity=gravity)
    moves = solved(kind_, board).moves
    followed = tiles(board, moves)
    for state, expected in enumerate(states(board, moves)):
        grid = [[0] * board.width for _ in range(board.height)]
        for tile in followed:
            if state < len(tile.cells):
                r, c = tile.cells[state]
                grid[r][c] = tile.picture
        assert tuple(map(tuple, grid)) == expected.grid
    assert any(len(set(t.cells)) > 1 for t in followed) == gravity  # tiles fall only so


def test_two_solutions_side_by_side_mark_where_they_differ():
    kind_, puzzle = loaded("numberlink/generated/numberlink_7x7_seed_3.nl")
    pair = kind_.backend("search").unique(puzzle).solutions
    assert len(pair) == 2
    differ = kind_.call("differences", puzzle, *pair)
    found = classes(to_string(figure(puzzle, pair, marked=differ)))
    assert differ and found["differs"] == 2 * len(differ)
    assert found["path"] == 2 * len(puzzle.pairs)


def test_futoshiki_adjacent_bars_are_drawn():
    _, puzzle = loaded("futoshiki/tatham/a05_tricky_1.tatham")
    assert puzzle.adjacent and puzzle.bars
    assert classes(svg(puzzle))["bar"] == len(puzzle.bars)


def test_the_palette_keeps_36_colours_apart():
    def rgb(code):
        return [int(code[i:i + 2], 16) for i in (1, 3, 5)]

    colours = [rgb(colour(i)) for i in range(36)]
    closest = min(sum((a - b) ** 2 for a, b in zip(x, y)) ** 0.5
                  for x, y in itertools.combinations(colours, 2))
    assert closest > 20


# ---------------------------------------------------------------- HTML and PNG


def test_the_html_page_is_self_contained():
    kind_, board = loaded("lianliankan/seed/seed-article.llk", gravity=True)
    text = page(figure(board, [solved(kind_, board)], steps=True), "seed")
    for outside in ("http", "src=", "<link", "@import", "url("):
        assert outside not in text
    assert "<script>" in text and 'id="next"' in text
    body = text[text.index("<svg"):text.index("</svg>") + 6]
    assert classes(body)["tile"] == len(board.tiles)


def test_png_when_matplotlib_is_present(tmp_path):
    pytest.importorskip("matplotlib", reason="PNG needs matplotlib (the plots extra)")
    from PIL import Image  # a dependency of matplotlib

    kind_, puzzle = loaded("numberlink/seed-article/seed_7x7.nl")
    picture = figure(puzzle, [solved(kind_, puzzle)], title="seed_7x7")
    write(picture, tmp_path / "n.png")
    image = Image.open(tmp_path / "n.png").convert("RGB")
    assert image.size == (round(picture.width * 2), round(picture.height * 2))
    assert len(image.getcolors(1 << 16) or ()) > 20  # paths and labels, not a blank page


# ---------------------------------------------------------------- the command


def test_draw_command_writes_a_folder_of_pictures(tmp_path, capsys):
    files = [str(INSTANCES / "futoshiki/vifeagent/csv/puzzle_01_4x4_easy.txt"),
             str(INSTANCES / "futoshiki/vifeagent/seed/puzzle_01_4x4_easy.txt")]
    assert main(["draw", *files, "-o", str(tmp_path), "--format", "html"]) == 0
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.html"))
    assert written == ["csv/puzzle_01_4x4_easy.html", "seed/puzzle_01_4x4_easy.html"]


def test_draw_keeps_apart_files_that_differ_only_in_suffix(tmp_path):
    (tmp_path / "pair.dat").write_text("2 1\n1 1\n")  # a Numberlink
    (tmp_path / "pair.llk").write_text("1 1\n")  # a Lianliankan
    out = tmp_path / "pics"
    assert main(["draw", str(tmp_path / "pair.dat"), str(tmp_path / "pair.llk"),
                 "-o", str(out)]) == 0  # was: the second found the first's picture, exit 2
    assert sorted(p.name for p in out.iterdir()) == ["pair.dat.svg", "pair.llk.svg"]
    assert "<svg" in (out / "pair.llk.svg").read_text()


def test_draw_names_a_puzzle_from_standard_input_stdin(tmp_path, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"2 1\n1 1\n")))
    assert main(["draw", "--solve", "-", "-o", str(tmp_path / "pics")]) == 0
    assert [p.name for p in (tmp_path / "pics").iterdir()] == ["stdin.svg"]  # was -.svg


def test_draw_check_shows_two_solutions_and_exits_as_check(tmp_path):
    out = tmp_path / "empty.svg"
    assert main(["draw", "--check", str(INSTANCES / "futoshiki/latin/empty_4.txt"),
                 "-o", str(out)]) == 1
    found = classes(out.read_text())
    assert found["futoshiki"] == 2 and found["caption"] == 2 and found["differs"] > 0
    out = tmp_path / "example.svg"  # not well-designed: two lenient solutions
    assert main(["draw", "--check", str(INSTANCES / "numberlink/tdzdd/example.dat"),
                 "-o", str(out)]) == 1
    found = classes(out.read_text())
    assert found["numberlink"] == 2 and found["path"] == 4 and found["differs"] > 0
    out = tmp_path / "u.svg"
    assert main(["draw", "--check", str(INSTANCES / "futoshiki/tatham/u04_easy_1.tatham"),
                 "-o", str(out)]) == 0
    assert classes(out.read_text())["value"] > 0


def test_draw_a_contest_answer(tmp_path):
    out = tmp_path / "q.svg"
    assert main(["draw", str(INSTANCES / "numberlink/adc2015/Q04.txt"), "--solution",
                 str(INSTANCES / "numberlink/adc2015/answers/A04.txt"), "-o", str(out)]) == 0
    _, puzzle = loaded("numberlink/adc2015/Q04.txt")
    assert classes(out.read_text())["path"] == len(puzzle.pairs)


def test_each_rule_set_of_the_manifest_draws_its_own_picture(tmp_path, capsys):
    ring = INSTANCES / "lianliankan/handmade/ring.llk"
    assert main(["draw", "--check", "--manifest-rules", "--json", str(ring),
                 "-o", str(tmp_path)]) == 1  # unsolvable without the ring
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(Path(d["picture"]).name, d["verdict"]) for d in lines] == [
        ("ring.svg", "UNSOLVABLE"), ("ring-border.svg", "SOLVABLE")]
    assert classes((tmp_path / "ring-border.svg").read_text())["ring"] == 1


def test_other_commands_do_not_load_the_drawing_code():
    code = ("import sys; from search.app.cli import build_parser; build_parser(['solve', 'x']); "
            "print(sorted(m for m in sys.modules if m.startswith('search.draw')))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=INSTANCES.parent, check=True)
    assert run.stdout.strip() == "[]"


def test_draw_to_standard_output(capsys):
    assert main(["draw", str(INSTANCES / "lianliankan/handmade/zigzag.llk"), "-o", "-"]) == 0
    assert classes(capsys.readouterr().out)["tile"] > 0


@pytest.mark.parametrize("argv, words", [
    (["draw", "missing.nl"], "missing.nl: no such file"),
    (["draw", "futoshiki/latin/empty_3.txt", "futoshiki/latin/empty_4.txt", "-o", "x.svg"],
     "names one picture"),
    (["draw", "futoshiki/latin/empty_3.txt", "-o", "x.pdf"], "no picture format"),
    (["draw", "futoshiki/latin/empty_3.txt", "--solution", "futoshiki/latin/empty_3.txt"],
     "filled-in 3 x 3 square"),
])
def test_bad_input_exits_2_with_the_file(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(INSTANCES)
    argv = [a if not a.endswith((".svg", ".pdf")) else str(tmp_path / a) for a in argv]
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_bad_puzzle_file_names_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.fut"
    bad.write_text("3\n0 | 0 | 0\n- - x - -\n0 | 0 | 0\n- - - - -\n0 | 0 | 0\n")
    assert main(["draw", str(bad), "-o", str(tmp_path)]) == 2
    assert f"{bad}:3:" in capsys.readouterr().err


def test_a_wrong_solution_file_exits_2(tmp_path, capsys):
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("1: (0,0) - (0,1)\n")
    assert main(["draw", str(INSTANCES / "lianliankan/handmade/zigzag.llk"),
                 "--solution", str(wrong), "-o", str(tmp_path / "z.svg")]) == 2
    assert "breaks the rules" in capsys.readouterr().err


def test_a_backend_solution_that_fails_verify_is_never_drawn(tmp_path, monkeypatch):
    import search.futoshiki.verify

    monkeypatch.setattr(search.futoshiki.verify, "verify", lambda puzzle, solution: ["bad"])
    out = tmp_path / "u.svg"
    assert main(["draw", "--solve", str(INSTANCES / "futoshiki/tatham/u04_easy_1.tatham"),
                 "-o", str(out)]) == 1
    text = out.read_text()
    assert "ERROR: the backend's solution fails verification: bad" in text
    assert classes(text)["value"] == 0


# ---------------------------------------------------------------- in a browser


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.skip("headless Chromium is absent (Debian: apt-get install chromium)")
    return found


def _browse(browser: str, *args: str) -> str:
    run = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                          "--hide-scrollbars", *args], capture_output=True, text=True,
                         timeout=120)
    return run.stdout


@pytest.mark.slow
def test_the_page_shows_in_chromium_and_steps(tmp_path):
    browser = _chromium()
    Image = pytest.importorskip("PIL.Image", reason="the screenshot is read with Pillow")

    out = tmp_path / "seed.html"
    board_file = INSTANCES / "lianliankan/seed/seed-article.llk"
    assert main(["draw", "--solve", "--gravity", str(board_file), "-o", str(out)]) == 0
    shot = tmp_path / "shot.png"
    _browse(browser, f"--screenshot={shot}", "--window-size=900,1000", out.as_uri())
    image = Image.open(shot).convert("RGB")
    assert len(image.getcolors(1 << 20) or ()) > 50  # tiles in many colours, not blank

    def shown(step: int) -> str:
        dom = _browse(browser, "--virtual-time-budget=2000", "--dump-dom",
                      f"{out.as_uri()}#step={step}")
        assert f'<body data-step="{step}">' in dom
        return dom

    kind_, board = loaded("lianliankan/seed/seed-article.llk", gravity=True)
    followed = tiles(board, solved(kind_, board).moves)  # the same solution: deterministic
    assert any(t.cells[45] != t.cells[0] for t in followed if len(t.cells) > 45)
    tile = re.compile(r'<g class="tile"[^>]*>')
    for step in (0, 5, 45):
        dom = shown(step)
        found = tile.findall(dom)
        hidden = [t for t in found if "display: none" in t]
        assert len(found) == len(tile.findall(out.read_text())) and len(hidden) == 2 * step
        caption = re.search(r'class="step-caption" data-show="(\d+)-\d+"[^>]*inline[^>]*>'
                            r'([^<]*)', dom)
        assert caption and int(caption[1]) == step and caption[2].startswith(f"move {step + 1}")
        moved = [t for t in found if "transform=" in t and "translate(0,0)" not in t
                 and "display: none" not in t]
        assert len(moved) == sum(1 for t in followed if step < len(t.cells)
                                 and t.cells[step] != t.cells[0])
