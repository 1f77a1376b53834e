"""Drives LifeSignal's web app in Debian's Chromium, with Playwright, as two people on phones:
Ann, who checks in, and Bob, who looks out for her. Each has a browser context of their own
(a phone-sized touch viewport, JavaScript on unless said), kept signed in from phase to phase
by the storage state (cookies) saved in --state DIR (ann.json, bob.json).

    python web_app_check.py --phase people|alert|sos|offline --base URL --state DIR \\
        --ann-phone P --ann-code C --bob-phone P --bob-code C

people  Both sign in by a texted code (Bob by keyboard alone, with a visible focus); both name
        themselves in Settings, Ann checks in every hour and checks in; a form posted from
        another origin is refused and changes nothing; Bob decodes Ann's QR code from a
        screenshot, opens its link and links as her responder; both People pages show it.
        Also a dark-mode home and a 200%-zoom home.
alert   (the server's clock has passed Ann's deadline and the sweep ran) Bob sees "Needs you
        now", answers "I'm on it"; Ann sees she is overdue and checks in; Bob's alert is gone.
sos     Ann sends an SOS with the location the browser grants; Bob sees it with a call link and
        a map link; without JavaScript Ann's home still shows it, and signing in and checking
        in still work.
offline Ann presses check-in with her phone offline: the page keeps it (IndexedDB) and says she
        is NOT checked in; back online it is sent, once.

On every page and state: axe-core finds no violation, one h1, <html lang>, every visible
control at least 44x44 CSS px (a radio button through its label, which is
what a finger taps), nothing wider than the phone, no console error.

The server under test runs on a hand-driven clock (the Swift test moves it between phases), so
each context's browser clock is set to the server's time, read from the home page the server
rendered, before a page with a countdown loads: the page's script then computes the same
countdown the server wrote, as it would on a real phone whose clock agrees with the server's.

Prints one JSON line per step; exits non-zero with the reason on the first failure. The Swift
test that starts it (WebAppBrowserTests) checks the database after each phase. Playwright
never downloads a browser here: it launches /usr/bin/chromium (scripts/test installs it).
"""

import argparse
import io
import json
import os
import re
import sys
from datetime import datetime
from html.parser import HTMLParser

import numpy
import zxingcpp
from axe_playwright_python.sync_playwright import Axe
from PIL import Image
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
# WCAG 2.5.5's target size; the pages aim for 48 px.
MIN_TARGET = 44
PHONE = {"width": 390, "height": 844}
# About 200% zoom of that phone: half the CSS pixels, twice the device pixels.
ZOOMED = {"width": 195, "height": 422}
# What the browser grants Ann in the sos phase.
WHERE = {"latitude": 51.5014, "longitude": -0.1419, "accuracy": 20}
# The h1 of the server's pages that say a form or page did not work.
REFUSALS = {"Not sent", "That did not work", "Something went wrong", "Too much text", "Try again in a moment"}

CHECK_IN = "I'm OK — check in"
SOS_LINK = "SOS — alert my responders"

AXE = Axe()


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def step(name, page=None, /, **details):
    line = json.dumps({"step": name, **details})
    print(line, flush=True)
    # LIFESIGNAL_SCREENSHOTS=<folder> keeps a picture of each step, to look at the layout, and
    # the steps' lines (steps.jsonl), which the Swift test shows only when a phase fails.
    folder = os.environ.get("LIFESIGNAL_SCREENSHOTS")
    if folder:
        with open(os.path.join(folder, "steps.jsonl"), "a") as log:
            log.write(line + "\n")
    if folder and page is not None:
        page.screenshot(path=os.path.join(folder, re.sub(r"[^A-Za-z0-9-]+", "-", name) + ".png"), full_page=True)


def launch(playwright):
    # A container's /dev/shm can be too small for Chromium's shared memory; /tmp is not.
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--disable-dev-shm-usage"])


# MARK: Contexts and pages


