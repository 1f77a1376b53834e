"""Opens a LifeSignal responder link in Debian's Chromium, driven by Playwright, as a responder
would on a phone: JavaScript off, a phone-sized touch viewport. Checks what the page shows and
the accessibility basics, taps "I'm on it", sees the result, taps "They're safe", sees that.

    python responder_page_check.py --url URL --name "Ann Tester" --phone +15550005001
    python responder_page_check.py --invitation --url URL --name Ann

Prints one JSON line per step; exits non-zero with the reason on the first failure. The Swift
test that starts it (ResponderPageBrowserTests) then checks the database. Playwright never
downloads a browser here: it launches /usr/bin/chromium (scripts/test installs it).
"""

import argparse
import json
import os
import re
import sys

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# WCAG 2.5.5's target size; the page aims for 48 px.
MIN_TARGET = 44


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def launch(playwright):
    # A container's /dev/shm can be too small for Chromium's shared memory; /tmp is not.
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])


def step(name, page=None, **details):
    print(json.dumps({"step": name, **details}), flush=True)
    # LIFESIGNAL_SCREENSHOTS=<folder> keeps a picture of each step, to look at the layout.
    folder = os.environ.get("LIFESIGNAL_SCREENSHOTS")
    if folder and page is not None:
        page.screenshot(path=os.path.join(folder, name.replace(" ", "-") + ".png"), full_page=True)


def accessibility(page, where):
    """Every button and link has an accessible name; headings start at one h1 and never skip a
    level; the document has a language; nothing is wider than the phone."""
    check(page.locator("html").get_attribute("lang") == "en", f"{where}: <html lang> is not en")
    snapshot = page.locator("body").aria_snapshot()
    levels = []
    for line in snapshot.splitlines():
        item = line.strip()
        if re.match(r"^- (button|link)\b", item):
            check(re.match(r'^- (button|link) "[^"]*\S[^"]*"', item), f"{where}: no accessible name: {item}")
        heading = re.match(r'^- heading "(.+)" \[level=(\d)\]', item)
        if heading:
            levels.append(int(heading.group(2)))
    check(levels and levels[0] == 1 and levels.count(1) == 1, f"{where}: headings {levels} do not start with one h1")
    for before, after in zip(levels, levels[1:]):
        check(after <= before + 1, f"{where}: heading levels {levels} skip a level")
    for control in page.get_by_role("button").all() + page.locator("a.button").all():
        box = control.bounding_box()
        check(box and box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET,
              f"{where}: tap target {control.inner_text()!r} is {box}")
    width = page.evaluate("document.documentElement.scrollWidth")
    check(width <= page.viewport_size["width"], f"{where}: the page is {width} px wide on a phone")
    return snapshot, levels


def tap(page, button):
    """Taps a form's button and waits for the page the form's answer leads to."""
    with page.expect_navigation():
        page.get_by_role("button", name=button).tap()
    heading = page.get_by_role("heading", level=1).inner_text()
    check(heading != "That did not go through", f"{button} was refused: {page.inner_text('main')}")


def run(url, name, phone):
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context(
                java_script_enabled=False, viewport={"width": 390, "height": 844},
                device_scale_factor=3, is_mobile=True, has_touch=True, locale="en-GB")
            page = context.new_page()
            # A style the Content-Security-Policy refused would show here.
            problems = []
            page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)

            response = page.goto(url)
            check(response is not None and response.status == 200, f"the link answered {response and response.status}")
            headers = response.headers
            check("default-src 'none'" in headers.get("content-security-policy", ""), "no strict Content-Security-Policy")
            check(headers.get("referrer-policy") == "no-referrer", "no Referrer-Policy: no-referrer")
            snapshot, levels = accessibility(page, "the alert page")
            check(page.get_by_role("heading", level=1).inner_text() == f"{name} needs help", "the h1 is not who and what")
            call = page.get_by_role("link", name=f"Call {name}")
            check(call.get_attribute("href") == f"tel:{phone}", "no Call link to the person's phone")
            check(page.get_by_role("link", name="Open the shared location on a map").count() == 1, "no map link")
            check("Last check-in" in page.inner_text("main"), "no last check-in")
            check(page.locator("script").count() == 0, "the page has a script")
            step("opened", page, headings=levels, title=page.title())

            tap(page, "I'm on it")
            check(page.url == url, f"I'm on it did not come back to the link: {page.url}")
            status = page.get_by_role("status")
            check("You said you're on it" in status.inner_text(), "the page does not say you are on it")
            check(page.get_by_role("button", name="I'm on it").count() == 0, "I'm on it is still offered")
            accessibility(page, "the page after I'm on it")
            step("on it", page, status=status.inner_text())

            tap(page, "They're safe")
            check(page.get_by_role("heading", level=1).inner_text() == "Marked safe", "the page does not say marked safe")
            text = page.inner_text("main")
            check(name.split()[0] not in text and phone not in text, "the ended alert's page still names the person")
            accessibility(page, "the marked-safe page")
            step("marked safe", page)

            check(not problems, f"the browser reported errors: {problems}")
        finally:
            browser.close()


def invitation(url, name):
    """The page an invitation SMS links to: who invited (first name), how to accept."""
    with sync_playwright() as playwright:
        browser = launch(playwright)
        try:
            context = browser.new_context(
                java_script_enabled=False, viewport={"width": 390, "height": 844},
                device_scale_factor=3, is_mobile=True, has_touch=True)
            page = context.new_page()
            response = page.goto(url)
            check(response is not None and response.status == 200, f"the link answered {response and response.status}")
            _, levels = accessibility(page, "the invitation page")
            heading = page.get_by_role("heading", level=1).inner_text()
            check(heading == f"{name} invited you to LifeSignal", f"the h1 is {heading!r}")
            check(page.get_by_role("heading", name="How to accept").count() == 1, "no How to accept")
            check(page.get_by_role("listitem").count() == 3, "the steps are not a list of three")
            step("invitation", page, headings=levels)
        finally:
            browser.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--phone")
    parser.add_argument("--invitation", action="store_true", help="the URL is an invitation link")
    args = parser.parse_args()
    try:
        if args.invitation:
            invitation(args.url, args.name)
        else:
            run(args.url, args.name, args.phone)
    except CheckFailed as failure:
        print(json.dumps({"failed": str(failure)}), flush=True)
        sys.exit(1)
    print(json.dumps({"ok": True}), flush=True)


if __name__ == "__main__":
    main()
