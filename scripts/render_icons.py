"""Render the web app manifest's PNG icons from static/icons/icon.svg
with the Chromium the browser tests use: static/icons/icon-192.png and icon-512.png.
Run again after changing the SVG:  python scripts/render_icons.py"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"
SIZES = (192, 512)


def main() -> None:
    svg = (ICONS / "icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            # The icon fills the page; the SVG scales with its viewBox.
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
            page.close()
        browser.close()
    print("wrote", ", ".join(f"icon-{size}.png" for size in SIZES))


if __name__ == "__main__":
    main()