class Session:
    """One browser session of the run: the browser, the base URL, the console errors seen."""

    def __init__(self, browser, base, state):
        self.browser = browser
        self.base = base
        self.state = state
        self.errors = []

    def context(self, who=None, *, fresh=False, script=True, **options):
        """A phone-sized touch context; signed in as `who` from the saved state unless fresh.
        With script, its clock is Playwright's, so it can be set to the server's."""
        settings = dict(
            viewport=PHONE, device_scale_factor=3, is_mobile=True, has_touch=True, locale="en-GB",
            timezone_id="UTC", java_script_enabled=script)
        settings.update(options)
        if who and not fresh:
            path = self.state_file(who)
            check(os.path.exists(path), f"no saved browser state for {who} at {path}: run the earlier phase first")
            settings["storage_state"] = path
        context = self.browser.new_context(**settings)
        context.set_default_timeout(20_000)
        if script:
            context.clock.install()
        return context

    def page(self, context, label):
        page = context.new_page()
        page.on("console", lambda message: self.errors.append(f"{label}: {message.text}") if message.type == "error" else None)
        page.on("pageerror", lambda error: self.errors.append(f"{label}: {error}"))
        return page

    def state_file(self, who):
        return os.path.join(self.state, f"{who}.json")

    def save(self, context, who):
        context.storage_state(path=self.state_file(who))
        step(f"{who}: browser state saved", file=self.state_file(who))

    def url(self, path):
        return self.base + path

    def no_console_errors(self, allow=None):
        errors = [error for error in self.errors if not (allow and allow in error)]
        check(not errors, f"the browser reported errors: {errors}")


def h1(page):
    return page.locator("h1").first.inner_text().strip()


def go(page, url, heading=None):
    response = page.goto(url)
    check(response is not None and response.status == 200, f"{url} answered {response and response.status}")
    if heading is not None:
        check(h1(page) == heading, f"{url} shows {h1(page)!r}, not {heading!r}")
    return response


def press(page, name, role="button", heading=None):
    """Taps a control that leads to another page (a form's button, a link) and waits for it."""
    control = page.get_by_role(role, name=name, exact=True)
    check(control.count() == 1, f"{page.url}: {control.count()} {role}s named {name!r}")
    with page.expect_navigation():
        control.tap()
    page.wait_for_load_state()
    shown = h1(page)
    check(shown not in REFUSALS, f"{name} was refused on {page.url}: {page.inner_text('main')}")
    if heading is not None:
        check(shown == heading, f"after {name!r} the page shows {shown!r}, not {heading!r}")


def notice(page):
    status = page.locator("main .notice[role=status]")
    return status.inner_text().strip() if status.count() else None


def section(page, heading):
    return page.locator("section").filter(has=page.get_by_role("heading", name=heading, exact=True))


def main_text(page):
    return page.inner_text("main")


# MARK: Accessibility


TARGETS = """() => {
  const small = [];
  for (const element of document.querySelectorAll('button, a.button, input:not([type=hidden]), select, summary')) {
    if (element.closest('[hidden]') || element.getClientRects().length === 0) continue;
    const style = getComputedStyle(element);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    // A radio or checkbox is tapped through its label: the label is its target.
    let target = element;
    if ((element.type === 'radio' || element.type === 'checkbox') && element.labels && element.labels.length) target = element.labels[0];
    const box = target.getBoundingClientRect();
    if (box.width < 44 || box.height < 44) {
      const name = (element.getAttribute('aria-label') || element.innerText || element.value || element.name || element.id || '').trim().slice(0, 60);
      small.push({element: element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + (element.className ? '.' + String(element.className).split(' ').join('.') : ''),
                  name, measured: target === element ? 'itself' : 'its label', width: Math.round(box.width * 10) / 10, height: Math.round(box.height * 10) / 10});
    }
  }
  return small;
}"""


def axe(page, where):
    results = AXE.run(page)
    if results.violations_count:
        found = [
            {"rule": v["id"], "impact": v.get("impact"), "help": v["help"],
             "targets": [", ".join(node["target"]) for node in v["nodes"]],
             "summary": [node.get("failureSummary", "") for node in v["nodes"]][:3]}
            for v in results.response["violations"]
        ]
        print(results.generate_report(), file=sys.stderr, flush=True)
        raise CheckFailed(f"{where}: axe-core found {results.violations_count} violation(s): {json.dumps(found)}")


def audit(page, where, run_axe=True):
    """axe-core (when the page runs script), one h1, a language, targets of 44 px, no sideways scroll."""
    lang = page.locator("html").get_attribute("lang")
    check(bool(lang and lang.strip()), f"{where}: <html> has no lang")
    count = page.locator("h1").count()
    check(count == 1, f"{where}: {count} h1 elements, not one")
    small = page.evaluate(TARGETS)
    check(not small, f"{where}: tap targets smaller than {MIN_TARGET}x{MIN_TARGET} CSS px: {json.dumps(small)}")
    no_sideways_scroll(page, where)
    if run_axe:
        axe(page, where)
    step(f"checked: {where}", page, h1=h1(page), axe=run_axe)


def no_sideways_scroll(page, where):
    """Nothing wider than the window. A phone's browser widens its window (zooming out) to fit
    content too wide for it, so the width is compared with the viewport's as well."""
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    window = min(inner, page.viewport_size["width"])
    check(width <= window + 1, f"{where}: the page is {width} px wide in a {window} px window")
    return width, window


