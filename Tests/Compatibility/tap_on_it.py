"""Opens a LifeSignal responder link in Debian's Chromium (Playwright, JavaScript off, a phone
viewport) and taps "I'm on it", as a responder who got the SMS would.

    python tap_on_it.py URL

Prints `READY 0`, then one JSON line: what the page said before and after the tap. Exits
non-zero when the page has no such button.
"""
import json
import sys

from playwright.sync_api import sync_playwright

print("READY 0", flush=True)
with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--disable-dev-shm-usage"])
    page = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844}, is_mobile=True,
                               has_touch=True).new_page()
    page.goto(sys.argv[1])
    before = page.inner_text("body")
    page.get_by_role("button", name="I'm on it").click()
    page.wait_for_load_state()
    print(json.dumps({"before": before, "after": page.inner_text("body"), "url": page.url}), flush=True)
    browser.close()
sys.stdin.read()
