#!/usr/bin/env python3
"""Watches the live page in a real browser: Debian's chromium driven by PyPI `playwright`.

Loads --url (a `/watch/{id}` page of `serve --http`), waits until its event stream is open, marks
the window (a reload would clear the mark) and prints {"ready": true}. Then reads one JSON line
per write made through MCP, {"health", "xp", "beast", "beast_health"} (beast null when none), and
answers {"ok": true, "ms": time until the page shows it} or {"ok": false, "error"}, waiting at most
1 s. On the line "done" it saves the screenshot as --out/watch-page.png and prints the summary:
the mark, the page loads counted by the navigation timing API, and the console errors.

    python watch_browser.py --url URL --out DIR [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from playwright.sync_api import sync_playwright
from sheet_browser import parse_args

SHOWS = """(w) => {
  const text = (sel) => { const e = document.querySelector(sel); return e ? e.textContent.trim() : null; };
  const xp = [...document.querySelectorAll(".vitals div")].find((d) => d.querySelector("dt").textContent === "XP");
  if (!(text(".bar.hp b") || "").startsWith("Health " + w.health + " /")) return false;
  if (!xp || xp.querySelector("dd").textContent !== String(w.xp)) return false;
  if (w.beast === null) return document.querySelector(".beast") === null;
  return text(".beast .name") === w.beast &&
    (text(".beast .bar b") || "").startsWith("Health " + w.beast_health + " /");
}"""


def say(obj: dict) -> None:
    print(json.dumps(obj), flush=True)


def main() -> int:
    args = parse_args("url")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True)
        page = browser.new_page(viewport={"width": 600, "height": 900})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(args.url)
        page.wait_for_selector("body[data-live=on]", timeout=5000)
        page.evaluate("window.__watchMark = 'kept'")
        say({"ready": True, "sheet": page.inner_text("#sheet")[:200]})
        for line in sys.stdin:
            line = line.strip()
            if line == "done":
                break
            want = json.loads(line)
            start = time.monotonic()
            try:
                page.wait_for_function(SHOWS, arg=want, timeout=1000, polling="raf")
                say({"ok": True, "ms": round((time.monotonic() - start) * 1000)})
            except Exception as e:  # noqa: BLE001 - reported to the test
                say({"ok": False, "error": str(e).splitlines()[0], "sheet": page.inner_text("#sheet")})
        shot = out / "watch-page.png"
        page.screenshot(path=str(shot), full_page=True)
        say({
            "mark": page.evaluate("window.__watchMark || null"),
            "loads": page.evaluate("performance.getEntriesByType('navigation').length"),
            "live": page.evaluate("document.body.dataset.live || null"),
            "events": page.evaluate("document.querySelectorAll('.events li').length"),
            "errors": errors,
            "screenshot": str(shot),
        })
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
