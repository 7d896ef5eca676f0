"""The character cards and the casualty card as a PDF (reportlab: pure Python from PyPI,
its own fonts, nothing to install on the machine). Cards are laid out 1, 4 or 8 to an A4
page with dashed cut lines; the QR codes are drawn as vector squares, sharp at any size."""
from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import qrcode
import reportlab
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .cards import GRID, Card

FONT, BOLD = "CardSans", "CardSans-Bold"
MARGIN = 6 * mm


@lru_cache(maxsize=1)
def _fonts() -> None:
    """Bitstream Vera, shipped inside reportlab: accents, «», — and ’ all print."""
    folder = Path(reportlab.__file__).parent / "fonts"
    pdfmetrics.registerFont(TTFont(FONT, str(folder / "Vera.ttf")))
    pdfmetrics.registerFont(TTFont(BOLD, str(folder / "VeraBd.ttf")))


def _wrap(text: str, font: str, size: float, width: float, max_lines: int) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if pdfmetrics.stringWidth(trial, font, size) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    if line:
        lines.append(line)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1].rstrip(".,;:") + "…"
    return lines


def _text(canvas: Canvas, x: float, y: float, text: str, font: str, size: float, width: float,
          max_lines: int = 1) -> float:
    """Writes wrapped text from its top at y; returns the y below it."""
    for line in _wrap(text, font, size, width, max_lines):
        y -= size * 1.2
        canvas.setFont(font, size)
        canvas.drawString(x, y, line)
    return y


def _qr(canvas: Canvas, url: str, x: float, y: float, side: float) -> None:
    """The QR with its quiet zone of four modules, bottom-left corner at (x, y)."""
    code = qrcode.QRCode(border=4, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    matrix = code.get_matrix()
    module = side / len(matrix)
    canvas.setFillGray(0)
    for row, cells in enumerate(matrix):
        for col, dark in enumerate(cells):
            if dark:
                canvas.rect(x + col * module, y + side - (row + 1) * module, module, module,
                            stroke=0, fill=1)


def _card(canvas: Canvas, card: Card, event_name: str, words: dict, x: float, y: float,
          w: float, h: float, per_page: int) -> None:
    scale = {1: 1.6, 4: 1.15, 8: 1.0}[per_page]
    inner_w = w - 2 * MARGIN
    how_size = 6.5 * scale
    how_h = 2 * 2 * how_size * 1.2 + 2           # two lines of how-to, each may wrap once
    qr_side = min(h - 2 * MARGIN - how_h - 4, inner_w * 0.45)
    top = y + h - MARGIN
    _qr(canvas, card.url, x + MARGIN, top - qr_side, qr_side)
    tx, tw = x + MARGIN + qr_side + 3 * mm, inner_w - qr_side - 3 * mm
    ty = _text(canvas, tx, top, event_name, FONT, 7 * scale, tw, 2)
    ty = _text(canvas, tx, ty - 2, card.name, BOLD, 11 * scale, tw, 2)
    if card.team:
        ty = _text(canvas, tx, ty, card.team, FONT, 8 * scale, tw, 1)
    ty = _text(canvas, tx, ty - 3, words["code"], FONT, 6.5 * scale, tw)
    ty = _text(canvas, tx, ty, card.code, "Courier-Bold", min(11 * scale, tw / 9), tw)
    ty = _text(canvas, tx, ty - 1, f"{words['medic_code']} {card.medic_code}", FONT, 6.5 * scale, tw)
    if per_page < 8:
        for detail in card.details:
            ty = _text(canvas, tx, ty - 1, detail, FONT, 7 * scale, tw, 2)
    by = y + MARGIN + how_h
    by = _text(canvas, x + MARGIN, by, words["how_1"], FONT, how_size, inner_w, 2)
    by = _text(canvas, x + MARGIN, by, words["how_2"], FONT, how_size, inner_w, 2)
    _text(canvas, x + MARGIN, y + MARGIN + 2, words["lasts"], FONT, 5.5 * scale, inner_w)


def _cut_lines(canvas: Canvas, cols: int, rows: int) -> None:
    width, height = A4
    canvas.setDash(3, 3)
    canvas.setStrokeGray(0.5)
    canvas.setLineWidth(0.4)
    for col in range(1, cols):
        canvas.line(col * width / cols, 0, col * width / cols, height)
    for row in range(1, rows):
        canvas.line(0, row * height / rows, width, row * height / rows)
    canvas.setDash()


def cards_pdf(cards: list[Card], *, event_name: str, words: dict, per_page: int) -> bytes:
    _fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, pageCompression=1)
    canvas.setTitle(event_name)
    cols, rows = GRID[per_page]
    width, height = A4
    w, h = width / cols, height / rows
    for start in range(0, max(len(cards), 1), per_page):
        if start:
            canvas.showPage()
        _cut_lines(canvas, cols, rows)
        for i, card in enumerate(cards[start:start + per_page]):
            col, row = i % cols, i // cols
            _card(canvas, card, event_name, words, col * w, height - (row + 1) * h, w, h, per_page)
    canvas.save()
    return out.getvalue()


def casualty_pdf(card: list[dict], *, title: str, words: dict) -> bytes:
    """The casualty card on A4: each state, how long it lasts, what changes it."""
    _fonts()
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4)
    canvas.setTitle(title)
    width, height = A4
    x, w = 15 * mm, width - 30 * mm
    y = _text(canvas, x, height - 15 * mm, title, BOLD, 16, w, 2)
    y = _text(canvas, x, y - 2, words["casualty_explain"], FONT, 9, w, 3)
    for row in card:
        if y < 40 * mm:
            canvas.showPage()
            y = height - 15 * mm
        y = _text(canvas, x, y - 8, row["state"], BOLD, 12, w, 2)
        y = _text(canvas, x + 4 * mm, y - 1, f"{words['lasts_head']} — " +
                  ("; ".join(row["lasts"]) or words["no_timer"]), FONT, 9, w - 4 * mm, 4)
        for move in row["moves"]:
            y = _text(canvas, x + 4 * mm, y - 1, f"• {move}", FONT, 8.5, w - 4 * mm, 3)
    canvas.save()
    return out.getvalue()
