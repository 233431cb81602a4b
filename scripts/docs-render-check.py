#!/usr/bin/env python3
"""Checks that the DocC sites built by scripts/docs render their overview in a real browser.

    python3 scripts/docs-render-check.py [CHROMIUM]

Serves .build/docs over loopback (the sites are built for static hosting under /SophonCore and
/SophonGemini), loads each module's page in headless Chromium, and looks for the first
sentence of its overview in the rendered DOM (DocC renders pages with JavaScript, so the text
is only there if the page really rendered). Screenshots go to .build/docs/NAME.png (not
committed). Exit status 0 when both pages render.
"""
import functools
import http.server
import os
import shutil
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = os.path.join(ROOT, ".build", "docs")
PAGES = {
    "SophonCore": "Read the JSON that language models actually return",
    "SophonGemini": "A client for the Google Gemini REST API",
}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main():
    browser = sys.argv[1] if len(sys.argv) > 1 else (shutil.which("chromium") or shutil.which("chromium-browser"))
    if not browser:
        sys.exit("docs-render-check: no chromium (apt-get install chromium)")
    handler = functools.partial(QuietHandler, directory=SITE)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    failures = []
    try:
        for name, sentence in PAGES.items():
            url = f"http://127.0.0.1:{port}/{name}/documentation/{name.lower()}/"
            common = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                      "--virtual-time-budget=20000", "--window-size=1280,900"]
            dom = subprocess.run(common + ["--dump-dom", url], capture_output=True, text=True, timeout=180)
            subprocess.run(common + [f"--screenshot={os.path.join(SITE, name + '.png')}", url],
                           capture_output=True, text=True, timeout=180)
            if sentence in dom.stdout:
                print(f"ok   {name}: the overview renders ({url})")
            else:
                failures.append(f"{name}: '{sentence}' not in the rendered page {url} "
                                f"(exit {dom.returncode}, {len(dom.stdout)} bytes of DOM)")
    finally:
        server.shutdown()
    for failure in failures:
        print("FAIL " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
