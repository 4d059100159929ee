"""QR codes as inline SVG, drawn on the server (no JavaScript, prints sharply)."""

from __future__ import annotations

import qrcode
import qrcode.image.svg


def qr_svg(url: str) -> str:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
    return image.to_string(encoding="unicode")