def axe_without_script(session, who, path, where):
    """axe-core needs script to run; a page as a browser without script shows it is the same
    page with app.js answering nothing, so axe runs there."""
    context = session.context(who)
    try:
        context.route("**/assets/app.js", lambda route: route.fulfill(status=200, content_type="text/javascript", body=""))
        page = context.new_page()
        go(page, session.url(path))
        axe(page, where)
        step(f"checked with axe: {where}", page)
    finally:
        context.close()


def focus_is_visible(page, where):
    focused = page.evaluate(
        """() => {
          const element = document.activeElement;
          if (!element || element === document.body) return null;
          const style = getComputedStyle(element), box = element.getBoundingClientRect();
          return {element: element.tagName.toLowerCase() + (element.id ? '#' + element.id : ''),
                  text: (element.innerText || element.value || '').trim().slice(0, 40),
                  outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth) || 0,
                  focusVisible: element.matches(':focus-visible'),
                  onScreen: box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0 && box.left < innerWidth && box.top < innerHeight};
        }""")
    check(focused is not None, f"{where}: nothing has the focus")
    check(focused["focusVisible"] and focused["outline"] != "none" and focused["outlineWidth"] >= 2,
          f"{where}: the focus on {focused['element']} is not visible: {focused}")
    check(focused["onScreen"], f"{where}: the focused {focused['element']} is off screen: {focused}")
    return focused


def tab_to(page, element_id, where, most=12):
    """Presses Tab from the top of the page until the element has the focus; every stop on the
    way shows where the focus is."""
    stops = []
    for _ in range(most):
        page.keyboard.press("Tab")
        focused = focus_is_visible(page, where)
        stops.append(focused["element"] + (f" {focused['text']!r}" if focused["text"] else ""))
        if focused["element"].endswith("#" + element_id):
            return stops
    raise CheckFailed(f"{where}: {most} Tab presses never reached #{element_id}: {stops}")


# MARK: The server's clock


class Countdown(HTMLParser):
    """The countdown the server wrote into the home page: its deadline and its text."""

    def __init__(self):
        super().__init__()
        self.deadline = None
        self.text = None
        self._inside = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if attributes.get("id") == "countdown":
            self.deadline = attributes.get("data-deadline")
            self.text = ""
            self._inside = True

    def handle_endtag(self, tag):
        self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.text += data


def span_minutes(text):
    """Minutes in "3 h 20 min", "45 min", "2 days 4 h"."""
    match = re.fullmatch(r"(?:(\d+) days?)? ?(?:(\d+) h)? ?(?:(\d+) min)?", text.strip())
    check(match and any(match.groups()), f"the countdown's time {text!r} is not a span")
    days, hours, minutes = (int(part) if part else 0 for part in match.groups())
    return days * 1440 + hours * 60 + minutes


def span_text(minutes):
    """The same words the server and the page's script write for a number of whole minutes."""
    if minutes < 60:
        return f"{minutes} min"
    hours, rest = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h" if rest == 0 else f"{hours} h {rest} min"
    days, h = divmod(hours, 24)
    return f"{days} days" if h == 0 else f"{days} days {h} h"


def server_countdown(context, base):
    """The server's own countdown on home, as its HTML has it (no script), or None."""
    response = context.request.get(base + "/")
    check(response.status == 200, f"home answered {response.status}")
    parser = Countdown()
    parser.feed(response.text())
    if parser.deadline is None:
        return None
    deadline = datetime.fromisoformat(parser.deadline.replace("Z", "+00:00")).timestamp()
    text = parser.text.strip()
    return deadline, text


def set_clock(context, base):
    """Sets the context's clock to a time the server's countdown text holds for, so the page's
    script writes what the server wrote for the next minute. Returns the server's text."""
    countdown = server_countdown(context, base)
    if countdown is None:
        return None
    deadline, text = countdown
    overdue = re.fullmatch(r"Overdue by (.+)", text)
    left = re.fullmatch(r"(.+) left", text)
    check(overdue or left, f"the server's countdown says {text!r}")
    if left:
        # M min left: ((M-1)*60, M*60] seconds; at M*60 the next 59 s still read M.
        now = deadline - span_minutes(left.group(1)) * 60
    else:
        # Overdue by M min: ((M-1)*60, M*60] seconds; one past (M-1)*60 keeps reading M.
        now = deadline + (span_minutes(overdue.group(1)) - 1) * 60 + 1
    context.clock.set_system_time(now)
    return text


