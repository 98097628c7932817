#!/usr/bin/env python3
"""Shows the adventurer sheet in a real browser: Debian's chromium driven by PyPI `playwright`.

Input (a JSON file written by tests/it/sheet_browser.rs):
    {"card": the MCP App's HTML, "page": a server-rendered sheet page,
     "cases": [{"name", "arguments", "result", "server_resources", "resources", "wait_for",
                "theme"}]}

Each case loads a small host page that does what an MCP Apps host does (SEP-1865, ext-apps
specification 2026-01-26, "Lifecycle"): it puts the card's HTML in a sandboxed iframe, answers
`ui/initialize`, and after `ui/notifications/initialized` posts `ui/notifications/tool-input` and
`ui/notifications/tool-result` with the tool's CallToolResult; it answers `resources/read` from
`resources` when `server_resources` is on. The page is loaded without JavaScript, then with it.

Prints one JSON object: per case the sheet's text, the methods the card sent, the console errors,
the sheet's background colour and the screenshot's path; for the page its text without JavaScript, whether the script renders
the very markup the server rendered, and its console errors.

    python sheet_browser.py --input in.json --out DIR [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

HOST = """<!doctype html><html><head><meta charset="utf-8"></head>
<body style="margin:0;background:#ccc">
<iframe id="card" sandbox="allow-scripts" style="border:0;width:560px;height:120px;display:block"></iframe>
<script>
window.sent = [];
window.start = function (c) {
  const frame = document.getElementById("card");
  const to = (msg) => frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, msg), "*");
  window.addEventListener("message", (e) => {
    if (e.source !== frame.contentWindow) return;
    const m = e.data;
    window.sent.push(m.method || "answer");
    if (m.method === "ui/initialize") {
      to({ id: m.id, result: { protocolVersion: "2026-01-26", hostInfo: { name: "test-host", version: "1" },
        hostCapabilities: c.server_resources ? { serverResources: {} } : {},
        hostContext: { theme: c.theme || "light", displayMode: "inline" } } });
    } else if (m.method === "ui/notifications/initialized") {
      to({ method: "ui/notifications/tool-input", params: { arguments: c.arguments } });
      to({ method: "ui/notifications/tool-result", params: c.result });
    } else if (m.method === "ui/notifications/size-changed") {
      frame.style.height = m.params.height + "px";
    } else if (m.method === "resources/read") {
      const r = (c.resources || {})[m.params.uri];
      to(r ? { id: m.id, result: r } : { id: m.id, error: { code: -32002, message: "not found" } });
    }
  });
  frame.srcdoc = c.card;
};
</script></body></html>"""


def watch(page, errors: list[str]) -> None:
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))


def run_case(browser, card: str, case: dict, out: Path) -> dict:
    page = browser.new_page(viewport={"width": 600, "height": 900})
    errors: list[str] = []
    watch(page, errors)
    page.set_content(HOST)
    page.evaluate("c => window.start(c)", {**case, "card": card})
    sheet = page.frame_locator("#card").locator("#sheet")
    sheet.filter(has_text=case["wait_for"]).wait_for(timeout=10_000)
    page.wait_for_function("() => window.sent.includes('ui/notifications/size-changed')", timeout=10_000)
    page.wait_for_timeout(200)
    shot = out / f"{case['name']}.png"
    page.locator("#card").screenshot(path=str(shot))
    background = page.frame_locator("#card").locator("body").evaluate("b => getComputedStyle(b).backgroundColor")
    result = {"text": sheet.text_content(), "sent": page.evaluate("window.sent"), "errors": errors,
              "background": background, "screenshot": str(shot)}
    page.close()
    return result


def run_page(browser, html: str) -> dict:
    errors: list[str] = []
    static = browser.new_context(java_script_enabled=False).new_page()
    watch(static, errors)
    static.set_content(html)
    nojs_text = static.locator("#sheet").text_content()
    live = browser.new_page()
    watch(live, errors)
    live.set_content(html)
    server, script = live.evaluate("""() => {
      const fresh = document.createElement("main");
      fresh.innerHTML = window.lsSheet.render(window.lsSheet.state);
      return [document.getElementById("sheet").innerHTML, fresh.innerHTML];
    }""")
    return {"nojs_text": nojs_text, "same_markup": server == script, "server_markup": server,
            "script_markup": script, "errors": errors}


def parse_args(*required: str) -> argparse.Namespace:
    """--NAME for each of `required` and --out, all required; --chromium (Debian's by default)."""
    ap = argparse.ArgumentParser()
    for name in (*required, "out"):
        ap.add_argument(f"--{name}", required=True)
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    return ap.parse_args()


def main() -> None:
    args = parse_args("input")
    data = json.loads(Path(args.input).read_text())
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, headless=True)
        report = {"cases": {c["name"]: run_case(browser, data["card"], c, out) for c in data["cases"]},
                  "page": run_page(browser, data["page"])}
        browser.close()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