def countdown_is_live(page, context, server_text, where):
    """The page's script wrote the countdown (the same as the server's for now), and rewrites it
    as time passes: five minutes later it says five minutes more or less."""
    countdown = page.locator("#countdown")
    page.wait_for_function("() => document.getElementById('countdown').textContent.trim().length > 0")
    text = countdown.inner_text().strip()
    check(re.fullmatch(r"(Overdue by )?\d+ (min|h)( \d+ min)?( left)?", text), f"{where}: the countdown says {text!r}")
    check(text == server_text, f"{where}: the script's countdown {text!r} is not the server's {server_text!r}")
    context.clock.run_for("05:00")
    later = countdown.inner_text().strip()
    minutes = span_minutes(re.sub(r"^Overdue by | left$", "", text))
    expected = f"{span_text(minutes - 5)} left" if text.endswith(" left") else f"Overdue by {span_text(minutes + 5)}"
    check(later == expected, f"{where}: five minutes on, the countdown says {later!r}, not {expected!r}")
    return text, later


# MARK: Steps shared by phases


def sign_in(session, page, who, phone, code):
    """Signs in by a texted code with taps, from the sign-in page."""
    go(page, session.url("/"), "Sign in")
    audit(page, f"{who}: sign-in page")
    page.get_by_label("Your mobile number").fill(phone)
    press(page, "Text me a code", heading="Enter your code")
    check(phone in page.locator("main strong").inner_text(), f"{who}: the code page does not name {phone}")
    audit(page, f"{who}: code page")
    page.get_by_label("Code", exact=True).fill(code)
    press(page, "Sign in")
    check(page.url == session.url("/"), f"{who}: signing in ended on {page.url}")
    check(page.get_by_role("button", name=CHECK_IN, exact=True).count() == 1, f"{who}: home has no check-in button")
    step(f"{who}: signed in", page, h1=h1(page))


def sign_in_by_keyboard(session, page, who, phone, code):
    """Signs in with Tab, typing and Enter only, seeing the focus at every stop."""
    go(page, session.url("/"), "Sign in")
    audit(page, f"{who}: sign-in page")
    stops = tab_to(page, "phone", f"{who}: sign-in page by keyboard")
    page.keyboard.type(phone)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    check(h1(page) == "Enter your code", f"{who}: Enter on the phone field led to {h1(page)!r}")
    audit(page, f"{who}: code page")
    focused = page.evaluate("document.activeElement && document.activeElement.id")
    if focused == "code":
        # The field is autofocused: the focus is already there and must show.
        focus_is_visible(page, f"{who}: code page by keyboard")
        code_stops = ["input#code (autofocus)"]
    else:
        code_stops = tab_to(page, "code", f"{who}: code page by keyboard")
    page.keyboard.type(code)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()
    check(page.url == session.url("/"), f"{who}: signing in by keyboard ended on {page.url}: {main_text(page)[:200]}")
    check(page.get_by_role("button", name=CHECK_IN, exact=True).count() == 1, f"{who}: home has no check-in button")
    step(f"{who}: signed in by keyboard", page, sign_in_stops=stops, code_stops=code_stops)


def name_in_settings(page, session, who, first, last, interval=None):
    press(page, "Settings", role="link", heading="Settings")
    audit(page, f"{who}: settings")
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    if interval:
        page.get_by_label("Check in every").select_option(label=interval)
    press(page, "Save", heading="Settings")
    check(notice(page) == "Saved.", f"{who}: saving settings says {notice(page)!r}")
    check(page.get_by_label("First name").input_value() == first, f"{who}: the first name did not stay")
    check(page.get_by_label("Last name").input_value() == last, f"{who}: the last name did not stay")
    chosen = page.locator("#interval option:checked").inner_text().strip()
    if interval:
        check(chosen == interval, f"{who}: Check in every shows {chosen!r} after saving, not {interval!r}")
    audit(page, f"{who}: settings saved")
    step(f"{who}: named in settings", page, name=f"{first} {last}", interval=chosen)


def open_home(session, context, page, who, heading=None):
    """Home with the browser's clock at the server's; the server's countdown text, if any."""
    server_text = set_clock(context, session.base)
    go(page, session.url("/"), heading)
    return server_text


def last_check_in(page):
    fact = page.locator("dl.facts dt", has_text="Last check-in").locator("xpath=following-sibling::dd[1]")
    time = fact.locator("time")
    return fact.inner_text().strip(), time.get_attribute("datetime") if time.count() else None


def check_in(page, who):
    press(page, CHECK_IN)
    check(page.url.endswith("/?said=checked-in"), f"{who}: checking in ended on {page.url}")
    said = notice(page)
    check(said and said.startswith("You're checked in"), f"{who}: checking in says {said!r}")
    return said


# MARK: Phases


def phase_people(session, args):
    ann_context = session.context("ann", fresh=True)
    bob_context = session.context("bob", fresh=True)
    ann = session.page(ann_context, "Ann")
    bob = session.page(bob_context, "Bob")

    sign_in(session, ann, "Ann", args.ann_phone, args.ann_code)
    check(h1(ann) == "Your check-in", f"Ann's first home shows {h1(ann)!r}")
    check("Check in to start your clock." in main_text(ann), "Ann's first home does not ask her to start her clock")
    audit(ann, "Ann: home before any check-in")

    sign_in_by_keyboard(session, bob, "Bob", args.bob_phone, args.bob_code)
    audit(bob, "Bob: home before any check-in")

    name_in_settings(ann, session, "Ann", "Ann", "Tester", interval="1 hour")
    name_in_settings(bob, session, "Bob", "Bob", "Tester")

    # Ann checks in; the countdown is the script's and it runs.
    press(ann, "Home", role="link", heading="Hello, Ann")
    audit(ann, "Ann: home, named, before checking in")
    check_in(ann, "Ann")
    server_text = open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    check(server_text is not None and server_text.endswith(" left"), f"Ann's home after checking in has the countdown {server_text!r}")
    facts = ann.locator("dl.facts").inner_text()
    check("1 hour" in facts, f"Ann's schedule does not say every 1 hour: {facts!r}")
    before, before_iso = last_check_in(ann)
    check(before_iso is not None, f"Ann's home has no last check-in after checking in: {before!r}")
    audit(ann, "Ann: home after checking in")
    text, later = countdown_is_live(ann, ann_context, server_text, "Ann's home")
    step("Ann: checked in", ann, countdown=text, five_minutes_later=later, last_check_in=before)
    # The service worker installs and keeps the shell (style, script, icon, manifest) for when
    # the network is gone: its install fetches them under the worker's own policy.
    cached = ann.evaluate(
        """async () => {
            const registration = await navigator.serviceWorker.ready;
            const cache = await caches.open('lifesignal-shell-v1');
            return { active: Boolean(registration.active), files: (await cache.keys()).map((r) => new URL(r.url).pathname).sort() };
        }"""
    )
    check(cached["active"] and cached["files"] == sorted(["/assets/app.css", "/assets/app.js", "/assets/icon.svg", "/manifest.webmanifest"]),
          f"the service worker did not keep the shell: {cached!r}")
    step("Ann: the shell is kept for offline use", ann, files=cached["files"])

    # A form posted from another site changes nothing, even with Ann's real form token.
    open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    token = ann.locator("#check-in-form input[name=_csrf]").get_attribute("value")
    check(token, "Ann's check-in form has no token")
    refused = ann_context.request.post(
        session.url("/check-in"), form={"_csrf": token},
        headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, max_redirects=0)
    check(refused.status == 403, f"a cross-site check-in answered {refused.status}, not 403")
    check("nothing was changed" in refused.text(), "the refusal does not say nothing was changed")
    open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    after, after_iso = last_check_in(ann)
    check((after, after_iso) == (before, before_iso), f"the refused post changed the last check-in: {before!r} → {after!r}")
    step("cross-site post refused", ann, status=refused.status, last_check_in=after)

    # Ann shows her QR code; Bob's "camera" is a screenshot decoded by zxing-cpp.
    press(ann, "People", role="link", heading="People")
    responders = section(ann, "People who look out for you")
    check("Nobody would be told" in responders.inner_text(), "Ann's People page does not say nobody would be told")
    audit(ann, "Ann: people, nobody yet")
    press(ann, "Show my QR code", role="link", heading="My QR code")
    image = ann.locator(".qr img")
    ann.wait_for_function("() => { const i = document.querySelector('.qr img'); return i && i.complete && i.naturalWidth > 0; }")
    audit(ann, "Ann: QR code page")
    written = ann.locator("main p.small a")
    link = written.inner_text().strip()
    check(written.get_attribute("href") == link, f"the written link's href {written.get_attribute('href')!r} is not its text {link!r}")
    check(link.startswith(session.url("/l/")), f"the QR page's link {link!r} is not on {session.url('/l/')}")
    picture = Image.open(io.BytesIO(image.screenshot())).convert("L")
    codes = zxingcpp.read_barcodes(numpy.asarray(picture), formats=zxingcpp.BarcodeFormat.QRCode)
    check(len(codes) == 1, f"the QR code screenshot decodes to {len(codes)} codes")
    decoded = codes[0].text
    check(decoded == link, f"the QR code holds {decoded!r}, the page writes {link!r}")
    step("Ann: QR code decoded", ann, link=decoded, pixels=list(picture.size))

    go(bob, decoded, "Link with Ann Tester?")
    audit(bob, "Bob: link page")
    bob.get_by_label("be looked out for by me").check()
    check(bob.get_by_label("be looked out for by me").is_checked(), "Bob's choice did not take")
    press(bob, "Link with Ann Tester", heading="People")
    check(bob.url == session.url("/people?said=linked"), f"linking ended on {bob.url}")
    check(notice(bob) == "You are now linked.", f"linking says {notice(bob)!r}")
    dependents = section(bob, "People you look out for")
    check(dependents.locator("li strong", has_text="Ann Tester").count() == 1, f"Bob does not look out for Ann: {dependents.inner_text()!r}")
    audit(bob, "Bob: people, linked")
    step("Bob: linked as Ann's responder", bob, looks_out_for=dependents.locator("li").first.inner_text())

    go(ann, session.url("/people"), "People")
    responders = section(ann, "People who look out for you")
    check(responders.locator("li strong", has_text="Bob Tester").count() == 1, f"Bob is not Ann's responder: {responders.inner_text()!r}")
    audit(ann, "Ann: people, with a responder")
    step("Ann: Bob looks out for her", ann, responders=responders.locator("li").first.inner_text())

    session.save(ann_context, "ann")
    session.save(bob_context, "bob")

    # Once: dark mode, and about 200% zoom.
    dark_context = session.context("ann", color_scheme="dark")
    dark = session.page(dark_context, "Ann (dark)")
    open_home(session, dark_context, dark, "Ann", "Hello, Ann")
    check(dark.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"), "the dark context is not dark")
    background = dark.evaluate("getComputedStyle(document.body).backgroundColor")
    check(background not in ("rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"), f"the dark home's background is {background}")
    audit(dark, "Ann: home in dark mode")
    dark_context.close()

    zoom_context = session.context("ann", viewport=ZOOMED, device_scale_factor=2)
    zoomed = session.page(zoom_context, "Ann (zoomed)")
    open_home(session, zoom_context, zoomed, "Ann", "Hello, Ann")
    width, inner = no_sideways_scroll(zoomed, "Ann: home at 200% zoom")
    button = zoomed.get_by_role("button", name=CHECK_IN, exact=True)
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    check(button.is_visible() and box and box["x"] >= 0 and box["x"] + box["width"] <= inner + 1,
          f"at 200% zoom the check-in button is not fully visible: {box}")
    step("Ann: home at 200% zoom", zoomed, scroll_width=width, window=inner, button=box)
    zoom_context.close()

    session.no_console_errors()


def phase_alert(session, args):
    bob_context = session.context("bob")
    bob = session.page(bob_context, "Bob")
    go(bob, session.url("/people"), "People")
    alarm = section(bob, "Needs you now")
    check(alarm.count() == 1, f"Bob's People page has no Needs you now: {main_text(bob)[:300]!r}")
    item = alarm.locator("li").filter(has_text="Ann Tester")
    check(item.count() == 1, f"Needs you now does not name Ann Tester: {alarm.inner_text()!r}")
    text = item.inner_text()
    check("Ann Tester: missed a check-in" in text, f"the alert does not say Ann missed a check-in: {text!r}")
    check("Nobody has answered yet." in text, f"the alert does not say nobody answered: {text!r}")
    call = item.get_by_role("link", name="Call Ann Tester", exact=True)
    check(call.count() == 1 and call.get_attribute("href") == f"tel:{args.ann_phone}", "the alert has no call link to Ann's phone")
    audit(bob, "Bob: people with an alert")
    step("Bob: sees Ann's missed check-in", bob, alert=text)

    on_it = item.get_by_role("button", name="I'm on it", exact=True)
    with bob.expect_navigation():
        on_it.tap()
    check(h1(bob) == "People", f"I'm on it led to {h1(bob)!r}: {main_text(bob)[:200]}")
    check(notice(bob) == "They've been told you're on it.", f"I'm on it says {notice(bob)!r}")
    text = section(bob, "Needs you now").locator("li").filter(has_text="Ann Tester").inner_text()
    check("On it: Bob Tester" in text, f"the alert does not say Bob is on it: {text!r}")
    audit(bob, "Bob: people, on it")
    step("Bob: on it", bob, alert=text)

    ann_context = session.context("ann")
    ann = session.page(ann_context, "Ann")
    server_text = open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    check(server_text is not None and server_text.startswith("Overdue by"), f"Ann's home says {server_text!r}, not overdue")
    check(ann.locator("section.card.red, section.card.orange, section.card.yellow").count() == 1, "Ann's status card is not marked late")
    audit(ann, "Ann: home, overdue")
    text, later = countdown_is_live(ann, ann_context, server_text, "Ann's overdue home")
    step("Ann: sees she is overdue", ann, countdown=text, five_minutes_later=later)

    open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    check_in(ann, "Ann")
    server_text = open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    check(server_text is not None and server_text.endswith(" left"), f"after checking in Ann's home says {server_text!r}")
    audit(ann, "Ann: home, checked in after being overdue")
    text, _ = countdown_is_live(ann, ann_context, server_text, "Ann's home after the alert")
    step("Ann: checked in", ann, countdown=text)

    go(bob, session.url("/people"), "People")
    check(section(bob, "Needs you now").count() == 0, f"Bob still sees Needs you now: {main_text(bob)[:300]!r}")
    tag = section(bob, "People you look out for").locator("li").filter(has_text="Ann Tester").locator(".tag").inner_text()
    check(tag.startswith("Checked in"), f"Bob sees Ann as {tag!r}")
    audit(bob, "Bob: people, all clear")
    step("Bob: the alert is gone", bob, ann=tag)

    session.save(ann_context, "ann")
    session.save(bob_context, "bob")
    session.no_console_errors()


def phase_sos(session, args):
    ann_context = session.context("ann", geolocation=WHERE, permissions=["geolocation"])
    ann = session.page(ann_context, "Ann")
    open_home(session, ann_context, ann, "Ann", "Hello, Ann")
    press(ann, SOS_LINK, role="link", heading="Send an SOS?")
    check("Bob Tester" in main_text(ann), "the SOS page does not say Bob will be told")
    status = ann.locator("#location-status")
    ann.wait_for_function("() => /^Your location will be sent/.test(document.getElementById('location-status').textContent)")
    sent = {name: ann.locator(f"#sos-form input[name={name}]").input_value() for name in ("latitude", "longitude", "accuracy")}
    check(sent == {"latitude": "51.5014", "longitude": "-0.1419", "accuracy": "20"}, f"the SOS form carries {sent}")
    audit(ann, "Ann: SOS confirm, location found")
    step("Ann: SOS page has her location", ann, status=status.inner_text(), location=sent)

    press(ann, "Yes, send the SOS", heading="Hello, Ann")
    said = notice(ann)
    check(said and said.startswith("SOS sent"), f"sending the SOS says {said!r}")
    active = section(ann, "Your SOS is active")
    check(active.count() == 1, "Ann's home does not say her SOS is active")
    check(ann.get_by_role("link", name=SOS_LINK, exact=True).count() == 0, "Ann's home still offers to send an SOS")
    audit(ann, "Ann: home with the SOS active")
    step("Ann: SOS sent", ann, said=said, active=active.inner_text())

    bob_context = session.context("bob")
    bob = session.page(bob_context, "Bob")
    go(bob, session.url("/people"), "People")
    item = section(bob, "Needs you now").locator("li").filter(has_text="Ann Tester")
    check(item.count() == 1, f"Bob does not see Ann in Needs you now: {main_text(bob)[:300]!r}")
    text = item.inner_text()
    check("Ann Tester: SOS" in text, f"Bob's alert does not say SOS: {text!r}")
    call = item.locator('a[href^="tel:"]')
    check(call.count() == 1 and call.get_attribute("href") == f"tel:{args.ann_phone}", "Bob's alert has no tel: link to Ann")
    where = item.get_by_role("link", name="Where they were", exact=True)
    check(where.count() == 1, "Bob's alert has no Where they were link")
    href = where.get_attribute("href")
    check("mlat=51.5014" in href and "mlon=-0.1419" in href, f"the map link is {href!r}")
    tag = section(bob, "People you look out for").locator("li").filter(has_text="Ann Tester").locator(".tag").inner_text()
    check(tag == "SOS", f"Bob's list shows Ann as {tag!r}")
    audit(bob, "Bob: people with an SOS")
    step("Bob: sees Ann's SOS", bob, alert=text, map=href)
    session.save(bob_context, "bob")
    session.save(ann_context, "ann")

    # Without JavaScript: the same home, a check-in, and signing in all work.
    plain_context = session.context("ann", script=False)
    plain = session.page(plain_context, "Ann (no script)")
    go(plain, session.url("/"), "Hello, Ann")
    check(section(plain, "Your SOS is active").count() == 1, "without script Ann's home does not say her SOS is active")
    countdown = server_countdown(plain_context, session.base)
    check(countdown is not None and plain.locator("#countdown").inner_text().strip() == countdown[1],
          "without script the countdown is not the server's")
    audit(plain, "Ann: home with the SOS active, no script", run_axe=False)
    axe_without_script(session, "ann", "/", "Ann: home with the SOS active, no script")
    check_in(plain, "Ann (no script)")
    check(section(plain, "Your SOS is active").count() == 1, "checking in without script ended the SOS")
    audit(plain, "Ann: home checked in with the SOS active, no script", run_axe=False)
    step("Ann: no script, checked in, SOS still active", plain, said=notice(plain))
    plain_context.close()

    fresh_context = session.context("ann", fresh=True, script=False)
    fresh = session.page(fresh_context, "Ann (no script, signing in)")
    go(fresh, session.url("/"), "Sign in")
    audit(fresh, "sign-in page, no script", run_axe=False)
    fresh.get_by_label("Your mobile number").fill(args.ann_phone)
    press(fresh, "Text me a code", heading="Enter your code")
    audit(fresh, "code page, no script", run_axe=False)
    fresh.get_by_label("Code", exact=True).fill(args.ann_code)
    press(fresh, "Sign in", heading="Hello, Ann")
    check(section(fresh, "Your SOS is active").count() == 1, "signed in without script, Ann's home does not show her SOS")
    step("Ann: signed in without script", fresh)
    fresh_context.close()

    session.no_console_errors()


QUEUED = """async () => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('lifesignal', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('check-ins', { keyPath: 'key' });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return new Promise((resolve, reject) => {
    const request = db.transaction('check-ins', 'readonly').objectStore('check-ins').count();
    request.onsuccess = () => { db.close(); resolve(request.result); };
    request.onerror = () => reject(request.error);
  });
}"""


def phase_offline(session, args):
    """Ann presses check-in with her phone offline: the page keeps it and says plainly she is
    not checked in; back online, the kept check-in goes, once."""
    context = session.context("ann")
    ann = session.page(context, "Ann")
    open_home(session, context, ann, "Ann", "Hello, Ann")
    before = last_check_in(ann)
    context.set_offline(True)
    ann.get_by_role("button", name=CHECK_IN, exact=True).tap()
    note = ann.locator("#offline-note")
    note.wait_for(state="visible")
    said = note.inner_text().strip()
    check("NOT checked in" in said, f"offline, the page says {said!r}")
    check(note.get_attribute("role") == "alert", "the offline note is not announced (role=alert)")
    check(notice(ann) is None and last_check_in(ann) == before, "offline, the page shows a check-in")
    check(ann.evaluate(QUEUED) == 1, "the offline check-in is not kept in IndexedDB")
    audit(ann, "Ann: home, check-in kept offline")
    step("Ann: offline check-in kept", ann, note=said)

    with ann.expect_navigation(url=session.url("/?said=checked-in")):
        context.set_offline(False)
    ann.wait_for_load_state()
    said = notice(ann)
    check(said and said.startswith("You're checked in"), f"back online the page says {said!r}")
    after = last_check_in(ann)
    check(after[1] != before[1], f"back online the last check-in is still {after!r}")
    check(ann.evaluate(QUEUED) == 0, "the sent check-in is still kept")
    open_home(session, context, ann, "Ann", "Hello, Ann")
    check(last_check_in(ann)[1] == after[1], "loading home again sent another check-in")
    audit(ann, "Ann: home, offline check-in sent")
    step("Ann: offline check-in sent once back online", ann, last_check_in=after[0])
    session.save(context, "ann")
    # Chromium logs the fetch that could not leave while offline; nothing else may be there.
    session.no_console_errors(allow="ERR_INTERNET_DISCONNECTED")


PHASES = {"people": phase_people, "alert": phase_alert, "sos": phase_sos, "offline": phase_offline}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--phase", required=True, choices=sorted(PHASES))
    parser.add_argument("--base", required=True)
    parser.add_argument("--state", required=True, help="a folder for each person's browser state between phases")
    parser.add_argument("--ann-phone", required=True)
    parser.add_argument("--ann-code", required=True)
    parser.add_argument("--bob-phone", required=True)
    parser.add_argument("--bob-code", required=True)
    args = parser.parse_args()
    os.makedirs(args.state, exist_ok=True)
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            try:
                PHASES[args.phase](Session(browser, args.base.rstrip("/"), args.state), args)
            finally:
                browser.close()
    except CheckFailed as failure:
        print(json.dumps({"phase": args.phase, "failed": str(failure)}), flush=True)
        sys.exit(1)
    except PlaywrightError as error:
        print(json.dumps({"phase": args.phase, "failed": f"the browser: {error.message}"}), flush=True)
        sys.exit(1)
    print(json.dumps({"phase": args.phase, "ok": True}), flush=True)


if __name__ == "__main__":
    main()
